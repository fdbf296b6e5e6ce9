// The oldest Node.js rst2 runs on, checked at install by scripts/setup.mjs:
// zlib.crc32 (PNG and ZIP writing) arrived in Node 20.15, and npm only warns
// about package.json's "engines", so without this a too-old Node would build
// for minutes and then fail at the first PDF image.
export const NODE_FLOOR = '20.15.0';

/** The message for a Node.js version below the floor, or undefined when it will do. */
export function nodeTooOld(version) {
  const have = version.replace(/^v/, '').split('.').map(Number);
  const need = NODE_FLOOR.split('.').map(Number);
  for (let i = 0; i < need.length; i++) {
    if ((have[i] ?? 0) > need[i]) return undefined;
    if ((have[i] ?? 0) < need[i]) return `rst2 needs Node.js ${NODE_FLOOR} or newer (package.json "engines"); this is Node.js ${version.replace(/^v/, '')}`;
  }
  return undefined;
}
