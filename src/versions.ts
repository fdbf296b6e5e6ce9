/**
 * What the running code is, read once at start: the service's version
 * (package.json), the keys of the docutils bundle and the pdfTeX build
 * (their manifests, which change with every rebuild), a hash of our
 * Python sources, and the versions of docutils, Pygments and pdfTeX those
 * manifests record (reported by /health).
 */
import fs from 'node:fs';
import path from 'node:path';

import { snapshotKey } from './engines/python/snapshot.js';
import { paths, projectRoot } from './paths.js';

/** The engines' versions as built; null where a part is not built (pdfTeX is optional). */
export interface EngineVersions {
  /** docutils' upstream version, e.g. "0.23" (Debian's python3-docutils 0.23+dfsg-2). */
  docutils: string | null;
  /** Pygments' upstream version, e.g. "2.20.0". */
  pygments: string | null;
  /** The TeX engine and its version, e.g. "pdfTeX 1.40.24". */
  tex: string | null;
  /** The engine for the scripts pdfTeX cannot set, e.g. "LuaHBTeX 1.15.0". */
  shapingTex: string | null;
}

export interface Versions {
  /** package.json's version: the OpenAPI description's and the log's. */
  service: string;
  /** Service, docutils bundle, our Python and the pdfTeX build together: the render keys' salt (renderer.ts). */
  renderKeySalt: string;
  engines: EngineVersions;
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Debian's version without epoch, revision and repack suffix: "0.23" of "0.23+dfsg-2". */
export function upstreamVersion(debian: string): string {
  return debian.replace(/^\d+:/, '').replace(/-[^-]*$/, '').replace(/[+~](?:dfsg|ds|repack)\d*$/, '');
}

/** The Debian version of `name` in the Python bundle's manifest (scripts/build-python.mjs). */
function bundledVersion(manifest: unknown, name: string): string | null {
  const packages = (manifest as { packages?: unknown } | undefined)?.packages;
  if (Array.isArray(packages)) {
    const entry = (packages as { name?: unknown; version?: unknown }[]).find((p) => p.name === name);
    return typeof entry?.version === 'string' ? entry.version : null;
  }
  // Bundles built before the series pin recorded { name: version }.
  const version = (packages as Record<string, unknown> | undefined)?.[name];
  return typeof version === 'string' ? version : null;
}

export function engineVersions(pythonManifest: unknown, texManifest: unknown): EngineVersions {
  const docutils = bundledVersion(pythonManifest, 'python3-docutils');
  const pygments = bundledVersion(pythonManifest, 'python3-pygments');
  type Named = { name?: unknown; version?: unknown } | undefined;
  const manifest = texManifest as { engine?: Named; engines?: { luahbtex?: Named } } | undefined;
  const named = (engine: Named): string | null =>
    typeof engine?.name === 'string' && typeof engine.version === 'string' ? `${engine.name} ${engine.version}` : null;
  return {
    docutils: docutils === null ? null : upstreamVersion(docutils),
    pygments: pygments === null ? null : upstreamVersion(pygments),
    tex: named(manifest?.engine),
    shapingTex: named(manifest?.engines?.luahbtex),
  };
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
  const engines = engineVersions(readJson(path.join(projectRoot, 'wasm/python/manifest.json')), readJson(path.join(paths.texDir, 'manifest.json')));
  return { service, renderKeySalt, engines };
}
