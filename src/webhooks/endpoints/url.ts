// The rules of an endpoint's URL, checked when it is saved (the address is checked again at every
// delivery, address.ts): https; http only to this machine and only outside production; no credentials
// or fragment; and an address that the endpoint's kind (the operator's, a marketplace's) may reach.
import { ValidationFailed } from '../../http/errors.js';
import { AddressRefused, resolveAllowed, type AddressPolicies, type EndpointKind, type Resolver } from './address.js';
import { MAX_URL_LENGTH } from './schemas.js';

export interface UrlRules {
  production: boolean;
  policies: AddressPolicies;
  resolve: Resolver;
}

const LOCAL_HOSTS = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$|\.localhost$/i;

const refuse = (message: string) => ValidationFailed.field('URL', message);

/** The URL as stored (normalised), or a 422 on URL saying why not. */
export async function checkEndpointUrl(raw: string, rules: UrlRules, kind: EndpointKind): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse('URL must be an absolute URL, e.g. https://example.com/webhooks');
  }
  const local = LOCAL_HOSTS.test(url.hostname);
  if (url.protocol === 'http:') {
    if (rules.production || !local) throw refuse('URL must use https (http only to localhost, and only outside production)');
  } else if (url.protocol !== 'https:') {
    throw refuse(`URL must use https, not ${url.protocol.replace(':', '')}`);
  }
  if (url.username !== '' || url.password !== '')
    throw refuse('URL must not carry a user name or password; authenticate the requests by their signature');
  if (url.hash !== '') throw refuse('URL must not have a #fragment');
  const normalised = url.toString();
  if (normalised.length > MAX_URL_LENGTH) throw refuse(`URL must be at most ${MAX_URL_LENGTH} characters`);
  await checkAddress(url.hostname, rules, kind);
  return normalised;
}

/** The host must resolve to addresses the endpoint may reach (checked again when delivering). */
async function checkAddress(hostname: string, rules: UrlRules, kind: EndpointKind): Promise<void> {
  try {
    await resolveAllowed(hostname, rules.policies[kind], rules.resolve);
  } catch (error) {
    if (error instanceof AddressRefused) throw refuse(`URL is refused: ${error.message}`);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTFOUND' || code === 'ENODATA') throw refuse(`URL's host ${hostname} does not resolve`);
    // Any other resolver trouble (a timeout) is not the URL's fault: it is checked again at each delivery.
  }
}
