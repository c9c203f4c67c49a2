// The dashboard's building blocks: data loading, page header, tables, fields, badges, dialogs, toasts, states.
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useId,
  useRef,
  useState,
  type ReactNode,
  type DependencyList,
  type InputHTMLAttributes,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';
import { ApiError } from './api';

// ---- Loading data ----

export interface Loaded<T> {
  data: T | undefined;
  error: ApiError | undefined;
  loading: boolean;
  reload: () => void;
  setData: (data: T) => void;
}

/**
 * Runs `load` whenever deps change; a newer run cancels the older one's result. `loading` is derived: true
 * until the data (or error) held is that of the current deps. So it is true from the very render in which
 * deps change, which comes before the effect that starts the new load.
 */
export function useLoad<T>(load: (signal: AbortSignal) => Promise<T>, deps: DependencyList): Loaded<T> {
  const [tick, setTick] = useState(0);
  const inputs = [...deps, tick];
  const current = useRef(inputs);
  current.current = inputs;
  const [state, setState] = useState<{ data?: T; error?: ApiError; loadedFor?: DependencyList }>({});
  useEffect(() => {
    const controller = new AbortController();
    setState((previous) => ({ ...previous, error: undefined }));
    load(controller.signal).then(
      (data) => controller.signal.aborted || setState({ data, loadedFor: inputs }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setState({ loadedFor: inputs, error: error instanceof ApiError ? error : new ApiError(0, 'Error', String(error)) });
      },
    );
    return () => controller.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, inputs);
  return {
    data: state.data,
    error: state.error,
    loading: !state.loadedFor || state.loadedFor.some((value, i) => !Object.is(value, inputs[i])),
    reload: useCallback(() => setTick((t) => t + 1), []),
    setData: useCallback((data: T) => setState({ data, loadedFor: current.current }), []),
  };
}

// ---- Toasts ----

interface Toast {
  id: number;
  text: string;
  tone: 'success' | 'error';
}
const ToastContext = createContext<(text: string, tone?: Toast['tone']) => void>(() => {});
export const useToast = () => useContext(ToastContext);

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const next = useRef(1);
  const show = useCallback((text: string, tone: Toast['tone'] = 'success') => {
    const id = next.current++;
    setToasts((list) => [...list, { id, text, tone }]);
    setTimeout(() => setToasts((list) => list.filter((toast) => toast.id !== id)), 5000);
  }, []);
  return (
    <ToastContext.Provider value={show}>
      {children}
      <div className="toasts" role="status" aria-live="polite">
        {toasts.map((toast) => (
          <div key={toast.id} className={`toast toast-${toast.tone}`}>
            <Icon name={toast.tone === 'success' ? 'check' : 'alert'} />
            {toast.text}
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

// ---- Layout pieces ----

export function PageHeader({ title, description, actions }: { title: string; description?: ReactNode; actions?: ReactNode }) {
  return (
    <header className="page-header">
      <div>
        <h1 tabIndex={-1}>{title}</h1>
        {description && <p className="page-description">{description}</p>}
      </div>
      {actions && <div className="page-actions">{actions}</div>}
    </header>
  );
}

export function Card({ title, actions, children, className = '' }: { title?: ReactNode; actions?: ReactNode; children: ReactNode; className?: string }) {
  return (
    <section className={`card ${className}`}>
      {(title || actions) && (
        <div className="card-header">
          {title && <h2>{title}</h2>}
          {actions && <div className="card-actions">{actions}</div>}
        </div>
      )}
      {children}
    </section>
  );
}

export function Badge({ tone = 'neutral', children, title }: { tone?: string; children: ReactNode; title?: string }) {
  return (
    <span className={`badge badge-${tone}`} title={title}>
      {children}
    </span>
  );
}

export function Spinner({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="loading" role="status">
      <span className="spinner" aria-hidden="true" />
      <span>{label}…</span>
    </div>
  );
}

export function ErrorBanner({ error, onRetry }: { error: ApiError | Error | undefined; onRetry?: () => void }) {
  if (!error) return null;
  return (
    <div className="banner banner-error" role="alert">
      <Icon name="alert" />
      <div>
        <strong>{error instanceof ApiError && error.title ? error.title : 'Something went wrong'}</strong>
        <div>{error.message}</div>
        {error instanceof ApiError && error.errors.length > 1 && (
          <ul>
            {error.errors.map((e) => (
              <li key={e.field + e.message}>
                <code>{e.field}</code>: {e.message}
              </li>
            ))}
          </ul>
        )}
      </div>
      {onRetry && (
        <button type="button" className="btn btn-ghost btn-sm" onClick={onRetry}>
          Retry
        </button>
      )}
    </div>
  );
}

export function EmptyState({ icon = 'inbox', title, children, action }: { icon?: IconName; title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <div className="empty">
      <div className="empty-icon" aria-hidden="true">
        <Icon name={icon} />
      </div>
      <h3>{title}</h3>
      {children && <p>{children}</p>}
      {action}
    </div>
  );
}

// ---- Tables ----

/** A column's header: its text, or its text with the header cell's class (`num` for figures). */
export type Column = string | { label: string; className?: string };

/** A column of figures: its header is aligned like them. */
export const figure = (label: string): Column => ({ label, className: 'num' });

/**
 * A list as a table: in a wrapper that scrolls sideways, headed by `columns` (and by `actions`, for screen
 * readers only, over a last column of buttons), one row per item of `rows` (`children` renders each, with
 * its key). Without rows it is `empty` when that is given; `rows` undefined (not loaded) shows nothing.
 * `label` names the table; `scrollable` makes the wrapper a focusable region, so a keyboard can scroll it.
 */
export function DataTable<T>({
  rows,
  columns,
  actions,
  empty,
  label,
  scrollable,
  className,
  children,
}: {
  rows: readonly T[] | undefined;
  columns: readonly Column[];
  actions?: string;
  empty?: ReactNode;
  label?: string;
  scrollable?: boolean;
  className?: string;
  children: (row: T, index: number) => ReactNode;
}) {
  if (!rows) return null;
  if (rows.length === 0 && empty !== undefined) return <>{empty}</>;
  return (
    <div className="table-wrap" {...(scrollable && { tabIndex: 0, role: 'region', 'aria-label': `${label}, scrollable` })}>
      <table className={className ? `table ${className}` : 'table'} aria-label={label}>
        <thead>
          <tr>
            {columns.map((column) => {
              const { label: text, className: cell } = typeof column === 'string' ? { label: column, className: undefined } : column;
              return (
                <th key={text} scope="col" className={cell}>
                  {text}
                </th>
              );
            })}
            {actions && (
              <th scope="col">
                <span className="visually-hidden">{actions}</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>{rows.map((row, index) => children(row, index))}</tbody>
      </table>
    </div>
  );
}

// ---- Form fields ----

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

// ---- A secret shown once, with a copy button ----

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

// ---- Dialog (the native <dialog>: focus trap, Escape and the backdrop for free) ----

export function Dialog({
  open,
  title,
  onClose,
  children,
  footer,
  wide = false,
}: {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  wide?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      const opener = document.activeElement as HTMLElement | null;
      dialog.showModal();
      return () => opener?.focus?.();
    }
    if (!open && dialog.open) dialog.close();
    return undefined;
  }, [open]);
  return (
    <dialog
      ref={ref}
      className={`dialog ${wide ? 'dialog-wide' : ''}`}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => {
        if (event.target === ref.current) onClose();
      }}
    >
      {open && (
        <div className="dialog-body">
          <div className="dialog-header">
            <h2 id={titleId}>{title}</h2>
            <button type="button" className="btn btn-icon btn-ghost" aria-label="Close" onClick={onClose}>
              <Icon name="x" />
            </button>
          </div>
          <div className="dialog-content">{children}</div>
          {footer && <div className="dialog-footer">{footer}</div>}
        </div>
      )}
    </dialog>
  );
}

export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  tone = 'danger',
  busy,
  error,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  tone?: 'danger' | 'primary';
  busy?: boolean;
  error?: ApiError;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Dialog
      open={open}
      title={title}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn btn-secondary" onClick={onClose}>
            Keep it
          </button>
          <button type="button" className={`btn btn-${tone}`} disabled={busy} onClick={onConfirm}>
            {busy ? 'Working…' : confirmLabel}
          </button>
        </>
      }
    >
      {children}
      <ErrorBanner error={error} />
    </Dialog>
  );
}

// ---- Icons (inline SVG paths, so nothing is fetched) ----

const ICONS = {
  bookings: 'M8 2v4M16 2v4M3 9h18M5 5h14a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V7a2 2 0 0 1 2-2Zm3 9h3v3H8z',
  activities: 'M12 2 2 7l10 5 10-5-10-5ZM2 17l10 5 10-5M2 12l10 5 10-5',
  keys: 'M15.5 7.5a3.5 3.5 0 1 1-7 0 3.5 3.5 0 0 1 7 0ZM12 11v11M12 16h3M12 19h4',
  usage: 'M3 3v18h18M7 15l4-4 3 3 5-6',
  waitlist: 'M12 6v6l4 2M22 12a10 10 0 1 1-20 0 10 10 0 0 1 20 0Z',
  mail: 'M4 4h16a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2H4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2Zm18 2-10 7L2 6',
  plus: 'M12 5v14M5 12h14',
  x: 'M18 6 6 18M6 6l12 12',
  check: 'M20 6 9 17l-5-5',
  alert: 'M12 9v4M12 17h.01M10.3 3.9 1.8 18a2 2 0 0 0 1.7 3h17a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0Z',
  search: 'M21 21l-4.3-4.3M11 18a7 7 0 1 1 0-14 7 7 0 0 1 0 14Z',
  inbox: 'M22 12h-6l-2 3h-4l-2-3H2M5.5 5h13l3.5 7v6a2 2 0 0 1-2 2H4a2 2 0 0 1-2-2v-6L5.5 5Z',
  copy: 'M9 9h11v11H9zM5 15H4V4h11v1',
  download: 'M12 3v12M7 10l5 5 5-5M5 21h14',
  left: 'M15 18l-6-6 6-6',
  right: 'M9 18l6-6-6-6',
  logout: 'M9 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h4M16 17l5-5-5-5M21 12H9',
  menu: 'M3 6h18M3 12h18M3 18h18',
  up: 'M18 15l-6-6-6 6',
  down: 'M6 9l6 6 6-6',
  trash: 'M3 6h18M8 6V4h8v2M19 6l-1 14H6L5 6',
  file: 'M14 2H6a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V8l-6-6ZM14 2v6h6',
  calendar: 'M8 2v4M16 2v4M3 9h18M5 5h14a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V7a2 2 0 0 1 2-2Z',
  list: 'M8 6h13M8 12h13M8 18h13M3 6h.01M3 12h.01M3 18h.01',
  edit: 'M12 20h9M16.5 3.5a2.1 2.1 0 0 1 3 3L7 19l-4 1 1-4 12.5-12.5Z',
  user: 'M20 21v-2a4 4 0 0 0-4-4H8a4 4 0 0 0-4 4v2M12 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8Z',
  store: 'M3 9l1.5-5h15L21 9M3 9h18v11H3zM3 9a3 3 0 0 0 6 0 3 3 0 0 0 6 0 3 3 0 0 0 6 0M9 20v-6h6v6',
  globe: 'M12 22a10 10 0 1 0 0-20 10 10 0 0 0 0 20ZM2 12h20M12 2a15 15 0 0 1 0 20M12 2a15 15 0 0 0 0 20',
  handshake: 'M11 17l2 2a1.4 1.4 0 0 0 2-2M14 14l2.5 2.5a1.4 1.4 0 0 0 2-2L15 11M3 11l4-4 4 1 3-2 7 6-3 3M3 11l5 5 2-1',
  webhook: 'M13 2 3 14h9l-1 8 10-12h-9l1-8Z',
  refresh: 'M21 12a9 9 0 1 1-3-6.7L21 8M21 3v5h-5',
} as const;
export type IconName = keyof typeof ICONS;

export function Icon({ name, size = 18 }: { name: IconName; size?: number }) {
  return (
    <svg className="icon" width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      <path d={ICONS[name]} />
    </svg>
  );
}

// ---- Date-range presets ----

export interface RangePreset {
  id: string;
  label: string;
  range: () => { from: string; to: string };
}

/** Chips that set a date range; the chip whose range is the current one is shown pressed. */
export function RangePresets({ presets, from, to, label, onPick }: { presets: RangePreset[]; from: string; to: string; label: string; onPick: (range: { from: string; to: string }) => void }) {
  const active = presets.find((p) => {
    const range = p.range();
    return range.from === from && range.to === to;
  });
  return (
    <div className="presets" role="group" aria-label={label}>
      {presets.map((p) => (
        <button key={p.id} type="button" className={`chip ${active?.id === p.id ? 'chip-active' : ''}`} aria-pressed={active?.id === p.id} onClick={() => onPick(p.range())}>
          {p.label}
        </button>
      ))}
    </div>
  );
}
