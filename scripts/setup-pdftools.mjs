#!/usr/bin/env node
// Makes sure poppler's `pdftotext` and `pdffonts` are on this machine, for
// the tests that read back what a PDF says (the shaped scripts: text in
// logical order, fonts embedded). The service never needs them. Like the
// Redis step this never fails the set-up: where it cannot install it says
// why and goes on, and those tests then skip with that reason.
//
// RST2_SKIP_PDFTOOLS=1 skips this step.
import { spawnSync } from 'node:child_process';

import { aptInstall } from './apt-install.mjs';

const log = (message) => process.stderr.write(`[setup-pdftools] ${message}\n`);

function popplerVersion() {
  const run = spawnSync('pdftotext', ['-v'], { encoding: 'utf8' });
  return run.error || run.status !== 0 ? undefined : (run.stderr || run.stdout).split('\n')[0].trim();
}

function main() {
  if (process.env.RST2_SKIP_PDFTOOLS === '1') return log('RST2_SKIP_PDFTOOLS=1: not installing poppler-utils (the PDF text tests will skip)');
  const found = popplerVersion();
  if (found) return log(`found ${found}`);
  if (!aptInstall(['poppler-utils'], log, 'to run the PDF text tests')) return log('the PDF text tests will skip');
  const installed = popplerVersion();
  log(installed ? `installed ${installed}` : 'apt-get succeeded but pdftotext is still not on PATH; the PDF text tests will skip');
}

main();
