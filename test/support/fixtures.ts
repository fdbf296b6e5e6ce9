/** Shared by the command-line and single-binary tests. */
import fs from 'node:fs';
import path from 'node:path';

import { paths } from '../../src/paths.js';

/** Whether pdfTeX is built here (RST2_SKIP_TEX=1 leaves it out). */
export const haveTex = fs.existsSync(path.join(paths.texDir, 'manifest.json'));

/** A clean document with a title and a word to find in every output. */
export const GOOD = `==============
Quarterly Note
==============

The zeppelin *quietly* crossed the fjord.
`;
