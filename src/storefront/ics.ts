// A booking as an iCalendar event (RFC 5545), attached to the guest's e-mails as text/calendar. Times are
// written in UTC ("Z"): an instant needs no VTIMEZONE, and every calendar shows it in its own zone, so the
// activity's wall-clock time (in the activity's zone) arrives right wherever the guest's calendar is.
import type { UnixSeconds } from '../lib/clock.js';
export interface CalendarEvent {
  uid: string;
  /** Unix seconds. */
  startsAt: UnixSeconds;
  endsAt: UnixSeconds;
  stampedAt: UnixSeconds;
  summary: string;
  location: string | null;
  description: string;
  url: string | null;
  organizer: { name: string; email: string } | null;
}

/** YYYYMMDDTHHMMSSZ. */
export const icsUtc = (seconds: UnixSeconds): string =>
  new Date(seconds * 1000)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/** Line breaks as any client may read them: CRLF, a lone CR or LF, and Unicode's line and paragraph separators. */
const LINE_BREAKS = /\r\n|[\r\n\u2028\u2029\u0085]/g;
/** RFC 5545's CONTROL characters (all but HTAB), which no TEXT or parameter value may hold. */
const CONTROLS = /[\u0000-\u0008\u000a-\u001f\u007f]/g;

/**
 * TEXT values (RFC 5545 3.3.11): backslash, semicolon and comma escaped, every line break written as \n, and
 * every other control character dropped, so that the operator's or a guest's text can never start a line
 * (a property such as ATTENDEE) in a client that splits on CR or LF alone.
 */
const text = (value: string): string =>
  value.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(LINE_BREAKS, '\\n').replace(CONTROLS, '');

/** A quoted parameter value (QSAFE-CHAR): no quote, no control character, nor a line break of any kind. */
const quoted = (value: string): string => value.replace(LINE_BREAKS, ' ').replace(CONTROLS, '').replace(/"/g, '');

/** Lines longer than 75 octets are folded: CRLF and a space, never inside a UTF-8 character. */
function fold(line: string): string {
  const parts: string[] = [];
  let current = '';
  for (const char of line) {
    if (Buffer.byteLength(current + char) > (parts.length === 0 ? 75 : 74)) {
      parts.push(current);
      current = '';
    }
    current += char;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

export function bookingIcs(event: CalendarEvent): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//slotbook//booking//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    'BEGIN:VEVENT',
    `UID:${event.uid}`,
    `DTSTAMP:${icsUtc(event.stampedAt)}`,
    `DTSTART:${icsUtc(event.startsAt)}`,
    `DTEND:${icsUtc(event.endsAt)}`,
    `SUMMARY:${text(event.summary)}`,
    ...(event.location ? [`LOCATION:${text(event.location)}`] : []),
    `DESCRIPTION:${text(event.description)}`,
    ...(event.url ? [`URL:${quoted(event.url)}`] : []),
    // The organizer's name is a parameter value: quoted, and quotes cannot be escaped there, so they go.
    ...(event.organizer ? [`ORGANIZER;CN="${quoted(event.organizer.name)}":mailto:${quoted(event.organizer.email)}`] : []),
    'STATUS:CONFIRMED',
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return `${lines.map(fold).join('\r\n')}\r\n`;
}
