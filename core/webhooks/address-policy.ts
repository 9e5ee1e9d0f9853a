/**
 * Where webhook deliveries may go: the guard against server-side request forgery. A user who can
 * register a webhook URL could otherwise make the server POST to its own loopback, the private
 * network behind it, or a cloud metadata endpoint. The rules are written down in docs/webhooks.md,
 * "Receiver addresses"; this file enforces them twice: when a URL is registered
 * ({@link checkReceiverUrl}) and when a delivery connects ({@link guardedLookup},
 * {@link connectedAddressReason}), because DNS may answer differently the second time.
 *
 * IPv4 spellings (`0x7f.1`, `2130706433`, `0177.0.0.1`) need no parsing here: the WHATWG URL parser
 * rewrites the host of an http(s) URL to dotted decimal, and IPv6 hosts to their canonical form.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import { BlockList, isIP } from 'node:net';
import { ValidationError } from '../errors.js';

/** Resolves a host name to addresses, like dns.lookup(host, { all: true }). Injected so tests can simulate DNS. */
export type LookupAll = (hostname: string) => Promise<{ address: string; family: 4 | 6 }[]>;

/** The operating system's resolver (node:dns/promises lookup, every address, in the order it returned them). */
export const systemLookup: LookupAll = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));

/** Forbidden ranges by reason, first match wins (so `broadcast` is named before the `reserved` 240/4 around it). */
const RANGES: Readonly<Record<string, readonly string[]>> = {
  unspecified: ['0.0.0.0/8', '::/128'], // "this network"; Linux connects 0.0.0.0 to the local host
  loopback: ['127.0.0.0/8', '::1/128'],
  private: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7', 'fec0::/10'],
  'link-local': ['169.254.0.0/16', 'fe80::/10'], // holds the 169.254.169.254 metadata endpoint
  'carrier-grade NAT': ['100.64.0.0/10'], // holds Alibaba's 100.100.100.200 metadata endpoint
  multicast: ['224.0.0.0/4', 'ff00::/8'],
  broadcast: ['255.255.255.255/32'],
  documentation: ['192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24', '2001:db8::/32'],
  benchmarking: ['198.18.0.0/15'],
  reserved: ['192.0.0.0/24', '192.88.99.0/24', '240.0.0.0/4', '100::/64', '2001::/32'], // 2001::/32 is Teredo
};

function blockList(cidrs: readonly string[]): BlockList {
  const list = new BlockList();
  for (const cidr of cidrs) {
    const [network = '', prefix] = cidr.split('/');
    list.addSubnet(network, Number(prefix), isIP(network) === 6 ? 'ipv6' : 'ipv4');
  }
  return list;
}

/** Built once and never changed afterwards. */
const RULES = Object.freeze(Object.entries(RANGES).map(([reason, cidrs]) => Object.freeze({ reason, list: blockList(cidrs) })));
/** 2000::/3, the only IPv6 space allocated for global unicast; anything else is reserved. */
const GLOBAL_UNICAST = blockList(['2000::/3']);

/** The eight 16-bit groups of a valid IPv6 address (expands `::` and a dotted IPv4 tail). */
function ipv6Groups(address: string): number[] {
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  const text = dotted
    ? `${address.slice(0, dotted.index)}${((Number(dotted[1]) << 8) | Number(dotted[2])).toString(16)}:${((Number(dotted[3]) << 8) | Number(dotted[4])).toString(16)}`
    : address;
  const [head = '', tail] = text.split('::');
  const parts = (s: string) => (s === '' ? [] : s.split(':').map((group) => parseInt(group, 16)));
  const before = parts(head);
  const after = tail === undefined ? [] : parts(tail);
  return [...before, ...new Array<number>(8 - before.length - after.length).fill(0), ...after];
}

/**
 * The IPv4 address an IPv6 address stands for, if any: IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible
 * (::a.b.c.d), NAT64 (64:ff9b::/96) and 6to4 (2002::/16). Each of these reaches the IPv4 host, so the
 * IPv4 address is what must be judged.
 */
function embeddedIPv4(g: readonly number[]): string | undefined {
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zeros = (from: number, to: number) => g.slice(from, to).every((group) => group === 0);
  if (zeros(0, 5) && g[5] === 0xffff) return v4(g[6]!, g[7]!);
  if (zeros(0, 6) && g[6] !== 0) return v4(g[6]!, g[7]!);
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return v4(g[6]!, g[7]!);
  if (g[0] === 0x2002) return v4(g[1]!, g[2]!);
  return undefined;
}

/** Why this IP address (v4 or v6 text, no brackets) may not receive webhooks, or undefined when it may. E.g. 'loopback', 'private', 'link-local', 'carrier-grade NAT', 'multicast', 'reserved', 'unspecified'. */
export function forbiddenAddressReason(address: string): string | undefined {
  const bare = address.replace(/%.*$/, ''); // a zone (fe80::1%eth0) does not change the range
  const family = isIP(bare);
  if (family === 0) return 'not an IP address'; // fail closed on anything unparsed
  if (family === 6 && bare !== '::' && bare !== '::1') {
    const v4 = embeddedIPv4(ipv6Groups(bare));
    if (v4 !== undefined) return forbiddenAddressReason(v4);
  }
  const type = family === 4 ? 'ipv4' : 'ipv6';
  const rule = RULES.find(({ list }) => list.check(bare, type));
  if (rule) return rule.reason;
  return family === 6 && !GLOBAL_UNICAST.check(bare, 'ipv6') ? 'reserved' : undefined;
}

export interface ReceiverPolicy {
  /** true: http and any address allowed (development, tests). */
  allowInsecure: boolean;
  /** How host names are resolved; {@link systemLookup} when omitted. */
  lookup?: LookupAll;
}

const MAX_URL_CHARS = 2048;
const an = (reason: string) => `${/^[aeiou]/i.test(reason) ? 'an' : 'a'} ${reason}`;

/**
 * Checks a webhook URL at registration and returns it parsed (normalized: store its `href`). Always:
 * an absolute http(s) URL of at most 2048 characters. Unless `allowInsecure`: https only, the host
 * neither a forbidden IP literal nor a localhost name, and every address the name resolves to allowed;
 * a name that does not resolve is refused too, since it cannot be checked. Credentials in the URL are
 * allowed (they are the receiver's business). Throws a ValidationError on field `url` naming the reason.
 */
export async function checkReceiverUrl(url: string, policy: ReceiverPolicy): Promise<URL> {
  if (typeof url === 'string' && url.length > MAX_URL_CHARS) {
    throw new ValidationError('url', `url must be at most ${MAX_URL_CHARS} characters`);
  }
  const parsed = typeof url === 'string' && URL.canParse(url) ? new URL(url) : undefined;
  if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')) {
    throw new ValidationError('url', 'url must be an absolute http(s) URL');
  }
  if (policy.allowInsecure) return parsed;
  if (parsed.protocol !== 'https:') throw new ValidationError('url', 'url must use https');

  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host) !== 0) {
    const reason = forbiddenAddressReason(host);
    if (reason) throw new ValidationError('url', `url points at ${an(reason)} address (${host})`);
    return parsed;
  }
  const name = host.replace(/\.+$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) {
    throw new ValidationError('url', `url points at a loopback host (${host})`); // RFC 6761: always loopback
  }
  let addresses: { address: string }[];
  try {
    addresses = await (policy.lookup ?? systemLookup)(host);
  } catch {
    addresses = [];
  }
  if (addresses.length === 0) throw new ValidationError('url', `url host '${host}' does not resolve`);
  for (const { address } of addresses) {
    const reason = forbiddenAddressReason(address);
    if (reason) throw new ValidationError('url', `url host '${host}' resolves to ${an(reason)} address (${address})`);
  }
  return parsed;
}

/**
 * A `lookup` for node:http(s).request options (net.LookupFunction; answers both the single-address
 * and the `all: true` form). It resolves with `policy.lookup` and, unless `allowInsecure`, fails with
 * an Error of code 'ERR_WEBHOOK_FORBIDDEN_ADDRESS' when any resolved address is forbidden. The socket
 * then connects only to an address checked in the same step: no DNS-rebinding window between the
 * check at registration and the connection.
 */
export function guardedLookup(policy: ReceiverPolicy): LookupFunction {
  const resolve = policy.lookup ?? systemLookup;
  return (hostname, options, callback) => {
    const answer = async () => {
      const addresses = await resolve(hostname);
      for (const { address } of policy.allowInsecure ? [] : addresses) {
        const reason = forbiddenAddressReason(address);
        if (reason) {
          const message = `webhook host '${hostname}' resolves to ${an(reason)} address (${address})`;
          throw Object.assign(new Error(message), { code: 'ERR_WEBHOOK_FORBIDDEN_ADDRESS', hostname, address });
        }
      }
      const want = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
      const usable = want === 4 || want === 6 ? addresses.filter(({ family }) => family === want) : addresses;
      if (usable.length === 0) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname });
      return usable;
    };
    // Called back outside the promise, so an exception thrown by the callback is not taken for a lookup failure.
    answer().then(
      (usable) => process.nextTick(() => (options.all ? callback(null, usable) : callback(null, usable[0]!.address, usable[0]!.family))),
      (error: NodeJS.ErrnoException) => process.nextTick(() => callback(error, options.all ? [] : '')),
    );
  };
}

/**
 * Why the address a delivery actually connected to (socket.remoteAddress) may not receive webhooks,
 * or undefined when it may. Defence in depth, and the only check for IP-literal hosts, for which
 * Node skips `lookup`. An unknown address (socket already gone) is refused: it cannot be checked.
 */
export function connectedAddressReason(address: string | undefined, policy: ReceiverPolicy): string | undefined {
  if (policy.allowInsecure) return undefined;
  return address === undefined ? 'unknown address' : forbiddenAddressReason(address);
}
