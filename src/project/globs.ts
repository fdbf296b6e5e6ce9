/**
 * The config's globs (`include`, `exclude`, an override's `paths`),
 * matched with picomatch against a path relative to the config's folder,
 * with `/` separators. A glob that names a folder names everything in it:
 * `docs` and `docs/` match `docs/api/index.rst`, as they would in a
 * .gitignore. `**` crosses folders; `*` does not; a leading `./` or `/`
 * is the config's folder itself.
 */
import path from 'node:path';

import picomatch from 'picomatch';

export type PathTest = (relative: string) => boolean;

function normalise(glob: string): string {
  return glob.trim().replace(/\\/g, '/').replace(/^\.?\/+/, '').replace(/\/+$/, '') || '.';
}

/** One test for several globs; a path matches when it, or a folder it is in, matches one of them. */
export function globTest(globs: readonly string[]): PathTest {
  if (globs.length === 0) return () => false;
  const isMatch = picomatch(globs.map(normalise), { dot: true });
  return (relative) => {
    if (relative === '' || relative.startsWith('../') || relative === '..') return false;
    let at = relative;
    for (;;) {
      if (isMatch(at)) return true;
      const slash = at.lastIndexOf('/');
      if (slash === -1) return false;
      at = at.slice(0, slash);
    }
  };
}

/** `file` relative to `root`, with `/` separators. */
export function relativeTo(root: string, file: string): string {
  return path.relative(root, file).split(path.sep).join('/');
}
