/**
 * Which IP addresses the `uri` fetcher may connect to. Pure functions, no I/O:
 * the fetcher applies them both to literal hosts in a URL and to every address
 * DNS hands back, so a name cannot smuggle a request into the local network.
 *
 * Written by hand rather than with node:net BlockList (or ipaddr.js, which
 * names these ranges but reads the IPv4 address out of none but the mapped
 * form) so that every IPv4 address an IPv6 address carries is decoded here
 * and judged: a translator or tunnel delivers the packet to it.
 */
import { isIPv4, isIPv6 } from 'node:net';

export type AddressClass =
  | 'public'
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'shared'
  | 'link-local'
  | 'cloud-metadata'
  | 'multicast'
  | 'broadcast'
  | 'unique-local'
  | 'documentation'
  | 'reserved'
  | 'invalid';

interface Range<T> {
  base: T;
  prefix: number;
  cls: AddressClass;
}

function v4(text: string, prefix: number, cls: AddressClass): Range<number> {
  const base = parseIPv4(text);
  if (base === null) throw new Error(`bad IPv4 range ${text}`);
  return { base, prefix, cls };
}

function v6(text: string, prefix: number, cls: AddressClass): Range<bigint> {
  const base = parseIPv6(text);
  if (base === null) throw new Error(`bad IPv6 range ${text}`);
  return { base, prefix, cls };
}

// Most specific first: the first match wins. Anything unmatched is public.
// Based on the IANA IPv4 special-purpose address registry; ranges that IANA
// marks globally reachable but that never host documents (AS112, AMT) are
// left public, everything "not globally reachable" is refused.
// Cloud metadata services that live outside link-local space are named on
// their own, so that allowing private addresses does not open them; those
// inside it (169.254.169.254, 169.254.170.2, fe80::/10) go with link-local.
const IPV4_RANGES: readonly Range<number>[] = [
  v4('100.100.100.200', 32, 'cloud-metadata'), // Alibaba Cloud
  v4('192.0.0.192', 32, 'cloud-metadata'), // Oracle Cloud (legacy)
  // Azure's WireServer (agent, health probes, DNS): a public-looking address
  // every Azure VM reaches, and one that hands out its extensions' settings.
  v4('168.63.129.16', 32, 'cloud-metadata'),
  v4('0.0.0.0', 32, 'unspecified'),
  v4('0.0.0.0', 8, 'reserved'),
  v4('10.0.0.0', 8, 'private'),
  v4('100.64.0.0', 10, 'shared'),
  v4('127.0.0.0', 8, 'loopback'),
  v4('169.254.0.0', 16, 'link-local'),
  v4('172.16.0.0', 12, 'private'),
  v4('192.0.0.0', 24, 'reserved'),
  v4('192.0.2.0', 24, 'documentation'),
  v4('192.88.99.0', 24, 'reserved'),
  v4('192.168.0.0', 16, 'private'),
  v4('198.18.0.0', 15, 'reserved'),
  v4('198.51.100.0', 24, 'documentation'),
  v4('203.0.113.0', 24, 'documentation'),
  v4('224.0.0.0', 4, 'multicast'),
  v4('255.255.255.255', 32, 'broadcast'),
  v4('240.0.0.0', 4, 'reserved'),
];

// Checked after the embedded-IPv4 forms. Only 2000::/3 is global unicast, so
// the list only needs the exceptions inside it plus the named classes outside
// it; whatever else lies outside 2000::/3 falls through to 'reserved'.
const IPV6_RANGES: readonly Range<bigint>[] = [
  v6('::', 128, 'unspecified'),
  v6('::1', 128, 'loopback'),
  v6('64:ff9b:1::', 48, 'reserved'),
  v6('100::', 64, 'reserved'),
  v6('2001::', 23, 'reserved'),
  v6('2001:db8::', 32, 'documentation'),
  v6('3fff::', 20, 'documentation'),
  v6('5f00::', 16, 'reserved'),
  // AWS: instance metadata at fd00:ec2::254, and its other services
  // (DNS, time, EKS pod identity) in the same block.
  v6('fd00:ec2::', 32, 'cloud-metadata'),
  // Google Compute Engine: the metadata server of IPv6-only instances.
  v6('fd20:ce::254', 128, 'cloud-metadata'),
  v6('fc00::', 7, 'unique-local'),
  v6('fe80::', 10, 'link-local'),
  v6('fec0::', 10, 'reserved'),
  v6('ff00::', 8, 'multicast'),
];

// IPv6 blocks that carry an IPv4 address, which a translator (NAT64, SIIT)
// or a tunnel (6to4, Teredo, ISATAP) delivers to.
const V4_MAPPED = v6('::ffff:0:0', 96, 'reserved');
const V4_TRANSLATED = v6('::ffff:0:0:0', 96, 'reserved'); // SIIT (RFC 2765, RFC 6145)
const V4_COMPATIBLE = v6('::', 96, 'reserved');
const NAT64 = v6('64:ff9b::', 96, 'reserved'); // RFC 6052, well-known prefix
const NAT64_LOCAL = v6('64:ff9b:1::', 48, 'reserved'); // RFC 8215, local use
const SIX_TO_FOUR = v6('2002::', 16, 'reserved');
const TEREDO = v6('2001::', 32, 'reserved');
const GLOBAL_UNICAST = v6('2000::', 3, 'public');

function inV4(address: number, range: Range<number>): boolean {
  const mask = range.prefix === 0 ? 0 : (0xffffffff << (32 - range.prefix)) >>> 0;
  return ((address & mask) >>> 0) === ((range.base & mask) >>> 0);
}

function inV6(address: bigint, range: Range<bigint>): boolean {
  const shift = BigInt(128 - range.prefix);
  return address >> shift === range.base >> shift;
}

/** Dotted-quad IPv4 as an unsigned 32-bit number, or null if not exactly that. */
export function parseIPv4(text: string): number | null {
  // isIPv4 already rejects octal-looking, short and out-of-range forms; the URL
  // parser has normalised forms like 0177.1 to 127.0.0.1 before we get here.
  if (!isIPv4(text)) return null;
  return text.split('.').reduce((acc, part) => acc * 256 + Number(part), 0);
}

/**
 * IPv6 text (compressed, with an embedded dotted quad, optionally with a zone
 * id or URL brackets) as a 128-bit number, or null.
 */
export function parseIPv6(text: string): bigint | null {
  let s = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const zone = s.indexOf('%');
  if (zone !== -1) s = s.slice(0, zone);
  if (!isIPv6(s)) return null;

  const groups: number[] = [];
  const pushGroups = (part: string): void => {
    if (part === '') return;
    for (const piece of part.split(':')) {
      if (piece.includes('.')) {
        const quad = parseIPv4(piece);
        if (quad === null) throw new RangeError('bad embedded IPv4');
        groups.push(quad >>> 16, quad & 0xffff);
      } else {
        groups.push(parseInt(piece, 16));
      }
    }
  };

  const halves = s.split('::');
  const head: number[] = [];
  try {
    pushGroups(halves[0] ?? '');
    head.push(...groups.splice(0));
    if (halves.length === 2) pushGroups(halves[1] ?? '');
  } catch {
    return null;
  }
  const tail = groups;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const all = [...head, ...new Array<number>(missing).fill(0), ...tail];
  return all.reduce((acc, g) => (acc << 16n) | BigInt(g), 0n);
}

function classifyIPv4Number(address: number): AddressClass {
  for (const range of IPV4_RANGES) {
    if (inV4(address, range)) return range.cls;
  }
  return 'public';
}

/**
 * The IPv4 address in an RFC 6052 address under a prefix of `prefixLength`
 * bits: the 32 bits follow the prefix, except bits 64-71 (the "u" octet),
 * which they skip.
 */
function rfc6052IPv4(address: bigint, prefixLength: 32 | 40 | 48 | 56 | 64 | 96): number {
  const bits = (from: number, count: number): bigint => (address >> BigInt(128 - from - count)) & ((1n << BigInt(count)) - 1n);
  if (prefixLength === 96) return Number(bits(96, 32));
  if (prefixLength === 64) return Number(bits(72, 32));
  const before = 64 - prefixLength;
  return Number((bits(prefixLength, before) << BigInt(32 - before)) | bits(72, 32 - before));
}

/** The IPv4 address in an ISATAP interface identifier (RFC 5214: [02]00:5efe:a.b.c.d, u and g bits free), or null. */
function isatapIPv4(address: bigint): number | null {
  const marker = Number((address >> 32n) & 0xffffffffn);
  return (marker & 0xfcffffff) === 0x00005efe ? Number(address & 0xffffffffn) : null;
}

// How far a class opens the fetcher: public, then what allowPrivate opens,
// then what only allowLinkLocal opens (see mayConnect).
function openness(cls: AddressClass): number {
  return cls === 'public' ? 0 : isLinkLocalClass(cls) ? 2 : 1;
}

/** The class that asks the most of the operator; of equals, the first. */
function strictest(classes: readonly AddressClass[]): AddressClass {
  return classes.reduce((worst, cls) => (openness(cls) > openness(worst) ? cls : worst));
}

function classifyIPv6Number(address: bigint): AddressClass {
  const low32 = Number(address & 0xffffffffn);

  // Translation addresses stand for the IPv4 host alone: judged by it.
  if (inV6(address, V4_MAPPED) || inV6(address, V4_TRANSLATED) || inV6(address, NAT64)) return classifyIPv4Number(low32);
  if (inV6(address, SIX_TO_FOUR)) {
    const relay = classifyIPv4Number(Number((address >> 80n) & 0xffffffffn));
    const isatap = isatapIPv4(address);
    return isatap === null ? relay : strictest([relay, classifyIPv4Number(isatap)]);
  }
  // ::/128 and ::1 sit inside the IPv4-compatible block; they keep their own names.
  if (address === 0n) return 'unspecified';
  if (address === 1n) return 'loopback';
  if (inV6(address, V4_COMPATIBLE)) {
    // Deprecated (RFC 4291) and never routed; name the embedded class when it
    // is a telling one so the message is useful.
    const embedded = classifyIPv4Number(low32);
    return embedded === 'public' ? 'reserved' : embedded;
  }

  let own: AddressClass | undefined;
  for (const range of IPV6_RANGES) {
    if (inV6(address, range)) {
      own = range.cls;
      break;
    }
  }
  own ??= inV6(address, GLOBAL_UNICAST) ? 'public' : 'reserved';

  const carried: number[] = [];
  // Local-use NAT64: the operator picks a prefix of 48 bits or more inside
  // it, which the address does not tell, so every layout is read.
  if (inV6(address, NAT64_LOCAL)) for (const length of [48, 56, 64, 96] as const) carried.push(rfc6052IPv4(address, length));
  // Teredo: the server, and the client's public address, stored inverted.
  if (inV6(address, TEREDO)) carried.push(Number((address >> 64n) & 0xffffffffn), (~low32) >>> 0);
  const isatap = isatapIPv4(address);
  if (isatap !== null) carried.push(isatap);
  return strictest([own, ...carried.map(classifyIPv4Number)]);
}

/** Classify an IPv4 or IPv6 address given as text; 'invalid' for anything else. */
export function classifyAddress(address: string): AddressClass {
  const asV4 = parseIPv4(address);
  if (asV4 !== null) return classifyIPv4Number(asV4);
  const asV6 = parseIPv6(address);
  if (asV6 !== null) return classifyIPv6Number(asV6);
  return 'invalid';
}

/** True only for addresses the fetcher may connect to without `allowPrivate`. */
export function isPublicAddress(address: string): boolean {
  return classifyAddress(address) === 'public';
}

/** What an operator opened beyond public addresses. Absent means no. */
export interface AddressAllowance {
  /** Private, loopback, shared, unique-local and other non-public classes. */
  allowPrivate?: boolean;
  /** Link-local and cloud metadata: the classic target of a server-side request forgery. */
  allowLinkLocal?: boolean;
}

/** Classes that only `allowLinkLocal` opens, never `allowPrivate`. */
export function isLinkLocalClass(cls: AddressClass): boolean {
  return cls === 'link-local' || cls === 'cloud-metadata';
}

/** Whether the fetcher may connect to an address of this class. */
export function mayConnect(cls: AddressClass, allowance: AddressAllowance): boolean {
  if (cls === 'public') return true;
  if (isLinkLocalClass(cls)) return allowance.allowLinkLocal === true;
  return allowance.allowPrivate === true;
}

const DESCRIPTIONS: Readonly<Record<AddressClass, string>> = {
  public: 'a public address',
  unspecified: 'the unspecified address',
  loopback: 'a loopback address',
  private: 'a private-network address',
  shared: 'a carrier-grade NAT (shared) address',
  'link-local': 'a link-local address',
  'cloud-metadata': 'a cloud metadata address',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
  'unique-local': 'an IPv6 unique-local address',
  documentation: 'a documentation-only address',
  reserved: 'a reserved address',
  invalid: 'an invalid address',
};

/** Phrase for client-facing messages, e.g. "a loopback address". */
export function describeAddressClass(cls: AddressClass): string {
  return DESCRIPTIONS[cls];
}
