// CSV (RFC 4180) for spreadsheets. A cell that a spreadsheet would run as a formula (starting with = + - @,
// a tab or a carriage return) gets a leading apostrophe, so a value someone typed into a booking or a name
// can never execute when the operator opens the export (CSV injection).
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(cells: unknown[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}
