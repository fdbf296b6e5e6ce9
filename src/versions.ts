/**
 * What the running code is, read once at start: the service's version
 * (package.json) and the keys of the docutils bundle and the pdfTeX build
 * (their manifests, which change with every rebuild).
 */
import fs from 'node:fs';
import path from 'node:path';

import { paths, projectRoot } from './paths.js';

export interface Versions {
  /** package.json's version: the OpenAPI description's and the log's. */
  service: string;
  /** Service, docutils bundle and pdfTeX build together: the render keys' salt (renderer.ts). */
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

export function readVersions(): Versions {
  const service = (JSON.parse(fs.readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { version: string }).version;
  const renderKeySalt = [service, manifestKey(path.join(projectRoot, 'wasm/python/manifest.json')), manifestKey(path.join(paths.texDir, 'manifest.json'))].join('/');
  return { service, renderKeySalt };
}
