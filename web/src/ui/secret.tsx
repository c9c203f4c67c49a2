// A secret shown once, with a copy button.
import { useId, useRef, useState } from 'react';
import { Icon } from './icons';

export function CopyableSecret({ value, label }: { value: string; label: string }) {
  const [copied, setCopied] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      input.current?.select();
      document.execCommand('copy');
    }
    setCopied(true);
    setTimeout(() => setCopied(false), 2500);
  }
  return (
    <>
      <div className="secret">
        <label htmlFor={id} className="visually-hidden">
          {label}
        </label>
        <input id={id} ref={input} readOnly value={value} className="mono" onFocus={(e) => e.target.select()} />
        <button type="button" className="btn btn-secondary" onClick={() => void copy()}>
          <Icon name={copied ? 'check' : 'copy'} />
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      <span className="visually-hidden" role="status">
        {copied ? 'Copied to the clipboard' : ''}
      </span>
    </>
  );
}
