// What every page shares: putting a page into <main>, and the guest's words for an API refusal.
import { ShopError } from './api';
import { boot, t } from './app';
import { replace, type Child } from './dom';

/** Puts a page into <main> with its heading focused and the document titled after it. */
export function showPage(title: string, ...content: Child[]): void {
  const main = document.getElementById('main')!;
  document.title = `${title} – ${boot.Profile.Name}`;
  replace(main, ...content);
  // The first page on screen, its handlers attached: what bench/booking-pages.ts times from navigation.
  if (performance.getEntriesByName('slotbook-interactive').length === 0) performance.mark('slotbook-interactive');
  const heading = main.querySelector('h1');
  if (heading) {
    heading.setAttribute('tabindex', '-1');
    heading.focus();
  }
}

/** The guest's words for an API refusal: limits and lapsed holds explained, not a generic error. */
export function errorText(error: unknown): string {
  if (!(error instanceof ShopError)) return t.networkError;
  if (error.status === 0) return t.networkError;
  if (error.status === 429) return error.kind === 'quota-exceeded' ? t.limitReached : t.tooManyRequests;
  if (error.status === 404) return t.notFound;
  return error.detail;
}
