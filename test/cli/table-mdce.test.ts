// `meshwork table mdce` end to end (seed 004 Table 1, spec §4); the heavy 524,288-PE rows are in bench/.
import { describe, expect, it } from 'vitest';
import { expectOneLineError, runCli } from '../helpers/cli.js';

describe('meshwork table mdce', () => {
  it('prints Table 1 at 1,024 PEs as JSON with paper, exact, formula and notes', () => {
    const r = runCli(['table', 'mdce', '--size', '1024', '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.sizes).toEqual([1024]);
    expect(out.rows).toHaveLength(9);
    const cccb = out.rows.find((row: { label: string }) => row.label === 'CCCB');
    expect(cccb.paper).toBe(6.44);
    expect(cccb.exact.meanWithSelf).toBeCloseTo(6.8359375, 10); // spec §3.4 exact BFS
    expect(cccb.formula.value).toBe(6.4375); // Eq. (6)
    expect(cccb.notes[0]).toMatch(/drops CCC hops/);
  });
  it('puts both readings of the circular omega beside the table: BFS against the closed form and Eq. (2)', () => {
    const out = JSON.parse(runCli(['table', 'mdce', '--size', '1024', '--json']).stdout);
    const [omegaReading, dceReading] = out.beside;
    // docs/seed004.md: mean (N² pairs) = (L−1)/2 + Σ_{d<k} (1 − 2^(d−k)); L = 8, k = 7 gives 9.5078125, diameter 2m − 2 = 14.
    expect(omegaReading).toMatchObject({ pes: 1024, config: '8×128', paper: null, exact: { spec: 'comega:8', diameter: 14 } });
    expect(omegaReading.exact.meanWithSelf).toBeCloseTo(9.5078125, 10);
    expect(omegaReading.formula.value).toBeCloseTo(omegaReading.exact.meanWithSelf, 12);
    // The dce reading is c-Banyan n = 7: Eq. (2) = 3(n−1)/2 + 2^−n = 9.0078125, diameter 2n − 1 = 13.
    expect(dceReading).toMatchObject({ pes: 896, exact: { spec: 'comega:7,reading=dce', diameter: 13 } });
    expect(dceReading.exact.meanWithSelf).toBeCloseTo(9 + 2 ** -7, 10);
  });
  it('prints a readable table with numbered notes', () => {
    const r = runCli(['table', 'mdce', '--size', '1024']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\(2,0,1\)-MDCE \(\(CB\)²\)\s+3\+3\s+1024\s+4×16×16\s+8\.15\s+7\.2930/);
    expect(r.stdout).toMatch(/\[1\] likely error in the paper's \(2,0,1\) row/);
  });
  it('refuses a bad size or table name with one line and exit code 2', () => {
    expect(expectOneLineError(runCli(['table', 'mdce', '--size', '2048']))).toMatch(/size: got "2048"; accepted: 1024, 524288 or all/);
    expect(expectOneLineError(runCli(['table', 'nosuch']))).toMatch(/table: got "nosuch"/);
    expect(expectOneLineError(runCli(['table', 'mdce', '--extra-stage', 'none']))).toMatch(/extra-stage: got "none"; accepted: a or b/);
    expect(expectOneLineError(runCli(['topo', 'mdce:B=0,C=0,n=4']))).toMatch(/topology\.B: .*B \+ C >= 1/);
    expect(expectOneLineError(runCli(['topo', 'mdce:B=2,C=2,n=8']))).toMatch(/16777216 nodes/);
  });
});
