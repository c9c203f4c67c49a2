// How people name where a booking came from: the shop, the point of sale, or a marketplace by the name it
// trades under where slotbook connects to it itself (bookings record the partner's key name,
// `getyourguide`, `viator.com`). The dashboard, the reports, the payment report and staff's booking e-mails all say it
// this way. Any other marketplace is named by the key name the operator gave it.
const NAMES: Record<string, string> = { getyourguide: 'GetYourGuide', 'viator.com': 'Viator' };
const SOURCES: Record<string, string> = { online: 'Online shop', pos: 'Point of sale' };

export const marketplaceName = (partner: string): string => NAMES[partner] ?? partner;

/** Whether slotbook connects to this marketplace itself (its own supplier API), rather than through the partner API or OCTo. */
export const isConnectedMarketplace = (partner: string | null): boolean => partner !== null && partner in NAMES;

export function channelName(source: string, partner: string | null): string {
  if (source === 'partner') return partner ? marketplaceName(partner) : 'Partner';
  return SOURCES[source] ?? source;
}
