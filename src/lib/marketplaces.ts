// How people name where a booking came from: the shop, the point of sale, or a marketplace. A booking of
// a marketplace records its partner name (bookings.partner), and that name is what people read:
// - A marketplace on the partner API or OCTo sells through an `ota` key, and its bookings carry the key's
//   marketplace name as the operator gave it (`viator`). Keys' names are lower-case (MARKETPLACE_PATTERN).
// - A marketplace slotbook connects to itself (a native channel: GetYourGuide's supplier API, and
//   Viator's to come) records its bookings under the name it trades under (`GetYourGuide`), which no
//   key can take. So a key made for the marketplace name `getyourguide` reads, cancels and hears the
//   webhooks of its own bookings only, never the native connection's: the partner name is what the
//   partner API, OCTo and webhooks match a key's bookings by. Migration 038 moved the native bookings
//   made before under their own name; keys named like a channel keep working as they were.
// The dashboard, the reports, the payment report and staff's booking e-mails all say it this way. This
// file imports nothing: the dashboard's pages import it too (web/src/format.ts).

/** A key's marketplace name (and a partner webhook endpoint's): lower-case letters, digits and dashes. */
export const MARKETPLACE_PATTERN = /^[a-z0-9][a-z0-9-]{0,62}$/;

/** The native channels, by their key in code, with the partner name their bookings carry. */
export const NATIVE_CHANNELS = { getyourguide: 'GetYourGuide', viator: 'Viator' } as const;

const NATIVE_NAMES: ReadonlySet<string> = new Set(Object.values(NATIVE_CHANNELS));

/** Whether a booking's partner is one of slotbook's own connections (rather than a key's marketplace). */
export const isNativeChannel = (partner: string | null): boolean => partner !== null && NATIVE_NAMES.has(partner);

/** The name people read for a marketplace: the partner name itself (a key's as given, a native channel's as it trades). */
export const marketplaceName = (partner: string): string => partner;

const SOURCES: Record<string, string> = { online: 'Online shop', pos: 'Point of sale' };

export function channelName(source: string, partner: string | null): string {
  if (source === 'partner') return partner ? marketplaceName(partner) : 'Partner';
  return SOURCES[source] ?? source;
}
