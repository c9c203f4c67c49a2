// CSV (RFC 4180) for spreadsheets: every CSV the server exports (the audit log, the bookings report, the
// bookings list) is written with these. A text cell that a spreadsheet would run as a formula (starting with
// = + - @, a tab or a carriage return, or the fullwidth ＝ ＋ － ＠ that some spreadsheets read as those)
// gets a leading apostrophe, so a value someone typed into a booking or a name can never execute when the
// operator opens the export (CSV injection). Numbers stay numbers. The same rules as the dashboard's own
// downloads (web/src/csv.ts).
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

export function csvCell(value: unknown): string {
  if (typeof value === 'number') return String(value);
  let text = value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(cells: unknown[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}
