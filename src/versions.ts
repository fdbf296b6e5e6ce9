/**
 * What the running code is, read once at start: the service's version
 * (package.json), the keys of the docutils bundle and the pdfTeX build
 * (their manifests, which change with every rebuild) and a hash of our
 * Python sources.
 */
import fs from 'node:fs';
import path from 'node:path';

import { snapshotKey } from './engines/python/snapshot.js';
import { paths, projectRoot } from './paths.js';

export interface Versions {
  /** package.json's version: the OpenAPI description's and the log's. */
  service: string;
  /** Service, docutils bundle, our Python and the pdfTeX build together: the render keys' salt (renderer.ts). */
  renderKeySalt: string;
}

function manifestKey(file: string): string {
  try {
    return String((JSON.parse(fs.readFileSync(file, 'utf8')) as { key?: string }).key ?? 'none');
  } catch {
    // Not built (pdfTeX is optional): renderings still differ from a build's.
    return 'none';
  }
}

/** Our Python code changes what a page contains (e.g. what is escaped): its hash keeps older renderings out of the cache. */
function pythonKey(): string {
  try {
    return snapshotKey({ bundlePath: paths.pythonBundle, pythonSources: paths.pythonSources, stylesDir: paths.styles });
  } catch {
    return 'none';
  }
}

export function readVersions(): Versions {
  const service = (JSON.parse(fs.readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { version: string }).version;
  const renderKeySalt = [
    service,
    manifestKey(path.join(projectRoot, 'wasm/python/manifest.json')),
    pythonKey(),
    manifestKey(path.join(paths.texDir, 'manifest.json')),
  ].join('/');
  return { service, renderKeySalt };
}
