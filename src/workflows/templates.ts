// Workflow templates: plain text with {{Placeholder}} fields. Plain text only, so nothing a customer
// typed (a name) can turn into markup in someone's mail client.
import type { FieldError } from '../http/errors.js';

import { PLACEHOLDERS, type Placeholder } from './placeholders.js';

export { PLACEHOLDERS, type Placeholder };

/** What {{ManageBookingUrl}} renders to when queued: left as it is, and filled in only when sent. */
export const MANAGE_BOOKING_MARKER = '{{ManageBookingUrl}}';
/** {{CompleteWaiverUrl}}, likewise. */
export const COMPLETE_WAIVER_MARKER = '{{CompleteWaiverUrl}}';

const FIELD = /\{\{\s*([A-Za-z]+)\s*\}\}/g;

/** Unknown placeholders are a 422 when the workflow is saved, never a surprise in a customer's inbox. */
export function templateErrors(field: string, template: string): FieldError[] {
  const unknown = [...template.matchAll(FIELD)].map((match) => match[1]!).filter((name) => !(PLACEHOLDERS as readonly string[]).includes(name));
  if (unknown.length === 0) return [];
  return [
    {
      field,
      message: `${field} uses unknown placeholders ${[...new Set(unknown)].map((n) => `{{${n}}}`).join(', ')}; known: ${PLACEHOLDERS.map((n) => `{{${n}}}`).join(', ')}`,
    },
  ];
}

export function renderTemplate(template: string, values: Record<Placeholder, string>): string {
  return template.replace(FIELD, (whole, name: string) => (name in values ? values[name as Placeholder] : whole));
}
