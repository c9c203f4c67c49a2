// Waitlists and the e-mail outbox come with a later issue; until their records are settled these
// pages show whatever fields the API answers, formatted sensibly, rather than guessing a fixed shape.
import { formatInstant } from '../format';
import { DataTable } from '../ui';

export type Row = Record<string, unknown>;

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

export function cellText(value: unknown): string {
  if (value === null || value === undefined || value === '') return '–';
  if (typeof value === 'string') return ISO_INSTANT.test(value) ? formatInstant(value) : value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map(cellText).join(', ');
  if (typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if ('FirstName' in o || 'LastName' in o) return [o.FirstName, o.LastName].filter(Boolean).join(' ') + (o.Email ? ` <${String(o.Email)}>` : '');
    return Object.entries(o)
      .map(([k, v]) => `${k}: ${cellText(v)}`)
      .join(', ');
  }
  return String(value);
}

/** The columns to show: the given preferred ones first (when present), then other short fields. */
export function columnsOf(rows: Row[], preferred: string[], hidden: string[] = [], max = 7): string[] {
  const seen = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row)) seen.add(key);
  const first = preferred.filter((key) => seen.has(key));
  const rest = [...seen].filter((key) => !first.includes(key) && !hidden.includes(key));
  return [...first, ...rest].slice(0, max);
}

export function GenericTable({ rows, columns, onOpen, label }: { rows: Row[]; columns: string[]; onOpen?: (row: Row) => void; label: string }) {
  return (
    <DataTable
      rows={rows}
      // CreatedAt -> Created at
      columns={columns.map((column) => column.replace(/([a-z])([A-Z])/g, (_, a: string, b: string) => `${a} ${b.toLowerCase()}`))}
      actions={onOpen && 'Open'}
      label={label}
    >
      {(row, index) => (
        <tr key={String(row.ID ?? index)}>
          {columns.map((column) => (
            <td key={column} data-label={column}>
              {cellText(row[column])}
            </td>
          ))}
          {onOpen && (
            <td className="actions">
              <button type="button" className="btn btn-sm btn-ghost" onClick={() => onOpen(row)}>
                View
              </button>
            </td>
          )}
        </tr>
      )}
    </DataTable>
  );
}
