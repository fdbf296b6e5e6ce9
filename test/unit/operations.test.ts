/**
 * The operation table is what both the router and the OpenAPI description
 * are made of: the same paths and methods, the options with their enums
 * from the running catalogue, and the parameters each operation accepts.
 */
import { expect } from 'chai';

import { NO_CACHE } from '../../src/cache/render-cache.js';
import { createLogger } from '../../src/log.js';
import { PythonEngine } from '../../src/engines/python/engine.js';
import { MissingPdfEngine } from '../../src/engines/tex/missing-engine.js';
import { buildOpenApi } from '../../src/http/openapi.js';
import type { OpenApiDocument, Parameter, Reference } from '../../src/http/openapi-types.js';
import { OPERATIONS, operationOf, routerPath } from '../../src/http/operations.js';
import { acceptedParameters } from '../../src/http/operation-entry.js';
import { buildRouter } from '../../src/http/routes.js';
import { OPTIONS } from '../../src/options.js';
import { paths } from '../../src/paths.js';
import { Renderer } from '../../src/renderer.js';
import { loadCatalogue } from '../../src/styles.js';
import type { TokenStore } from '../../src/store/token-store.js';

const catalogue = loadCatalogue(paths.styles);

function description(): OpenApiDocument {
  return buildOpenApi({ version: '0.0.0-test', catalogue, maxBodyBytes: 1000, uriMaxBytes: 1000 });
}

describe('the operation table', () => {
  it('is what the router registers: the same paths and methods (the editor page and the manual aside, served by their middleware)', () => {
    // Real parts, never started: building the router must not need running engines.
    const python = new PythonEngine({ workers: 1, queueLimit: 1, timeoutMs: 1000, bundlePath: paths.pythonBundle, pythonSources: paths.pythonSources, stylesDir: paths.styles, log: createLogger('silent') });
    const store: TokenStore = { save: async () => {}, load: async () => undefined, remove: async () => false, ping: async () => {}, close: async () => {} };
    const router = buildRouter({
      renderer: new Renderer({ python, pdf: new MissingPdfEngine('not needed'), cache: NO_CACHE, renderKeySalt: 'test' }),
      catalogue,
      store,
      maxBodyBytes: 1000,
      fetchPolicy: { maxBytes: 1000, timeoutMs: 1000, maxRedirects: 0, allowPrivate: false },
      version: '0.0.0-test',
      health: async () => ({}),
      ready: async () => ({}),
      metrics: async () => ({ body: '', type: 'text/plain' }),
    });
    const registered = router.stack.flatMap((layer) => layer.methods.filter((m) => m !== 'HEAD').map((m) => `${m} ${layer.path}`)).sort();
    const table = OPERATIONS.filter((op) => op.kind !== 'page' && op.kind !== 'manual')
      .flatMap((op) => op.methods.map((m) => `${m.toUpperCase()} ${routerPath(op.path)}`))
      .sort();
    expect(registered).to.deep.equal(table);
  });

  it('is what the description lists: every path, every method, no more', () => {
    const doc = description();
    expect(Object.keys(doc.paths).sort()).to.deep.equal([...new Set(OPERATIONS.map((op) => op.path))].sort());
    // A path may be shared by operations with different methods (a token's text and its deletion).
    const tableMethods = new Map<string, string[]>();
    for (const op of OPERATIONS) tableMethods.set(op.path, [...(tableMethods.get(op.path) ?? []), ...op.methods]);
    for (const [path, expected] of tableMethods) {
      const item = doc.paths[path]!;
      const methods = (['get', 'post', 'put', 'delete', 'patch'] as const).filter((m) => item[m]);
      expect(methods, path).to.deep.equal([...expected].sort((a, b) => ['get', 'post', 'put', 'delete', 'patch'].indexOf(a) - ['get', 'post', 'put', 'delete', 'patch'].indexOf(b)));
    }
  });

  it('gives each option of an operation its enum from the running catalogue and its default, in the description', () => {
    const doc = description();
    for (const op of OPERATIONS) {
      if (op.kind !== 'render' && op.kind !== 'token') continue;
      const listed = (doc.paths[op.path]!.parameters ?? []).map((p) => {
        const name = (p as Reference).$ref.split('/').pop()!;
        return doc.components.parameters[name] as Parameter;
      });
      expect(listed.filter((p) => p.in === 'query').map((p) => p.name), op.path).to.deep.equal(acceptedParameters(op));
      if (op.kind !== 'render') continue;
      for (const option of op.options) {
        const param = doc.components.parameters[option.component]!;
        expect(param.schema.enum, `${op.path} ${option.name}`).to.deep.equal(option.values(catalogue));
        expect(param.schema.default).to.equal(option.default);
      }
    }
    expect(doc.components.parameters.HtmlStyle!.schema.enum).to.deep.equal(catalogue.htmlStyles);
    expect(doc.components.parameters.LatexClass!.schema.enum).to.deep.equal(catalogue.latexClasses);
  });

  it('names a parameter component for every option, and an option at most once per operation', () => {
    const doc = description();
    for (const component of Object.keys(OPTIONS)) expect(doc.components.parameters, component).to.have.property(component);
    for (const op of OPERATIONS) {
      if (op.kind !== 'render') continue;
      const names = acceptedParameters(op);
      expect(new Set(names).size, op.path).to.equal(names.length);
    }
  });

  it("fixes the description's health answer to what the server sends without pdfTeX", () => {
    const health = description().components.schemas.Health!;
    const missing = health.properties!.pdf!.anyOf![1]!;
    expect(missing.required).to.deep.equal(['available']);
    const text = description().paths['/health']!.get!.responses['200'] as { description: string };
    expect(text.description).to.include('left to `/ready`');
  });

  it('labels the request metrics by operation, one series for everything unmatched', () => {
    expect(['/1.0/rst2/html', '/1.0/rst2/pdf', '/1.0/rst2/check'].map(operationOf)).to.deep.equal(['html', 'pdf', 'check']);
    expect(['/1.0/rst2/token', '/1.0/rst2/token/:token'].map(operationOf)).to.deep.equal(['token', 'token']);
    expect(['/1.0/rst2/html/styles', '/1.0/rst2/pdf/classes'].map(operationOf)).to.deep.equal(['list', 'list']);
    expect(['/health', '/ready', '/metrics', '/1.0/openapi.json', '/', '/assets/*', '/docs/', '/docs/:page'].map(operationOf)).to.deep.equal(['health', 'ready', 'metrics', 'openapi', 'editor', 'editor', 'docs', 'docs']);
    expect(operationOf(undefined)).to.equal('unmatched');
  });
});
