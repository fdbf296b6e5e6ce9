#!/usr/bin/env node
// Makes sure poppler's `pdftotext` and `pdffonts` are on this machine, for
// the tests that read back what a PDF says (the shaped scripts: text in
// logical order, fonts embedded), and Debian's pikepdf, for the tests that
// read a tagged PDF's structure tree (test/support/pdf-tags.py). The service
// never needs them. Like the Redis step this never fails the set-up: where
// it cannot install it says why and goes on, and those tests then skip with
// that reason.
//
// RST2_SKIP_PDFTOOLS=1 skips this step.
import { spawnSync } from 'node:child_process';

import { aptInstall } from './apt-install.mjs';

const log = (message) => process.stderr.write(`[setup-pdftools] ${message}\n`);

function popplerVersion() {
  const run = spawnSync('pdftotext', ['-v'], { encoding: 'utf8' });
  return run.error || run.status !== 0 ? undefined : (run.stderr || run.stdout).split('\n')[0].trim();
}

// Debian's python3-pikepdf is Debian's /usr/bin/python3's, whatever python3 is first on PATH.
function pikepdfVersion() {
  const run = spawnSync('/usr/bin/python3', ['-c', 'import pikepdf; print(pikepdf.__version__)'], { encoding: 'utf8' });
  return run.error || run.status !== 0 ? undefined : run.stdout.trim();
}

function poppler() {
  const found = popplerVersion();
  if (found) return log(`found ${found}`);
  if (!aptInstall(['poppler-utils'], log, 'to run the PDF text tests')) return log('the PDF text tests will skip');
  const installed = popplerVersion();
  log(installed ? `installed ${installed}` : 'apt-get succeeded but pdftotext is still not on PATH; the PDF text tests will skip');
}

function pikepdf() {
  const found = pikepdfVersion();
  if (found) return log(`found pikepdf ${found}`);
  if (!aptInstall(['python3-pikepdf'], log, 'to run the tagged-PDF tests')) return log('the tagged-PDF tests will skip');
  const installed = pikepdfVersion();
  log(installed ? `installed pikepdf ${installed}` : 'apt-get succeeded but /usr/bin/python3 cannot import pikepdf; the tagged-PDF tests will skip');
}

function main() {
  if (process.env.RST2_SKIP_PDFTOOLS === '1') return log('RST2_SKIP_PDFTOOLS=1: not installing poppler-utils and python3-pikepdf (the PDF text and tagged-PDF tests will skip)');
  poppler();
  pikepdf();
}

main();
