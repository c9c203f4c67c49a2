// Form fields, each with its label, hint and error wired for screen readers.
import { useId, type ReactNode, type InputHTMLAttributes, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';

interface FieldProps {
  label: string;
  hint?: ReactNode;
  error?: string;
  className?: string;
}

function FieldShell({ label, hint, error, className = '', id, children }: FieldProps & { id: string; children: ReactNode }) {
  return (
    <div className={`field ${error ? 'field-invalid' : ''} ${className}`}>
      <label htmlFor={id}>{label}</label>
      {children}
      {hint && !error && (
        <div className="field-hint" id={`${id}-hint`}>
          {hint}
        </div>
      )}
      {error && (
        <div className="field-error" id={`${id}-error`}>
          {error}
        </div>
      )}
    </div>
  );
}

const describedBy = (id: string, { hint, error }: FieldProps) => (error ? `${id}-error` : hint ? `${id}-hint` : undefined);

export function TextField({ label, hint, error, className, ...input }: FieldProps & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <FieldShell id={id} label={label} hint={hint} error={error} className={className}>
      <input id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, { label, hint, error })} {...input} />
    </FieldShell>
  );
}

export function SelectField({ label, hint, error, className, children, ...select }: FieldProps & SelectHTMLAttributes<HTMLSelectElement>) {
  const id = useId();
  return (
    <FieldShell id={id} label={label} hint={hint} error={error} className={className}>
      <select id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, { label, hint, error })} {...select}>
        {children}
      </select>
    </FieldShell>
  );
}

export function TextArea({ label, hint, error, className, ...area }: FieldProps & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const id = useId();
  return (
    <FieldShell id={id} label={label} hint={hint} error={error} className={className}>
      <textarea id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, { label, hint, error })} {...area} />
    </FieldShell>
  );
}

export function Checkbox({ label, hint, ...input }: { label: ReactNode; hint?: ReactNode } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <div className="check">
      <input type="checkbox" id={id} aria-describedby={hint ? `${id}-hint` : undefined} {...input} />
      <span>
        <label htmlFor={id} className="check-label">
          {label}
        </label>
        {hint && (
          <span className="check-hint" id={`${id}-hint`}>
            {hint}
          </span>
        )}
      </span>
    </div>
  );
}
