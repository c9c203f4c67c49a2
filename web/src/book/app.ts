// The booking pages' shared state: the start data the server put in the page, the message catalogue of
// the guest's language, formatting (Intl, in the activity's currency and time zone), the guest's basket
// token (kept in localStorage per shop, so that several activities go into one basket) and navigation.
import { CATALOGUE, type Messages } from './messages';
import type { Profile } from './api';

export interface Boot {
  OperatorID: number;
  Base: string;
  Locale: 'en' | 'de';
  Profile: Profile;
  /** The shop takes no real payments (its test provider): every page says so (main.ts). */
  TestMode: boolean;
  /** Who takes the payment: the test provider's card field, or Stripe's own page (basket.ts). */
  PaymentProvider?: 'test' | 'stripe' | null;
}

export const boot: Boot = JSON.parse(document.getElementById('slotbook-boot')!.textContent!) as Boot;
export const t: Messages = CATALOGUE[boot.Locale];
const locale = boot.Locale === 'de' ? 'de-DE' : 'en-GB';

/** Minor units in the currency, e.g. 4500 EUR → "€45.00" (en) or "45,00 €" (de). */
export function money(amount: number, currency: string): string {
  const format = new Intl.NumberFormat(locale, { style: 'currency', currency });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(amount / 10 ** digits);
}

/** A calendar date of the activity (YYYY-MM-DD: already its local day), e.g. "Friday, 28 November 2026". */
export function longDate(date: string, weekday: 'long' | 'short' = 'long'): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Intl.DateTimeFormat(locale, { weekday, day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(Date.UTC(y, m - 1, d));
}

export function monthName(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(Date.UTC(y, m - 1, 1));
}

/** An instant shown in the activity's time zone, with the zone named. */
export function zonedDateTime(iso: string, zone: string): string {
  // dateStyle cannot be combined with timeZoneName: the fields are named one by one.
  const options: Intl.DateTimeFormatOptions = {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: zone,
    timeZoneName: 'short',
  };
  return new Intl.DateTimeFormat(locale, options).format(new Date(iso));
}

/** "10:00–11:30" with the zone's short name, e.g. "10:00–11:30 CET". */
export function timeRange(startIso: string, endTime: string | undefined, zone: string): string {
  const start = new Date(startIso);
  const zoneName =
    new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName: 'short' }).formatToParts(start).find((part) => part.type === 'timeZoneName')
      ?.value ?? zone;
  const startTime = new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', timeZone: zone }).format(start);
  return `${startTime}${endTime ? `–${endTime}` : ''} ${zoneName}`;
}

const BASKET_KEY = `slotbook:basket:${boot.OperatorID}`;
// Inside the embed on another website the browser may deny storage to the frame (third-party storage
// blocked): the basket then lives as long as the frame does, in memory, instead of breaking the pages.
let memoryToken: string | null = null;
const stored = <T>(use: () => T, fallback: () => T): T => {
  try {
    return use();
  } catch {
    return fallback();
  }
};
export const basketToken = {
  get: (): string | null =>
    stored(
      () => localStorage.getItem(BASKET_KEY),
      () => memoryToken,
    ),
  set: (token: string) =>
    stored(
      () => localStorage.setItem(BASKET_KEY, token),
      () => void (memoryToken = token),
    ),
  clear: () =>
    stored(
      () => localStorage.removeItem(BASKET_KEY),
      () => void (memoryToken = null),
    ),
};

type Render = (path: string, query: URLSearchParams) => Promise<void>;
let render: Render = async () => {};
export function setRenderer(fn: Render): void {
  render = fn;
}

/** Goes to a page of the shop (a path under Base), keeping the language. */
export function go(path: string, replaceState = false): void {
  const url = `${boot.Base}${path}`;
  if (replaceState) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  void render(path.split('?')[0]!, new URLSearchParams(path.split('?')[1] ?? ''));
}

/** A link within the shop that navigates without reloading. */
export function linkProps(path: string): { href: string; onclick: (event: Event) => void } {
  return {
    href: `${boot.Base}${path}`,
    onclick: (event: Event) => {
      const mouse = event as MouseEvent;
      if (mouse.ctrlKey || mouse.metaKey || mouse.shiftKey || mouse.button !== 0) return;
      event.preventDefault();
      go(path);
    },
  };
}

/** A wall-clock time of the activity labelled with its UTC offset that day (baskets do not carry the zone's name). */
export function localTime(time: string, startsAt: string): string {
  const offset = /([+-]\d\d:\d\d|Z)$/.exec(startsAt)?.[1];
  return offset ? `${time} (UTC${offset === 'Z' ? '' : offset})` : time;
}
