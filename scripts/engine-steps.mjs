// The install steps that follow a new Python bundle, shared by setup.mjs and
// move-docutils.mjs: each is a plain (CommonJS) -e script with dynamic
// imports, because the snapshot maker's worker inherits execArgv and
// --input-type there stops it from starting.

/** The Pyodide memory snapshot of the bundle and our Python (never fails: workers then boot plainly). */
export const SNAPSHOT = `(async () => {
   const { ensureSnapshot } = await import('./dist/src/engines/python/snapshot.js');
   const { paths } = await import('./dist/src/paths.js');
   const file = await ensureSnapshot({ bundlePath: paths.pythonBundle, pythonSources: paths.pythonSources, stylesDir: paths.styles },
     (m) => console.error('[setup] no snapshot (workers will boot plainly): ' + m));
   if (file) console.error('[setup] snapshot ' + file);
   })();`;

/** The LaTeX formats of the default class and style: their preamble is what docutils writes, so they follow the bundle. */
export const DEFAULT_FORMATS = `(async () => {
   const { installDefaultFormats } = await import('./dist/src/engines/tex/default-formats.js');
   const { PythonEngine } = await import('./dist/src/engines/python/engine.js');
   const { createLogger } = await import('./dist/src/log.js');
   const { paths } = await import('./dist/src/paths.js');
   const path = await import('node:path');
   const os = await import('node:os');
   const python = new PythonEngine({ workers: 1, queueLimit: 4, timeoutMs: 60000, bundlePath: paths.pythonBundle,
     pythonSources: paths.pythonSources, stylesDir: paths.styles, log: createLogger('warn') });
   await python.start();
   try {
     const cacheDir = path.join(process.env.RST2_CACHE_DIR || path.join(os.homedir(), '.cache', 'rst2'), 'tex-formats-builtin');
     await installDefaultFormats({ python, texDir: paths.texDir, cacheDir, say: (m) => console.error('[formats] ' + m) });
   } finally {
     await python.close();
   }
   })().catch((e) => { console.error(e); process.exit(1); });`;
