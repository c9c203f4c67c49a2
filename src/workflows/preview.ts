// The dashboard's live preview of a draft workflow: the draft's subject and body rendered by the same
// renderer (templates.ts) with the same values (values.ts) as a real send, for a real recent booking of
// the operator, or for a clearly labelled sample booking when the operator has none yet. Nothing is
// stored or sent. Templates are plain text: what a guest typed (a name) stays text in the e-mail, and the
// dashboard shows the preview as text, never as markup.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { NotFound, ValidationFailed } from '../http/errors.js';
import { findBookingId, newestConfirmedBookingId } from '../bookings/index.js';
import { requireShopProfile } from '../settings/profile.js';
import { renderTemplate, templateErrors, type Placeholder } from './templates.js';
import { bookingTemplateValues, guestWords } from './values.js';
import type { WorkflowEvent, WorkflowPreview, WorkflowPreviewBody } from './schemas.js';

/** What the preview shows when the operator has no booking yet; the dashboard labels it as a sample. */
export const SAMPLE_VALUES = {
  FirstName: 'Alex',
  LastName: 'Sample',
  BookingReference: 'BK-SAMPLE00',
  ActivityName: 'Sample activity',
  Date: '2030-06-01',
  Time: '10:00',
  Participants: '2',
} satisfies Partial<Record<Placeholder, string>>;
const SAMPLE_ZONE = 'Europe/Berlin';

/** The sample's placeholders for an event, in English (a sample guest has no language of their own). */
const sampleValues = (event: WorkflowEvent, operatorName: string): Record<Placeholder, string> => ({
  ...SAMPLE_VALUES,
  OperatorName: operatorName,
  ...guestWords('en', event, {
    firstName: SAMPLE_VALUES.FirstName,
    activityName: SAMPLE_VALUES.ActivityName,
    date: SAMPLE_VALUES.Date,
    time: SAMPLE_VALUES.Time,
    timezone: SAMPLE_ZONE,
  }),
  ...LINKS_IN_PREVIEW,
});

/** The guest's manage link is a capability made when the e-mail is sent; the preview never shows one. */
export const MANAGE_LINK_IN_PREVIEW = "[the guest's own link to view or cancel the booking]";
export const WAIVER_LINK_IN_PREVIEW = "[the guest's own link to complete the waiver]";
const LINKS_IN_PREVIEW = { ManageBookingUrl: MANAGE_LINK_IN_PREVIEW, CompleteWaiverUrl: WAIVER_LINK_IN_PREVIEW };

export async function previewWorkflow(db: Kysely<Database>, operatorId: number, body: WorkflowPreviewBody): Promise<WorkflowPreview> {
  const errors = [...templateErrors('Subject', body.Subject), ...templateErrors('Body', body.Body)];
  if (errors.length > 0) throw new ValidationFailed(errors);
  const booking = await previewBooking(db, operatorId, body.BookingReference);
  let values: Record<Placeholder, string>;
  let reference: string | null = null;
  const event = body.Event ?? 'booking-confirmed';
  if (booking) {
    values = { ...booking.valuesFor(event), ...LINKS_IN_PREVIEW };
    reference = booking.values.BookingReference;
  } else {
    // The name guests know the shop by: the one profile's (no link in it is shown, so no public URL is needed).
    const profile = await requireShopProfile(db, operatorId, '');
    values = sampleValues(event, profile.name);
  }
  return {
    Sample: booking === undefined,
    BookingReference: reference,
    To: booking?.customerEmail ?? null,
    Subject: renderTemplate(body.Subject, values),
    Body: renderTemplate(body.Body, values),
  };
}

/** The booking asked for (404 when it is not the operator's), else the operator's newest confirmed one. */
async function previewBooking(db: Kysely<Database>, operatorId: number, reference: string | undefined) {
  if (reference !== undefined) {
    const id = await findBookingId(db, operatorId, reference);
    if (id === undefined) throw new NotFound(`No booking ${reference}`);
    return bookingTemplateValues(db, operatorId, id);
  }
  const newest = await newestConfirmedBookingId(db, operatorId);
  return newest === undefined ? undefined : bookingTemplateValues(db, operatorId, newest);
}
