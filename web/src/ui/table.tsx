// Tables.
import type { ReactNode } from 'react';

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
