// A booking as an iCalendar event (RFC 5545), attached to the guest's e-mails as text/calendar. Times are
// written in UTC ("Z"): an instant needs no VTIMEZONE, and every calendar shows it in its own zone, so the
// activity's wall-clock time (in the activity's zone) arrives right wherever the guest's calendar is.
export interface CalendarEvent {
  uid: string;
  /** Unix seconds. */
  startsAt: number;
  endsAt: number;
  stampedAt: number;
  summary: string;
  location: string | null;
  description: string;
  url: string | null;
  organizer: { name: string; email: string } | null;
}

/** YYYYMMDDTHHMMSSZ. */
export const icsUtc = (seconds: number): string =>
  new Date(seconds * 1000)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/** TEXT values: backslash, semicolon, comma and newlines escaped (RFC 5545 3.3.11). */
const text = (value: string): string => value.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');

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
    ...(event.url ? [`URL:${event.url}`] : []),
    // The organizer's name is a parameter value: quoted, and quotes cannot be escaped there, so they go.
    ...(event.organizer ? [`ORGANIZER;CN="${event.organizer.name.replace(/["\r\n]/g, '')}":mailto:${event.organizer.email}`] : []),
    'STATUS:CONFIRMED',
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return `${lines.map(fold).join('\r\n')}\r\n`;
}
