/**
 * A screenshot of every HTML style on docutils' own demonstration document
 * (docs/user/rst/demo.rst of docutils-doc, the version the bundle runs), for
 * docs/styles/ and for comparing a style change before and after: three
 * screens each (the top, the tables, the admonitions).
 *
 * The pages are made by our Python code with the bundle's docutils run
 * natively (the workers' code and versions; no server needed), then opened
 * from a file in headless Chromium, as the browser tests do. Not a test:
 * it writes pictures for a person to look at.
 *
 * usage: node dist/bench/style-screenshots.js [--out DIR]   (default docs/styles)
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { paths, projectRoot } from '../src/paths.js';
import { loadCatalogue } from '../src/styles.js';
import { launchChromium } from '../test/support/chromium.js';
import { docutilsDocuments, nativeBundleEnv } from '../test/support/debian.js';
import { benchArgs } from './support.js';

const out = path.resolve(benchArgs({ strings: ['out'] }).string('out', path.join(projectRoot, 'docs', 'styles')));
/** One screen, small enough to keep in the repository. */
const VIEWPORT = { width: 760, height: 800 };
/** The screens taken of each style: the title and docinfo, then the sections where styles differ most. */
const SHOTS: ReadonlyArray<{ suffix: string; section?: string }> = [{ suffix: '' }, { suffix: '-tables', section: 'tables' }, { suffix: '-admonitions', section: 'admonitions' }];

const RENDER = `
import json, sys
from rst2.render import render_html
job = json.load(sys.stdin)
json.dump({style: render_html(job["text"], style)["html"] for style in job["styles"]}, sys.stdout)
`;

function demoDocument(): string {
  const demo = docutilsDocuments().find((doc) => doc.name === path.join('docs', 'user', 'rst', 'demo.rst'));
  if (!demo) throw new Error("docutils-doc has no docs/user/rst/demo.rst: the bundle's docutils documentation changed");
  return demo.text;
}

async function main(): Promise<void> {
  const styles = loadCatalogue(paths.styles).htmlStyles;
  const rendered = spawnSync('/usr/bin/python3', ['-c', RENDER], {
    input: JSON.stringify({ text: demoDocument(), styles }),
    encoding: 'utf8',
    maxBuffer: 1 << 28,
    env: { ...nativeBundleEnv([paths.pythonSources]), RST2_STYLES_DIR: paths.styles },
  });
  if (rendered.status !== 0) throw new Error(`rendering failed: ${rendered.stderr.slice(-2000)}`);
  const pages = JSON.parse(rendered.stdout) as Record<string, string>;
  fs.mkdirSync(out, { recursive: true });
  // The pages too, to open by hand.
  const pagesDir = path.join(projectRoot, 'test-output', 'style-pages');
  fs.mkdirSync(pagesDir, { recursive: true });
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ viewport: VIEWPORT });
    // The demo's images are relative files we do not have; nothing is fetched.
    await context.route('**/*', (route) => (route.request().url().startsWith('file:') ? route.continue() : route.abort()));
    for (const style of styles) {
      const file = path.join(pagesDir, `${style}.html`);
      fs.writeFileSync(file, pages[style]!);
      const page = await context.newPage();
      await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
      for (const { suffix, section } of SHOTS) {
        if (section) await page.locator(`#${section}`).evaluate((element) => element.scrollIntoView());
        const png = path.join(out, `${style}${suffix}.png`);
        await page.screenshot({ path: png });
        console.log(`${style}: ${path.relative(process.cwd(), png)} (${fs.statSync(png).size} bytes)`);
      }
      await page.close();
    }
  } finally {
    await browser.close();
  }
}

await main();
