/** Worker thread that makes a memory snapshot (see snapshot.ts). */
import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';

import { bootPlain, type BootPaths } from './boot.js';

const { paths, out } = workerData as { paths: BootPaths; out: string };

try {
  const py = await bootPlain(paths, { makeSnapshot: true });
  // Warm every operation so its lazily imported modules are in the snapshot.
  py.runPython(`
import json
_warm = 'Warm up\\n=======\\n\\n*ok* \`\`x\`\`\\n\\n.. code:: python\\n\\n   x = 1\\n'
for _op in ('html', 'latex', 'check'):
    _r = json.loads(rst2.api.handle(_op, _warm, '{}'))
    assert _r['ok'], _r
del _warm, _op, _r
import rst2.scripts
rst2.scripts.forget_table()
if '' in sys.path:
    sys.path.remove('')  # loadPyodide adds it again on load
import gc; gc.collect()
`);
  // No interrupt buffer and no JS object held by Python before this point.
  fs.writeFileSync(out, py.makeMemorySnapshot());
  parentPort!.postMessage({ ok: true });
} catch (err) {
  parentPort!.postMessage({ ok: false, message: err instanceof Error ? err.message.slice(0, 2000) : String(err) });
}
