// A workflow e-mail to a guest as it is sent (the workflow kind's message at sending, wired in
// src/reactions.ts): the workflow's text as queued, its links filled in (email-links.ts), inside the
// operator's layout with the booking's details in the guest's language, a QR code for check-in and an
// .ics calendar entry; Reply-To the shop's contact address. Made at sending, not at queueing, because the
// manage link is a capability the outbox must never store (email-links.ts) and because the details (a
// moved time, a new logo) should be those of the moment the e-mail goes. docs/emails.md.
import type { EmailRow } from '../emails/index.js';
import type { MessageParts } from '../emails/mailer.js';
import type { SendingContext } from '../emails/kinds.js';
import { findBookingForEmail } from '../bookings/index.js';
import { getBooking } from '../bookings/service.js';
import { findActivity } from '../catalog/index.js';
import { listActivityQuestions } from '../questions/index.js';
import { detailsOf } from '../catalog/details.js';
import { refundRulesOf } from '../catalog/refund-rules.js';
import { findWorkflow } from '../workflows/index.js';
import { guestWords } from '../workflows/values.js';
import { shopProfile } from '../settings/profile.js';
import { manageBookingUrl } from '../settings/links.js';
import { GUEST_MESSAGES, guestLanguage, INTL_LOCALES, policySentences, type GuestLanguage } from '../lib/guest-messages.js';
import { fillManageBookingUrl } from './email-links.js';
import { manageToken } from './manage.js';
import { qrPng } from './qr-png.js';
import { bookingIcs } from './ics.js';
import { guestEmailHtml, guestEmailText, type GuestEmailDetails, type GuestEmailModel } from './guest-email-layout.js';
import type { WorkflowEvent } from '../workflows/schemas.js';
import { unixNow } from '../lib/clock.js';

/** The events whose e-mail is about a booking still to come: it carries the QR code and the calendar entry. */
const UPCOMING: readonly WorkflowEvent[] = ['booking-confirmed', 'booking-rescheduled', 'reminder'];

/** Minor units in the currency, for the guest's language: 4000 EUR -> "€40.00" / "40,00 €". */
export function formatMoney(language: GuestLanguage, currency: string, minor: number): string {
  const format = new Intl.NumberFormat(INTL_LOCALES[language], { style: 'currency', currency });
  return format.format(minor / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
}

export async function composeWorkflowEmail(context: SendingContext, email: EmailRow): Promise<MessageParts> {
  const text = await fillManageBookingUrl(context, email);
  if (email.booking_id === null || email.workflow_id === null) return { text };
  const { db, keys, publicUrl } = context;
  const operatorId = email.operator_id;
  const [workflow, found, profile] = await Promise.all([
    findWorkflow(db, operatorId, email.workflow_id),
    findBookingForEmail(db, operatorId, email.booking_id),
    shopProfile(db, operatorId, publicUrl),
  ]);
  if (!workflow || !found || !profile) return { text };
  const booking = await getBooking(db, operatorId, found.reference);
  const activity = await findActivity(db, operatorId, booking.ActivityID);
  const language = guestLanguage(found.locale);
  const m = GUEST_MESSAGES[language];
  const event = workflow.event;
  const words = guestWords(language, event, {
    firstName: found.customer_first_name,
    activityName: found.activity_name,
    date: found.date,
    time: found.time,
    timezone: found.timezone,
  });
  const manageUrl = manageBookingUrl(publicUrl, profile.slug, manageToken(keys, operatorId, found.reference));
  const upcoming = UPCOMING.includes(event) && booking.Status === 'confirmed';
  // A pending waiver is worth a link only when the activity asks something (as the manage page decides).
  const waiverToComplete =
    upcoming && booking.WaiverStatus === 'pending' && activity !== undefined && (await listActivityQuestions(db, operatorId, activity.id)).length > 0;
  const money = (minor: number) => formatMoney(language, booking.Currency, minor);
  const place = activity ? detailsOf(activity) : { MeetingPoint: null, WhatToBring: [] };
  const details: GuestEmailDetails | null =
    event === 'follow-up'
      ? null
      : {
          reference: found.reference,
          activityName: found.activity_name,
          when: words.When,
          tickets: booking.Tickets.map((t) => ({ name: t.Name, quantity: t.Quantity, amount: money(t.Quantity * t.UnitPrice) })),
          total: money(booking.Total),
          meetingPoint:
            event === 'booking-cancelled' || !place.MeetingPoint ? null : { address: place.MeetingPoint.Address, mapUrl: place.MeetingPoint.MapUrl },
          whatToBring: event === 'booking-cancelled' ? [] : place.WhatToBring,
          policy:
            event === 'booking-cancelled' || !activity
              ? null
              : policySentences(
                  m,
                  activity.guest_cancel_hours === null ? null : { HoursBefore: activity.guest_cancel_hours, Refunds: refundRulesOf(activity) },
                ),
          manageUrl,
          waiverUrl: waiverToComplete && !text.includes(`${manageUrl}/waiver`) ? `${manageUrl}/waiver` : null,
          qrCid: upcoming ? `qr-${found.reference}@slotbook` : null,
          calendar: upcoming,
        };
  const model: GuestEmailModel = {
    language,
    m,
    headline: words.Headline,
    operatorName: profile.name,
    logoUrl: profile.logoUrl,
    brandColour: profile.brandColour,
    body: text,
    details,
    replies: profile.contactEmail !== null,
  };
  const attachments: NonNullable<MessageParts['attachments']> = [];
  if (details?.qrCid)
    attachments.push({ filename: `${found.reference}.png`, content: qrPng(found.reference), contentType: 'image/png', cid: details.qrCid });
  if (upcoming) {
    attachments.push({
      filename: `${found.reference}.ics`,
      contentType: 'text/calendar; charset=utf-8; method=PUBLISH',
      content: bookingIcs({
        uid: `${found.reference}@slotbook`,
        startsAt: found.starts_at,
        endsAt: found.ends_at,
        stampedAt: unixNow(),
        summary: `${found.activity_name} (${profile.name})`,
        location: details?.meetingPoint?.address ?? null,
        description: `${m.reference}: ${found.reference}\n${m.manageLink(found.reference)}: ${manageUrl}`,
        url: /^https?:\/\//.test(manageUrl) ? manageUrl : null,
        organizer: profile.contactEmail ? { name: profile.name, email: profile.contactEmail } : null,
      }),
    });
  }
  return {
    text: guestEmailText(model),
    html: guestEmailHtml(model),
    ...(profile.contactEmail && { replyTo: profile.contactEmail }),
    ...(attachments.length > 0 && { attachments }),
  };
}
