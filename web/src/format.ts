// Dates, times, money and numbers, formatted for the operator's browser locale.

const locale = navigator.language || 'en';

export function todayIso(): string {
  return isoDate(new Date());
}

/** YYYY-MM-DD of a Date in the browser's own time zone. */
export function isoDate(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

export function utcToday(): string {
  return new Date().toISOString().slice(0, 10);
}

/** Adds days to a YYYY-MM-DD date (calendar arithmetic, no time zones involved). */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** ISO weekday of a YYYY-MM-DD date: 1 = Monday ... 7 = Sunday. */
export function weekday(date: string): number {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  return day === 0 ? 7 : day;
}

const dateFormat = new Intl.DateTimeFormat(locale, { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
const shortDateFormat = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', timeZone: 'UTC' });
const monthFormat = new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' });
const dateTimeFormat = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });

/** "Mon, 24 Nov 2025" for a wall-clock date. */
export const formatDate = (date: string) => dateFormat.format(new Date(`${date}T00:00:00Z`));
export const formatShortDate = (date: string) => shortDateFormat.format(new Date(`${date}T00:00:00Z`));
export const formatMonth = (date: string) => monthFormat.format(new Date(`${date}T00:00:00Z`));
const zonedFormats = new Map<string, Intl.DateTimeFormat>();
/**
 * An instant (ISO 8601), in the browser's time zone, or in `timeZone` with the zone named ("10:02 PST"):
 * a check-in at a tour in Los Angeles reads as the guide's watch there, wherever the laptop is.
 */
export function formatInstant(iso: string, timeZone?: string): string {
  if (!timeZone) return dateTimeFormat.format(new Date(iso));
  let format = zonedFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone });
    zonedFormats.set(timeZone, format);
  }
  return `${format.format(new Date(iso))} ${zoneAbbreviation(iso, timeZone)}`;
}

/** A time zone for people: "Los Angeles (PST)", its city and its short name at that instant. */
export function zoneLabel(timeZone: string, iso: string): string {
  const city = timeZone.split('/').at(-1)?.replace(/_/g, ' ') ?? timeZone;
  const short = zoneAbbreviation(iso, timeZone);
  return city === short ? city : `${city} (${short})`;
}

/** The zone's short name at that instant ("PST", "GMT+14"), as Intl names it. */
const zoneNameFormats = new Map<string, Intl.DateTimeFormat>();
export function zoneAbbreviation(iso: string, timeZone: string): string {
  let format = zoneNameFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { timeZone, timeZoneName: 'short' });
    zoneNameFormats.set(timeZone, format);
  }
  return format.formatToParts(new Date(iso)).find((part) => part.type === 'timeZoneName')?.value ?? timeZone;
}
const clockFormat = new Intl.DateTimeFormat(locale, { timeStyle: 'short' });
/** The time of day of an instant within the next hours ("14:35"), in the browser's time zone. */
export const formatClock = (iso: string) => clockFormat.format(new Date(iso));

export function formatMoney(minorUnits: number, currency: string): string {
  try {
    const format = new Intl.NumberFormat(locale, { style: 'currency', currency });
    const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
    return format.format(minorUnits / 10 ** digits);
  } catch {
    return `${minorUnits} ${currency}`;
  }
}

const numberFormat = new Intl.NumberFormat(locale, { maximumFractionDigits: 6 });
const compactFormat = new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 });
export const formatNumber = (value: number) => numberFormat.format(value);
export const formatCompact = (value: number) => compactFormat.format(value);

export function formatDuration(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return h === 0 ? `${m} min` : m === 0 ? `${h} h` : `${h} h ${m} min`;
}

/** A marketplace by the name it trades under (the server's one list, src/lib/marketplaces.ts). */
export { marketplaceName } from '../../src/lib/marketplaces';

export const SOURCE_LABELS = { online: 'Online', pos: 'Point of sale', partner: 'Partner' } as const;
export const STATUS_LABELS = { confirmed: 'Confirmed', on_hold: 'On hold', cancelled: 'Cancelled', expired: 'Expired' } as const;
