import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const WORKER = fileURLToPath(new URL('../../dist/sweep/pool-worker.js', import.meta.url));
const requireEsm = (process.features as { require_module?: boolean }).require_module === true;

describe('the pool thread module (built)', () => {
  // piscina require()s its task file first. With top-level await in the graph, Node 20.19+ throws
  // there and piscina import()s it, and a second require racing that import aborted `meshwork sweep
  // run` with "v8::Module::IsGraphAsync must be used on an instantiated module" (seen in CI).
  it.runIf(requireEsm)('loads with require(): no top-level await in its module graph', () => {
    const out = execFileSync(process.execPath, ['-e', `const m = require(${JSON.stringify(WORKER)}); process.stdout.write(typeof m.default)`], { encoding: 'utf8' });
    expect(out).toBe('function');
  });
});
