// How a notice names where a booking came from: the same words the dashboard uses.
export function channelName(source: string, partner: string | null): string {
  if (source === 'online') return 'Online shop';
  if (source === 'pos') return 'Point of sale';
  return partner ? `Marketplace ${partner}` : 'Marketplace';
}
