// The words guests read both on the booking pages and in their e-mails, in every language slotbook speaks
// to guests (English and German). The booking pages' catalogue (web/src/book/messages.ts) spreads these
// into its own, and the e-mails (storefront/guest-email.ts) read them here: one text for one thing,
// whichever way the guest sees it. This file imports nothing, so the server (NodeNext) and the pages'
// bundle (Vite) can both compile it as it is.

/** The languages guests can be spoken to in; anything else is English. */
export const GUEST_LANGUAGES = ['en', 'de'] as const;
export type GuestLanguage = (typeof GUEST_LANGUAGES)[number];

/** The guest language of a BCP 47 tag ("de-AT" -> "de"), English for anything slotbook does not speak. */
export function guestLanguage(tag: string | null | undefined): GuestLanguage {
  const language = (tag ?? '').toLowerCase().split(/[-_]/)[0];
  return (GUEST_LANGUAGES as readonly string[]).includes(language ?? '') ? (language as GuestLanguage) : 'en';
}

/** The Intl locale slotbook formats dates and money with for a guest language. */
export const INTL_LOCALES: Record<GuestLanguage, string> = { en: 'en-GB', de: 'de-DE' };

/** A wall-clock date (YYYY-MM-DD) in words, with its weekday: "Saturday 6 June 2030", "Samstag, 6. Juni 2030". */
export function longDate(language: GuestLanguage, date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return longDateFormat(language).format(Date.UTC(y, m - 1, d));
}

// Made once per language: building an Intl.DateTimeFormat costs far more than formatting with one, and every
// booking's confirmation is worded in its transaction (workflows/values.ts).
const longDateFormats = new Map<GuestLanguage, Intl.DateTimeFormat>();
function longDateFormat(language: GuestLanguage): Intl.DateTimeFormat {
  let format = longDateFormats.get(language);
  if (!format) {
    format = new Intl.DateTimeFormat(INTL_LOCALES[language], { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
    longDateFormats.set(language, format);
  }
  return format;
}

/** A time before the start: whole days from 3 days on (720 hours reads as 30 days), else hours. */
const inDays = (hours: number) => hours >= 72 && hours % 24 === 0;
// Exported for the pages' own sentences about time before the start (their reschedule rule).
export const span = (hours: number) => (inDays(hours) ? `${hours / 24} days` : `${hours} ${hours === 1 ? 'hour' : 'hours'}`);
export const spanDe = (hours: number) => (inDays(hours) ? `${hours / 24} Tage` : `${hours} ${hours === 1 ? 'Stunde' : 'Stunden'}`);

const en = {
  confirmedHeading: 'Your booking is confirmed',
  reference: 'Booking reference',
  total: 'Total',
  manageLink: (reference: string) => `Manage booking ${reference}`,
  qrAlt: (reference: string) => `QR code of booking ${reference}`,
  qrCaption: 'Show this code (or tell us the booking reference) at check-in.',
  meetingPoint: 'Meeting point',
  openMap: 'Open the map (new tab)',
  included: 'Included',
  whatToBring: 'What to bring',
  waiverPendingNote: 'Your waiver is not complete yet: please answer its questions before you come.',
  completeWaiver: 'Complete the waiver',
  policyHeading: 'Cancellation',
  policyNone: 'This activity cannot be cancelled online.',
  policyUntil: (hours: number) =>
    hours === 0 ? 'You can cancel online until the start.' : `You can cancel online until ${span(hours)} before the start.`,
  policyAllBack: 'You get back everything you paid.',
  policyRule: (percent: number, hours: number) =>
    hours === 0 ? `${percent}% back until the start` : `${percent}% back if you cancel at least ${span(hours)} before the start`,
  policyNothingLater: 'nothing later',
  dateLabel: 'Date',
  timeLabel: 'Time',
  activity: 'Activity',
  people: 'People',
  // E-mails only (the pages have their own words for these moments).
  emailGreeting: (firstName: string) => `Hello ${firstName},`,
  emailHeadline: {
    'booking-confirmed': 'Booking confirmed',
    'booking-cancelled': 'Booking cancelled',
    'booking-rescheduled': 'Booking moved',
    reminder: 'See you soon',
    'follow-up': 'Thank you for coming',
  } as Record<EmailEvent, string>,
  emailIntro: {
    'booking-confirmed': (activity: string, when: string) => `your booking of ${activity} on ${when} is confirmed.`,
    'booking-cancelled': (activity: string, when: string) => `your booking of ${activity} on ${when} is cancelled.`,
    'booking-rescheduled': (activity: string, when: string) => `your booking of ${activity} is now on ${when}.`,
    reminder: (activity: string, when: string) => `this is a reminder of ${activity} on ${when}.`,
    'follow-up': (activity: string, _when: string) => `thank you for joining ${activity}. We hope you enjoyed it.`,
  } as Record<EmailEvent, (activity: string, when: string) => string>,
  /** A timeslot's long date (already formatted for the language), its wall-clock time and its zone. */
  when: (longDate: string, time: string, zone: string) => `${longDate} at ${time} (${zone})`,
  timeZoneNote: (zone: string) => `Times are local to the activity (${zone}).`,
  tickets: 'Tickets',
  calendarNote: 'The attached calendar entry adds it to your calendar.',
  replyNote: 'Questions? Reply to this e-mail.',
};

/** The events a guest e-mail can be about (the workflows' events). */
export type EmailEvent = 'booking-confirmed' | 'booking-cancelled' | 'booking-rescheduled' | 'reminder' | 'follow-up';

export type GuestMessages = typeof en;

const de: GuestMessages = {
  confirmedHeading: 'Ihre Buchung ist bestätigt',
  reference: 'Buchungsnummer',
  total: 'Gesamt',
  manageLink: (reference) => `Buchung ${reference} verwalten`,
  qrAlt: (reference) => `QR-Code der Buchung ${reference}`,
  qrCaption: 'Zeigen Sie diesen Code (oder nennen Sie die Buchungsnummer) beim Einchecken.',
  meetingPoint: 'Treffpunkt',
  openMap: 'Karte öffnen (neuer Tab)',
  included: 'Inklusive',
  whatToBring: 'Mitzubringen',
  waiverPendingNote: 'Ihr Haftungsverzicht ist noch nicht vollständig: Bitte beantworten Sie die Fragen vor Ihrem Besuch.',
  completeWaiver: 'Haftungsverzicht ausfüllen',
  policyHeading: 'Stornierung',
  policyNone: 'Diese Aktivität kann nicht online storniert werden.',
  policyUntil: (hours) =>
    hours === 0 ? 'Sie können online bis zum Beginn stornieren.' : `Sie können online bis ${spanDe(hours)} vor Beginn stornieren.`,
  policyAllBack: 'Sie erhalten alles zurück, was Sie bezahlt haben.',
  policyRule: (percent, hours) =>
    hours === 0 ? `${percent} % zurück bis zum Beginn` : `${percent} % zurück bei Stornierung mindestens ${spanDe(hours)} vor Beginn`,
  policyNothingLater: 'danach nichts',
  dateLabel: 'Datum',
  timeLabel: 'Uhrzeit',
  activity: 'Aktivität',
  people: 'Personen',
  emailGreeting: (firstName) => `Hallo ${firstName},`,
  emailHeadline: {
    'booking-confirmed': 'Buchung bestätigt',
    'booking-cancelled': 'Buchung storniert',
    'booking-rescheduled': 'Buchung verschoben',
    reminder: 'Bis bald',
    'follow-up': 'Danke für Ihren Besuch',
  },
  emailIntro: {
    'booking-confirmed': (activity, when) => `Ihre Buchung von ${activity} am ${when} ist bestätigt.`,
    'booking-cancelled': (activity, when) => `Ihre Buchung von ${activity} am ${when} ist storniert.`,
    'booking-rescheduled': (activity, when) => `Ihre Buchung von ${activity} ist jetzt am ${when}.`,
    reminder: (activity, when) => `wir erinnern Sie an ${activity} am ${when}.`,
    'follow-up': (activity) => `danke, dass Sie bei ${activity} dabei waren. Wir hoffen, es hat Ihnen gefallen.`,
  },
  when: (longDate, time, zone) => `${longDate} um ${time} Uhr (${zone})`,
  timeZoneNote: (zone) => `Uhrzeiten gelten vor Ort (${zone}).`,
  tickets: 'Tickets',
  calendarNote: 'Mit dem angehängten Kalendereintrag übernehmen Sie den Termin in Ihren Kalender.',
  replyNote: 'Fragen? Antworten Sie einfach auf diese E-Mail.',
};

export const GUEST_MESSAGES: Record<GuestLanguage, GuestMessages> = { en, de };

/** An activity's rule for guests' own cancellations, as the pages and the e-mails state it. */
export interface CancellationPolicy {
  HoursBefore: number;
  Refunds: { HoursBefore: number; Percent: number }[];
}

/** The rule in sentences: how long online cancellation is open, then what comes back when. */
export function policySentences(m: GuestMessages, policy: CancellationPolicy | null): string[] {
  if (policy === null) return [m.policyNone];
  const until = m.policyUntil(policy.HoursBefore);
  if (policy.Refunds.length === 0) return [until, m.policyAllBack];
  // Largest HoursBefore first: once a rule reaches the close of online cancellation, the later ones never
  // apply; when none reaches it, the time between the last rule and the close gives nothing back.
  const closing = policy.Refunds.findIndex((rule) => rule.HoursBefore <= policy.HoursBefore);
  const rules = closing === -1 ? policy.Refunds : policy.Refunds.slice(0, closing + 1);
  const parts = rules.map((rule) => m.policyRule(rule.Percent, rule.HoursBefore));
  if (closing === -1) parts.push(m.policyNothingLater);
  return [until, `${parts.join(', ')}.`];
}
