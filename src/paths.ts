/** Where the service finds its own files, wherever it was started from. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Compiled to dist/src/paths.js: the project root is two levels up.
export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export const paths = {
  pythonBundle: path.join(projectRoot, 'wasm', 'python', 'bundle.tar'),
  pythonSources: path.join(projectRoot, 'python'),
  styles: path.join(projectRoot, 'styles'),
  texDir: path.join(projectRoot, 'wasm', 'tex'),
  /** DejaVu Sans for the text of SVG images (scripts/setup-fonts.mjs). */
  fonts: path.join(projectRoot, 'wasm', 'fonts'),
  /** The editor page, built by scripts/build-web.mjs. */
  web: path.join(projectRoot, 'dist', 'web'),
  /** The manual's sources, served rendered at /docs/ (http/docs.ts). */
  docs: path.join(projectRoot, 'docs'),
};
