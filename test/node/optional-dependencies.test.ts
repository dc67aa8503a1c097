/**
 * Issue 28 item 22: a library user installing the tarball got an install-script warning (`prepare`)
 * and 136 MB of dependencies (DuckDB, Vega, BullMQ, ioredis) they may never use. The heavy ones are
 * optional peer dependencies loaded on use; a command that needs a missing one says so in one line
 * (exit 4). The missing package is simulated with a module resolve hook that refuses it, run on the
 * built CLI. Measured once by hand: `npm pack` and `npm install ../meshwork-0.1.0.tgz` in an empty
 * project: 31 packages, 20 MB of node_modules, no install-script warning (docs/outputs.md).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/sweep.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const MAIN = join(root, 'dist/cli/main.js');
const HEAVY = ['@duckdb/node-api', 'bullmq', 'vega', 'vega-lite', 'ioredis'];
const dir = tempDir('optional');

/** Runs the built CLI with `hidden` packages unresolvable, as in a project that did not install them. */
function withoutPackages(hidden: string[], args: string[]): { code: number; stderr: string } {
  const hook = `export async function resolve(spec, ctx, next) {
  if (${JSON.stringify(hidden)}.some((p) => spec === p || spec.startsWith(p + '/'))) {
    const e = new Error("Cannot find package '" + spec + "' imported from " + ctx.parentURL);
    e.code = 'ERR_MODULE_NOT_FOUND';
    throw e;
  }
  return next(spec, ctx);
}`;
  const register = join(dir, `hide-${hidden.length}.mjs`);
  writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});\n`);
  const r = spawnSync(process.execPath, ['--import', register, MAIN, ...args], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status ?? -1, stderr: r.stderr };
}

describe('optional dependencies (issue 28 item 22)', () => {
  it('package.json: no install-time script; the heavy packages are optional peers, not dependencies', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    for (const script of ['preinstall', 'install', 'postinstall', 'prepare']) expect(pkg.scripts[script], script).toBeUndefined();
    for (const name of HEAVY) expect(pkg.dependencies[name], name).toBeUndefined();
    for (const name of ['@duckdb/node-api', 'bullmq', 'vega', 'vega-lite']) expect(pkg.peerDependenciesMeta[name], name).toEqual({ optional: true });
  });

  it('without DuckDB, a sweep command says which package to install, in one line, exit 4', () => {
    const r = withoutPackages(['@duckdb/node-api'], ['sweep', 'status', '--store', 'x.duckdb']);
    expect(r.code).toBe(4);
    expect(r.stderr).toBe('meshwork: error: the sweep store needs the optional package @duckdb/node-api, which is not installed: npm install @duckdb/node-api\n');
  });

  it('without DuckDB, sweep run says the same line (it was an internal error, exit 1), and sweep worker, which stores nothing, does not need DuckDB', () => {
    writeFileSync(join(dir, 'one.yaml'), 'kind: topo\naxes:\n  topology: [ring:4]\n');
    const r = withoutPackages(['@duckdb/node-api'], ['sweep', 'run', 'one.yaml', '--store', 'x.duckdb']);
    expect(r.code).toBe(4);
    expect(r.stderr).toBe('meshwork: error: the sweep store needs the optional package @duckdb/node-api, which is not installed: npm install @duckdb/node-api\n');
    // A worker stops at the queue URL it cannot parse, after loading the queue module: no DuckDB asked for.
    const worker = withoutPackages(['@duckdb/node-api'], ['sweep', 'worker', '--queue', 'http://x']);
    expect(worker.code).toBe(2);
    expect(worker.stderr).not.toMatch(/duckdb|internal error/i);
  });

  it('without Vega, a plot says so; what needs no plot still runs', () => {
    const plot = withoutPackages(['vega', 'vega-lite'], ['traffic', '--topology', 'ring:4', '--pattern', 'uniform', '--rates', '0.1', '--horizon', '200', '--plot', 'p.svg']);
    expect(plot.code).toBe(4);
    expect(plot.stderr).toBe('meshwork: error: drawing plots needs the optional packages vega and vega-lite, which are not installed: npm install vega vega-lite\n');
    expect(withoutPackages(HEAVY, ['topo', 'torus:4x4']).code).toBe(0);
    expect(withoutPackages(HEAVY, ['run', '--topology', 'torus:4x4', '--algorithm', 'pairwise', '--size', '1KiB']).code).toBe(0);
  });

  it('the library entry imports none of them', () => {
    const script = `const m = await import(${JSON.stringify(join(root, 'dist/index.js'))}); if (typeof m.buildTopology !== 'function') process.exit(1);`;
    const hookRun = withoutPackages(HEAVY, ['--version']);
    expect(hookRun.code).toBe(0);
    const r = spawnSync(process.execPath, ['--import', join(dir, `hide-${HEAVY.length}.mjs`), '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
  });
});
