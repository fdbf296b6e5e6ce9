/** The style and class names clients may choose, read from the shipped files. */
import fs from 'node:fs';
import path from 'node:path';

export interface Catalogue {
  htmlStyles: readonly string[];
  latexStyles: readonly string[];
  latexClasses: readonly string[];
}

/** The names in a list file: one a line, `#` starts a comment line. */
export function namesListed(file: string): string[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

function namesIn(dir: string, suffix: string): string[] {
  const names = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(suffix))
    .map((f) => f.slice(0, -suffix.length))
    .filter((n) => /^[a-z0-9][a-z0-9-]*$/.test(n))
    .sort();
  // `default` first: it is what a request without `style` gets.
  return names.includes('default') ? ['default', ...names.filter((n) => n !== 'default')] : names;
}

export function loadCatalogue(stylesDir: string): Catalogue {
  const catalogue = {
    htmlStyles: namesIn(path.join(stylesDir, 'html'), '.css'),
    latexStyles: namesIn(path.join(stylesDir, 'latex'), '.sty'),
    // Shared with python/rst2/render.py, which refuses any other class.
    latexClasses: namesListed(path.join(stylesDir, 'latex', 'classes.txt')),
  };
  if (!catalogue.htmlStyles.includes('default')) throw new Error(`no default HTML style in ${stylesDir}/html`);
  if (!catalogue.latexStyles.includes('default')) throw new Error(`no default LaTeX style in ${stylesDir}/latex`);
  return catalogue;
}
