// Who a public (keyless) client is: its network address, as `request.ip` gives it (behind a trusted proxy,
// the guest's own). Limits count per address, and the address is stored only as a keyed HMAC, so the
// database never holds it in clear and a copy of the database cannot be searched for one without the key.
//
// An IPv6 client controls a whole /64 (its router hands out addresses from it at will), so IPv6 addresses
// count per /64; an IPv4 address written as IPv6 (::ffff:1.2.3.4) counts as the IPv4 address.
import ipaddr from 'ipaddr.js';
import type { FastifyRequest } from 'fastify';

const PURPOSE = 'client-address';
/** How much of a fingerprint the operator is shown: enough to tell clients apart, not enough to matter. */
export const SHOWN_FINGERPRINT_LENGTH = 12;

export function clientNetwork(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  return `${(address as ipaddr.IPv6).toNormalizedString().split(':').slice(0, 4).join(':')}::/64`;
}

/** Hex HMAC of the client's address (network, for IPv6), under the instance key of its own purpose. */
export function clientFingerprint(request: FastifyRequest): string {
  return request.server.instanceKeys.hmac(PURPOSE, clientNetwork(request.ip));
}
