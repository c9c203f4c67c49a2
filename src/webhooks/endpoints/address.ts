// Where webhooks may go (SSRF protection). An endpoint's URL is checked when it is saved, and again at
// every connection: the host name is resolved by our own lookup, each address it resolves to is checked,
// and the socket connects to the address that was checked. So a name that resolved to a public address
// when saved, and to 127.0.0.1 when delivered (DNS rebinding), is refused at delivery.
//
// Only public unicast addresses are reached: private, loopback, link-local, carrier-grade NAT, multicast,
// documentation, IPv6 unique-local and every other special-purpose range are refused, in every
// environment (a staging instance is not a developer's laptop), unless an instance setting lists the
// network: WEBHOOK_ALLOWED_NETWORKS for the operator's own endpoints, WEBHOOK_ALLOWED_NETWORKS_FOR_PARTNERS
// for a marketplace's, whose URL its ota key chooses. Instance settings, not a tenant's: an operator or a
// marketplace that could allow private networks could reach the host's own services. A developer lists
// 127.0.0.0/8 to reach a receiver on localhost.
import { lookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

export type Network = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** Resolves a host name to all of its addresses (injectable: tests stand in for DNS). */
export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

export const systemResolver: Resolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

export interface AddressPolicy {
  /** Networks reachable although special-purpose. */
  allowed: readonly Network[];
  /** The instance setting that lists them, named in refusals. */
  setting: string;
}

/**
 * Whose endpoint a request goes to: the operator's own, or a marketplace's (Partner set: the marketplace's
 * key may choose its URL, even when the operator made it). Each has its own policy.
 */
export type EndpointKind = 'operator' | 'marketplace';
export type AddressPolicies = Readonly<Record<EndpointKind, AddressPolicy>>;

export const endpointKind = (partner: string | null): EndpointKind => (partner === null ? 'operator' : 'marketplace');

/** Parses CIDRs such as 10.0.0.0/8 or fd00::/8 (a bare address is one host); throws on a bad one. */
export function parseNetworks(list: readonly string[]): Network[] {
  return list.map((text) => {
    const cidr = text.includes('/') ? text : `${text}/${isIP(text) === 6 ? 128 : 32}`;
    const [address, bits] = ipaddr.parseCIDR(cidr);
    // A network of IPv4 written as IPv6 (::ffff:10.0.0.0/104) is that IPv4 network, as its addresses are.
    const ipv4 = address.kind() === 'ipv6' && bits >= 96 ? embeddedIPv4(address as ipaddr.IPv6) : undefined;
    return ipv4 ? [ipv4, bits - 96] : [address, bits];
  });
}

const NAT64_WELL_KNOWN: [ipaddr.IPv6, number] = [ipaddr.IPv6.parse('64:ff9b::'), 96];
const IPV4_COMPATIBLE: [ipaddr.IPv6, number] = [ipaddr.IPv6.parse('::'), 96];

/**
 * The IPv4 address an IPv6 address stands for, whose rules it then follows: IPv4-mapped (::ffff:a.b.c.d),
 * IPv4-translated (::ffff:0:a.b.c.d), IPv4-compatible (::a.b.c.d, deprecated, but a stack may still send it
 * to that IPv4 host) and NAT64's well-known prefix (64:ff9b::a.b.c.d, what DNS64 answers an IPv6-only host
 * for an IPv4-only name). The other forms that carry an IPv4 address (6to4, Teredo, a network's own NAT64
 * prefix, where the IPv4 address may sit elsewhere) stay special-purpose, and are refused.
 */
function embeddedIPv4(ip: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const range = ip.range();
  const carries =
    range === 'ipv4Mapped' ||
    range === 'rfc6145' ||
    (range === 'rfc6052' && ip.match(NAT64_WELL_KNOWN)) ||
    // :: and ::1 are IPv6's own (unspecified, loopback), not IPv4-compatible addresses.
    (range === 'unicast' && ip.match(IPV4_COMPATIBLE));
  return carries ? new ipaddr.IPv4(ip.toByteArray().slice(12)) : undefined;
}

const RANGE_WORDS: Record<string, string> = {
  private: 'a private',
  loopback: 'a loopback',
  linkLocal: 'a link-local',
  uniqueLocal: 'a unique-local (private)',
  carrierGradeNat: 'a carrier-grade NAT',
  unspecified: 'an unspecified',
  broadcast: 'a broadcast',
  multicast: 'a multicast',
  reserved: 'a reserved',
};

/** Why the address must not be reached under the policy, or undefined when it may be. */
export function refusalOf(address: string, policy: AddressPolicy): string | undefined {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  const parsed = ipaddr.parse(address);
  const ipv4 = parsed.kind() === 'ipv6' ? embeddedIPv4(parsed as ipaddr.IPv6) : undefined;
  const ip = ipv4 ?? parsed;
  const range = ip.range();
  if (range === 'unicast') return undefined;
  if (policy.allowed.some(([network, bits]) => network.kind() === ip.kind() && ip.match(network, bits))) return undefined;
  const written = ipv4 ? `${address} (${ipv4.toString()})` : address;
  return `${written} is ${RANGE_WORDS[range] ?? `a special-purpose (${range})`} address, which webhooks may not reach unless ${policy.setting} lists its network`;
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
