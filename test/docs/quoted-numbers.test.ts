/**
 * Issue 28 items 20 and 21: numbers quoted in README and docs come from running the command. Each
 * case reads the quoted figure out of the document's own line, runs that command through the built
 * CLI and compares: a change in either the output or the text fails here.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/sweep.js';
import { buildTopology } from '../../src/topology/registry.js';
import { simulateCollective } from '../../src/sim/simulate.js';
import { DIFFERENCES, caseKey, cases } from '../sim/program/agreement-cases.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const topologyDoc = readFileSync(join(root, 'docs/topology.md'), 'utf8');

/** The README line that holds `needle`, with its shell continuation line before it when there is one. */
function readmeCommand(needle: string): { args: string[]; comment: string } {
  const lines = readme.split('\n');
  const i = lines.findIndex((l) => l.includes(needle));
  expect(i, needle).toBeGreaterThanOrEqual(0);
  const start = lines[i - 1]?.trimEnd().endsWith('\\') ? i - 1 : i;
  const text = lines.slice(start, i + 1).map((l) => l.replace(/\\$/, '')).join(' ');
  const [command, comment] = text.split('#');
  const args = command.trim().split(/\s+/).slice(2); // drop "npx meshwork"
  return { args, comment: comment.trim() };
}

function line(stdout: string, label: string): string {
  return stdout.split('\n').find((l) => l.startsWith(label)) ?? '';
}

describe('numbers quoted in the docs are what the commands print', () => {
  it('README: slimfly:q=5 prints diameter 3, as its comment says', () => {
    const { args, comment } = readmeCommand('topo slimfly:q=5');
    const quoted = /diameter (\d+)/.exec(comment)![1];
    const r = runCli(args);
    expect(line(r.stdout, 'diameter')).toBe(`diameter       ${quoted}`);
    expect(comment).toContain('50 routers, degree 7');
    expect(r.stdout).toContain('nodes          250 (200 terminals, 50 switches)');
  });

  it('README: the chain broadcast at packet level, at flow level (fifo) and with shared injection', () => {
    const { args, comment } = readmeCommand('--algorithm chain --size 256KiB --engine packet');
    const [packet, fifo, shared] = [...comment.matchAll(/([\d.]+) ms/g)].map((m) => m[1]);
    expect(line(runCli(args).stdout, 'makespan')).toBe(`makespan        ${packet}ms`);
    const flow = args.filter((a, i) => a !== '--engine' && args[i - 1] !== '--engine');
    expect(line(runCli([...flow, '--injection-order', 'fifo']).stdout, 'makespan')).toBe(`makespan        ${fifo}ms`);
    expect(line(runCli([...flow, '--injection-order', 'shared']).stdout, 'makespan')).toBe(`makespan        ${shared}ms`);
  });

  it('docs/topology.md: comega works and its quoted counts are what topo prints', () => {
    expect(topologyDoc).not.toMatch(/circular omega: not provided/);
    const m = /`npx meshwork topo comega:3` prints (\d+) nodes and (\d+) channels/.exec(topologyDoc)!;
    const r = runCli(['topo', 'comega:3']);
    expect(r.stdout).toContain(`nodes          ${m[1]} (`);
    expect(r.stdout).toContain(`channels       ${m[2]}\n`);
  });

  it('README: the sweep file it names is in examples/ and runs (20 points)', () => {
    const { args } = readmeCommand('sweep run examples/');
    const file = args[2];
    expect(existsSync(join(root, file)), file).toBe(true);
    const store = join(tempDir('readme-sweep'), 'r.duckdb');
    const r = runCli([...args.slice(0, 3), '--store', store, '--log', 'none'], { cwd: root });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/done: 20\/20 points .*0 failed/);
  });

  it("docs/workloads.md and docs/validation.md: ASTRA-sim's regression case, Meshwork's 117,790 ns with ASTRA-sim's parameters and 41,320 ns with its defaults", () => {
    const workloadsDoc = readFileSync(join(root, 'docs/workloads.md'), 'utf8');
    const validationDoc = readFileSync(join(root, 'docs/validation.md'), 'utf8');
    const astra = Number(/Meshwork \*\*([\d,]+) ns\*\* with\nASTRA-sim's own parameters/.exec(workloadsDoc)![1].replace(/,/g, ''));
    const plain = Number(/defaults \(the buffer in one piece, γ = 0\) give ([\d,]+) ns/.exec(workloadsDoc)![1].replace(/,/g, ''));
    // The reconciliation (docs/validation.md, test/sim/library.test.ts): 4 serial chunks of 256 KiB, α = 10 ns, γ = 3 / 50 GB/s.
    const topology = buildTopology('ring:8,bw=50GiB/s,lat=500ns');
    const chunk = simulateCollective({ topology, collective: 'allreduce', algorithm: 'ring', size: (1 << 20) / 4 }, { model: { alpha: 10e-9, gammaReduce: 3 / 50e9 } });
    expect(Math.round((4 * chunk.makespan_s * 1e9) / 10) * 10).toBe(astra);
    const whole = simulateCollective({ topology, collective: 'allreduce', algorithm: 'ring', size: 1 << 20 }, { model: { alpha: 10e-9 } });
    expect(Math.round((whole.makespan_s * 1e9) / 10) * 10).toBe(plain);
    expect(validationDoc).toContain(`**${astra.toLocaleString('en-US')} ns**`);
    expect(validationDoc).toContain(`both pins give ${plain.toLocaleString('en-US')} ns`);
  });

  it('docs/flow.md: the agreement matrix count is its cases and its named differences', () => {
    const flowDoc = readFileSync(join(root, 'docs/flow.md'), 'utf8');
    const m = /(\d+) of (\d+) cases\nagree within 10 %[^]*?The other (\d+) are named and pinned/.exec(flowDoc)!;
    const all = cases();
    const named = all.filter((c) => DIFFERENCES[caseKey(c)] !== undefined).length;
    expect([Number(m[1]), Number(m[2]), Number(m[3])]).toEqual([all.length - named, all.length, named]);
  });

  it('README says the tests need ../shared beside the checkout', () => {
    expect(readme).toMatch(/tests read [^.]*`\.\.\/shared\/`/);
  });
});
