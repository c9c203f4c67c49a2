// The placeholders a workflow template may use, in the order the dashboard's editor offers them. This file
// imports nothing, so the editor (web/src/pages/Workflows.tsx) offers exactly what the server renders:
// a placeholder added here is a button there.
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
