/**
 * The shape of a path no route matched, for the access log: the longest
 * start of it that is also the start of one of our own paths, then `/*` for
 * whatever followed. Only words from the operation table are ever kept, so
 * a token or a key that a client put anywhere in a path never reaches the log.
 */
import { OPERATIONS } from './operations.js';

/** Every start of an operation's path made of fixed words only: `/1.0`, `/1.0/rst2`, `/1.0/rst2/token`, … */
const KNOWN = new Set<string>();
for (const op of OPERATIONS) {
  let start = '';
  for (const segment of op.path.split('/').slice(1)) {
    if (segment === '' || segment.includes('{')) break;
    start += `/${segment}`;
    KNOWN.add(start);
  }
}

export function pathShape(path: string): string {
  const segments = path.split('/').slice(1);
  let shape = '';
  for (const [i, segment] of segments.entries()) {
    const longer = `${shape}/${segment}`;
    if (!KNOWN.has(longer)) return `${shape}/*`;
    if (i === segments.length - 1) return longer;
    shape = longer;
  }
  return `${shape}/*`;
}
