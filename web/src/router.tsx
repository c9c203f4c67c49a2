// A small history router: the dashboard's pages are real paths (/bookings, /activities/s_...), which
// the server answers with index.html, so reloads and shared links work.
import { useEffect, useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent } from 'react';

const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  window.addEventListener('popstate', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('popstate', listener);
  };
};
const snapshot = () => window.location.pathname + window.location.search;

// After a click to another page, that page's heading takes the focus (screen readers announce it);
// on the first load and on filter changes (replace) the focus stays where it is.
let focusHeading = false;

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (to === snapshot()) return;
  if (!options.replace) focusHeading = true;
  if (options.replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  listeners.forEach((listener) => listener());
  if (!options.replace) window.scrollTo(0, 0);
}

/** The current path and query, re-rendering on navigation. */
export function useLocation(): { path: string; search: URLSearchParams } {
  const location = useSyncExternalStore(subscribe, snapshot);
  const [path, query = ''] = location.split('?');
  return { path: path ?? '/', search: new URLSearchParams(query) };
}

/** Replaces the query string (filters live in the address, so they survive a reload and can be shared). */
export function setQuery(values: Record<string, string | undefined>): void {
  const params = new URLSearchParams(window.location.search);
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined || value === '') params.delete(name);
    else params.set(name, value);
  }
  const text = params.toString();
  navigate(window.location.pathname + (text ? `?${text}` : ''), { replace: true });
}

export function Link({ href, onClick, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  const handle = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(href);
  };
  return <a href={href} onClick={handle} {...rest} />;
}

/** Sets document.title and, after a navigation, moves focus to the page's heading. */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · slotbook`;
    if (!focusHeading) return;
    focusHeading = false;
    document.querySelector<HTMLElement>('main h1')?.focus({ preventScroll: true });
  }, [title]);
}
