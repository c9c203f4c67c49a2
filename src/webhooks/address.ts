// Where webhooks may go (SSRF protection). An endpoint's URL is checked when it is saved, and again at
// every connection: the host name is resolved by our own lookup, each address it resolves to is checked,
// and the socket connects to the address that was checked. So a name that resolved to a public address
// when saved, and to 127.0.0.1 when delivered (DNS rebinding), is refused at delivery.
//
// In production only public unicast addresses are reached: private, loopback, link-local, carrier-grade NAT,
// multicast, documentation, IPv6 unique-local and every other special-purpose range are refused, unless the
// instance's WEBHOOK_ALLOWED_NETWORKS lists them (an instance setting, not a tenant's: an operator that
// could allow-list private networks could reach the host's own). Outside production nothing is refused,
// so that a developer's receiver on localhost works.
import { lookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

export type Network = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** Resolves a host name to all of its addresses (injectable: tests stand in for DNS). */
export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

export const systemResolver: Resolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

export interface AddressPolicy {
  /** Refuse special-purpose addresses (production). */
  restricted: boolean;
  /** Networks reachable although special-purpose. */
  allowed: readonly Network[];
}

/** Parses CIDRs such as 10.0.0.0/8 or fd00::/8 (a bare address is one host); throws on a bad one. */
export function parseNetworks(list: readonly string[]): Network[] {
  return list.map((text) => {
    const cidr = text.includes('/') ? text : `${text}/${isIP(text) === 6 ? 128 : 32}`;
    const [address, bits] = ipaddr.parseCIDR(cidr);
    return [unmapped(address), address.kind() === 'ipv6' && unmapped(address).kind() === 'ipv4' ? bits - 96 : bits];
  });
}

/** An IPv4 address written as IPv6 (::ffff:10.0.0.1) is that IPv4 address. */
function unmapped(address: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | ipaddr.IPv6 {
  return address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() ? (address as ipaddr.IPv6).toIPv4Address() : address;
}

const RANGE_WORDS: Record<string, string> = {
  private: 'private',
  loopback: 'loopback',
  linkLocal: 'link-local',
  uniqueLocal: 'unique-local (private)',
  carrierGradeNat: 'carrier-grade NAT',
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  multicast: 'multicast',
  reserved: 'reserved',
};

/** Why the address must not be reached under the policy, or undefined when it may be. */
export function refusalOf(address: string, policy: AddressPolicy): string | undefined {
  if (!policy.restricted) return undefined;
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  const ip = unmapped(ipaddr.parse(address));
  const range = ip.range();
  if (range === 'unicast') return undefined;
  if (policy.allowed.some(([network, bits]) => network.kind() === ip.kind() && ip.match(network, bits))) return undefined;
  return `${address} is a ${RANGE_WORDS[range] ?? `special-purpose (${range})`} address, which webhooks may not reach`;
}

export class AddressRefused extends Error {
  override name = 'AddressRefused';
}

/** All addresses of the host, or a refusal naming the first that may not be reached (one bad address refuses the name). */
export async function resolveAllowed(hostname: string, policy: AddressPolicy, resolve: Resolver): Promise<{ address: string; family: number }[]> {
  const bare = hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(bare) ? [{ address: bare, family: isIP(bare) }] : await resolve(bare);
  if (addresses.length === 0) throw new AddressRefused(`${hostname} has no address`);
  for (const { address } of addresses) {
    const refusal = refusalOf(address, policy);
    if (refusal) throw new AddressRefused(`${hostname}: ${refusal}`);
  }
  return addresses;
}

/**
 * The `lookup` of a webhook's socket: resolves, checks every address, and hands the socket the first
 * checked one, so the address connected to is the one that was checked.
 */
export function checkedLookup(policy: AddressPolicy, resolve: Resolver): LookupFunction {
  return (hostname, options, callback) => {
    resolveAllowed(hostname, policy, resolve).then(
      (addresses) => {
        const chosen = addresses[0]!;
        if ((options as { all?: boolean }).all) (callback as (error: null, all: typeof addresses) => void)(null, [chosen]);
        else callback(null, chosen.address, chosen.family);
      },
      (error: Error) => callback(error as NodeJS.ErrnoException, '', 0),
    );
  };
}
