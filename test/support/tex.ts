/**
 * Whether pdfTeX is built here, asked once for every test that needs it.
 *
 * Outside CI a missing build (RST2_SKIP_TEX=1, or a failed build) makes
 * those tests skip, saying why. Under CI (CI=true, as .ci/in-room sets) the
 * install is what is under test: they run and fail on the missing build
 * instead (hooks.ts also fails the run at once), so none is counted as
 * skipped while pdfTeX is absent.
 */
import fs from 'node:fs';
import path from 'node:path';

import { paths } from '../../src/paths.js';

/** What scripts/build-tex.sh leaves in wasm/tex and the tests use. */
const TEX_FILES = ['manifest.json', 'pdftex.wasm', 'pdflatex.fmt', 'luahbtex.wasm', 'lualatex.fmt', 'scripts.json'] as const;

/** The files of the build that are missing, as full paths; empty when pdfTeX is built. */
export function texMissing(): string[] {
  return TEX_FILES.map((file) => path.join(paths.texDir, file)).filter((file) => !fs.existsSync(file));
}

export const haveTex = texMissing().length === 0;

const inCi = (): boolean => Boolean(process.env['CI']);

const SKIPPED = 'skipped: pdfTeX is not built, see bash scripts/build-tex.sh';

function notBuilt(): string {
  return `pdfTeX is not built (missing ${texMissing().join(', ')}): run bash scripts/build-tex.sh`;
}

/** For a before() or a test: skips it, saying why, where pdfTeX is not built; under CI, fails it. */
export function requireTex(ctx: Mocha.Context): void {
  if (haveTex) return;
  if (inCi()) throw new Error(notBuilt());
  console.log(`      skipped: ${notBuilt()}`);
  ctx.skip();
}

/**
 * describe() for a suite that needs pdfTeX. Where it is not built: skipped
 * (its title says why), or under CI run with a first hook that fails.
 */
export function describeTex(title: string, body: (this: Mocha.Suite) => void): Mocha.Suite | void {
  if (haveTex) return describe(title, body);
  if (!inCi()) return describe.skip(`${title} (${SKIPPED})`, body);
  return describe(title, function () {
    before(() => {
      throw new Error(notBuilt());
    });
    body.call(this);
  });
}

/** it() for a test that needs pdfTeX: skipped where it is not built, failing under CI. */
export function itTex(title: string, fn: (this: Mocha.Context) => Promise<unknown> | void): Mocha.Test {
  if (haveTex) return it(title, fn);
  if (!inCi()) return it.skip(`${title} (${SKIPPED})`, fn);
  return it(title, () => {
    throw new Error(notBuilt());
  });
}
