/**
 * `meshwork traffic` runs its program as one CommonJS script through V8's code cache
 * (src/cli/cached-script.ts, written by scripts/bundle-cli.mjs; issue 30's start-up). The cache may
 * only save time: a missing, stale or refused cache runs the same code from the text, and the
 * built CLI's output is the unbundled program's, byte for byte. Each case runs in a fresh Node, as
 * the bin does: within one process V8 may find a script in its own compilation cache.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'meshwork-cached-script-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs an ES module snippet in a fresh Node; its stdout, which must be JSON. */
function inFreshNode(code: string): unknown {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout);
}

const loader = JSON.stringify(pathToFileURL(join(dist, 'cli/cached-script.js')).href);

/** Loads the script in a fresh Node; writes its cache afterwards when asked. */
function load(script: string, writeCache = false): { status: string; answer: number; url: string; path: string } {
  return inFreshNode(`
    const { loadCachedScript } = await import(${loader});
    const s = loadCachedScript(new URL(${JSON.stringify(pathToFileURL(script).href)}));
    const { sep } = await s.exports.host();
    if (${writeCache}) s.writeCache();
    process.stdout.write(JSON.stringify({ status: s.status, answer: s.exports.answer, url: s.exports.url, path: sep }));
  `) as { status: string; answer: number; url: string; path: string };
}

describe('a CommonJS script through the code cache', () => {
  const script = join(dir, 'answer.cjs');
  // The two names the bundle uses in place of import.meta.url and import() (scripts/bundle-cli.mjs).
  const source = (answer: number) => `function f() { return ${answer}; }\nmodule.exports = { answer: f(), url: __meshworkChunkUrl, host: () => __meshworkImport('node:path') };\n`;

  it('runs without a cache, then with the cache it wrote; its import() and its URL reach the host', () => {
    writeFileSync(script, source(41));
    expect(load(script, true)).toEqual({ status: 'absent', answer: 41, url: pathToFileURL(script).href, path: '/' });
    expect(load(script)).toMatchObject({ status: 'accepted', answer: 41 });
  });

  it('runs the new text when the script changed to another of the same length (V8 alone would take the old code)', () => {
    writeFileSync(script, source(41));
    load(script, true);
    writeFileSync(script, source(42));
    expect(load(script)).toMatchObject({ status: 'stale', answer: 42 });
  });

  it('compiles from the text when V8 refuses the cache', () => {
    writeFileSync(script, source(7));
    load(script, true);
    const cache = readFileSync(`${script}.cache`);
    const keyEnd = cache.indexOf(0x0a) + 1;
    // Keep the key line (it matches the text); spoil V8's part.
    writeFileSync(`${script}.cache`, Buffer.concat([cache.subarray(0, keyEnd), Buffer.alloc(cache.length - keyEnd, 0x5a)]));
    expect(load(script)).toMatchObject({ status: 'rejected', answer: 7 });
  });
});

describe('the built traffic program', () => {
  it('its cache, written by the build, is taken by this Node', () => {
    const status = inFreshNode(`
      const { loadTrafficProgram } = await import(${JSON.stringify(pathToFileURL(join(dist, 'cli/traffic-program.js')).href)});
      process.stdout.write(JSON.stringify(loadTrafficProgram().status));
    `);
    expect(status).toBe('accepted');
  });

  it('under MESHWORK_DEBUG (source maps on) is loaded by require, so stack traces name src/', () => {
    const loaded = inFreshNode(`
      process.setSourceMapsEnabled(true);
      const { loadTrafficProgram } = await import(${JSON.stringify(pathToFileURL(join(dist, 'cli/traffic-program.js')).href)});
      const program = loadTrafficProgram();
      // No argument list: a TypeError inside the program, as an internal error would be.
      const stack = await program.exports.runProgram(null).then(() => '', (err) => err.stack);
      process.stdout.write(JSON.stringify({ status: program.status, stack }));
    `);
    const { status, stack } = loaded as { status: string; stack: string };
    expect(status).toBe('source-maps');
    expect(stack).toMatch(/^TypeError: /);
    expect(stack).toContain(`(${join(dist, '../src/cli/program.ts')}:`);
  });

  it('prints what the unbundled program prints, byte for byte', () => {
    const config = join(dir, 'torus44.cfg');
    writeFileSync(config, 'topology = torus;\nk = 4;\nn = 2;\nrouting_function = dim_order;\nnum_vcs = 2;\ntraffic = uniform;\ninjection_rate = 0.1;\nsample_period = 200;\n');
    const args = ['traffic', '--booksim-config', config, '--booksim-output'];
    const bin = spawnSync(process.execPath, [join(dist, 'cli/main.js'), ...args], { encoding: 'utf8' });
    const unbundled = spawnSync(process.execPath, ['--input-type=module', '-e', `(await import(${JSON.stringify(pathToFileURL(join(dist, 'cli/program.js')).href)})).runProgram(${JSON.stringify(args)})`], { encoding: 'utf8' });
    expect(bin.status, bin.stderr).toBe(0);
    expect(unbundled.status, unbundled.stderr).toBe(0);
    expect(bin.stdout).toContain('Accepted flit rate average');
    expect(bin.stdout).toBe(unbundled.stdout);
  });
});
