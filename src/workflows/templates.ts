// Workflow templates: plain text with {{Placeholder}} fields. Plain text only, so nothing a customer
// typed (a name) can turn into markup in someone's mail client.
import type { FieldError } from '../http/errors.js';

export const PLACEHOLDERS = [
  'FirstName',
  'LastName',
  'BookingReference',
  'ActivityName',
  'Date',
  'Time',
  'Participants',
  'OperatorName',
  // In the guest's language (the booking's Locale; src/lib/guest-messages.ts): "Hello Ada," / "Hallo Ada,",
  'Greeting',
  // the workflow's event in a few words ("Booking confirmed"), the event's sentence about the booking,
  'Headline',
  'Intro',
  // the date and time in words with the activity's zone named, and the zone alone.
  'When',
  'Timezone',
  // The guest's page to view and cancel the booking (src/storefront/email-links.ts): filled when sent.
  'ManageBookingUrl',
  // The page where the guest completes a pending waiver (the same link's /waiver): filled when sent.
  'CompleteWaiverUrl',
] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];

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
