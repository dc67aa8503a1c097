/**
 * `meshwork reproduce all --quick` end to end: it runs, writes the report, and every claim's verdict
 * is pinned here. A claim flipping (reproduced -> not reproduced, or a pending claim silently
 * disappearing) fails CI; when a piece lands and a claim becomes checkable, update its line.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../helpers/cli.js';
import { claimRuleProblem, duplicateSentence, type Claim } from '../../src/report/checklist.js';

/** claim id -> verdict expected from the quick run. */
const EXPECTED: Record<string, string> = {
  // Seed 001: schedules verified; every embodiment timed at flow level (fullmesh:8, 20 Gbps, T0 = 2 µs,
  // each embodiment's own T1, spec §1.4). Ratios 1/(N−1), 1/K, 2/N, K/2, 2× hold at large data; the
  // searched crossovers lie within 2× of 80/4/70/20 kbit, not of the 2nd embodiment's 20 kbit (spec §8).
  '001.correct': 'reproduced',
  '001.p2p.ratio': 'reproduced-under-reading',
  '001.p2p6.ratio': 'reproduced-under-reading',
  '001.mcast3.ratio': 'reproduced-under-reading',
  '001.mcast6.ratio': 'reproduced-under-reading',
  '001.reduce4.ratio': 'reproduced-under-reading',
  '001.reduce6.ratio': 'reproduced-under-reading',
  '001.scatter.ratio': 'reproduced-under-reading',
  // One sentence, one row (issue 27): the packet-level ratios (32 Mbit, N = 8) are each row's
  // evidence beside the flow level's; [0100]'s reduce-or-allreduce sentence is one row.
  // Each threshold sentence by its logic (issue 27): "only from X" (1st 80, 4th 70 kbit) is a
  // threshold, the crossover within 2× of X; "even at X" (2nd 20, 3rd 4, 5th 20 kbit) is a bound,
  // the 1-hop form faster at X itself. Flow and packet level (N = 4, 8; 20, 25 Gbps) are one row's
  // evidence. The 2nd holds everywhere (direct / 1-hop 1.338 flow, 1.281 packet at 20 kbit); the
  // 3rd fails at packet level (0.958 at 4 kbit, N = 8); the 5th holds at 5 of 7 decided points.
  '001.p2p1.threshold': 'reproduced-under-reading',
  '001.p2p2.threshold': 'reproduced-under-reading',
  '001.mcast3.threshold': 'not-reproduced',
  '001.reduce4.threshold': 'reproduced-under-reading',
  '001.reduce5.threshold': 'reproduced-under-reading',
  '001.threshold.order': 'reproduced-under-reading',
  '001.control.example': 'reproduced-under-reading',
  // The unit's choice timed at packet level too: between its model's crossover and packet timing's it
  // picks the slower form, up to 6.7 % (multicast, 3rd embodiment, N = 8, 3 kbit) against 5 %.
  '001.control.choice': 'not-reproduced',
  // Timed workloads (issue 27): with many concurrent 1-to-1 transfers 図42 waits less and finishes
  // sooner than 図21 at every load ([0125]); with periodic multicasts 図21's 3rd-embodiment form
  // (2/N) is slower than 図42's 6th (1/K), so [0126]'s "K at its maximum is faster" fails here.
  '001.control.policies': 'reproduced-under-reading',
  '001.control.periodic': 'not-reproduced',
  '001.fibres': 'reproduced',
  '001.header': 'reproduced',
  '001.tree-latency': 'reproduced',
  // 7th embodiment: fullmesh:8,mult=2, two planes / one 0.500 (flow, 1 Gbit), 0.502 and 0.521 (packet, 32 Mbit).
  '001.plane7': 'reproduced-under-reading',
  // Seed 003 (spec B3–B5): R2/R1 step formulas and the contention audit hold under the reconstructions;
  // Simulated time over the P, S, m sweeps: R2 is not fastest everywhere (chain at P = 64,
  // scatter-allgather at S = 16 or m = 12).
  '003.verified': 'reproduced',
  '003.contention-free': 'reproduced-under-reading',
  '003.r2.steps': 'reproduced-under-reading',
  '003.r1.steps': 'reproduced-under-reading',
  '003.near-bound': 'reproduced-under-reading',
  '003.vs-chain': 'reproduced-under-reading',
  // With a random rank order (10 seeds) the binomial tree does put several transfers on one leaf (issue 10).
  '003.binomial-contention': 'reproduced-under-reading',
  // Claim 1's roles (C3, C4, C7), sink last (C6), send once (C5, read as the intra-switch packet).
  '003.roles': 'reproduced-under-reading',
  '003.sink-last': 'reproduced-under-reading',
  '003.send-once': 'reproduced-under-reading',
  '003.time': 'not-reproduced',
  // Seed 000 (spec §3.7, §4.5, §1.8): correctness and barrier counts; flow level timing; packet level on torus 4x4 (round-robin and age).
  '000.correct': 'reproduced-under-reading',
  '000.barriers.2d': 'reproduced-under-reading',
  '000.barriers.fewer': 'reproduced-under-reading',
  // One sentence, one row (issue 27): [0116]'s embodiment in its claim form (claims 2/6: each block
  // split over the axes, hop-grouped:areas=n) beats the faster FIG. 9 at every torus, size and
  // engine (smallest ratio 1.45, flow 8x8 64 KiB); [0079]'s Example 1 (one area, 2-D) does not
  // (flow 8x8 64 KiB: 0.73).
  '000.faster': 'reproduced-under-reading',
  '000.faster.example1': 'not-reproduced',
  // Packet level follows the schedule's axis-path hints (issue 5): paced 70.7 µs vs unpaced 74.1 µs on
  // torus 4x4. Its robustness says "depends": on FIG. 7's 3-flow line pacing cannot shorten the time.
  '000.pacing': 'reproduced-under-reading',
  // Example 2 (flow level, 4x4x4, 64 KiB, injection one link per NIC): 2,076.9 µs against 6,056.9 (one NIC), 6,103.4 (one area).
  '000.example2.nics': 'reproduced-under-reading',
  '000.arbitration': 'reproduced-under-reading',
  // The background figures (issue 10): FIG. 5 superposition 1, 2, 3, 2, 1 and the B/3 makespan; FIG. 6
  // round-robin split, node 3 finishing at 2.01 transfer times, nodes 1 and 2 at 2.99, 3.00; ¶0042 a
  // cyclic dependency and a packet-level deadlock with one class, none with a dateline class; FIG. 7
  // pacing evens the finish (spread 0.330 -> 0), the sentence it answers ("no waiting on the overlapped
  // route"; the time sentence is 000.pacing's); FIG. 8 link loads 2, 2, 2, 2 against 4, 2, 0, 2.
  '000.fig5.superposition': 'reproduced',
  '000.fig6.band-split': 'reproduced-under-reading',
  '000.deadlock.1d-torus': 'reproduced-under-reading',
  '000.fig7.pacing': 'reproduced-under-reading',
  '000.fig8.uniform-routes': 'reproduced-under-reading',
  // Disturbances, 4x4x4 flow and 4x4 packet: hop-grouped absorbs jitter and OS detours better than
  // FIG. 9, not a start skew. Meshwork's questions (issue 27): the patent never compares skew, jitter
  // or OS noise, and never names age-based arbitration (¶0048 is the prior art's rationale).
  '000.noise.skew': 'not-reproduced',
  '000.noise.jitter': 'reproduced-under-reading',
  '000.noise.os': 'reproduced-under-reading',
  // Seed 002 (spec A3): the 4×4 example and one-buffer memory.
  '002.example.first-swap': 'reproduced-under-reading',
  '002.example.transpose': 'reproduced',
  '002.memory': 'reproduced',
  '002.time': 'not-reproduced',
  // Line 166 as written: the swap combined in the tree hardware beats the same swap with recursive-
  // doubling allreduce on the cores at every n and element on a dedicated tree (issue 10).
  '002.hardware-combining': 'reproduced-under-reading',
  // Seed 004 Table 1 (spec §3.5, §4): tori, fat tree and omega exact; (1,1,1) is the paper's Eq. (6).
  // A rule fitted to the printed number is not a reading (issue 27): the mesh's (a+b)/2 = 32.00 (exact
  // 21.31) and CB/CCC's "Eq. 2/3 at n = 7 plus 1" (exact 10.13, 12.64) are not reproduced, as (2,0,1).
  // Eq. (1) equals BFS everywhere; Eqs. (2), (3), (6) exact over N² pairs except Eq. (6) with C > 0 (spec §3.4).
  '004.table1.2-0-1-mdce.1024': 'not-reproduced',
  '004.table1.1-1-1-mdce.1024': 'reproduced-under-reading',
  '004.table1.c-banyan.1024': 'not-reproduced',
  '004.table1.cube-connected-cycles.1024': 'not-reproduced',
  '004.table1.2d-mesh.1024': 'not-reproduced',
  '004.table1.2d-torus.1024': 'reproduced',
  '004.table1.3d-torus.1024': 'reproduced',
  '004.table1.binary-fat-trees.1024': 'reproduced',
  '004.table1.omega.1024': 'reproduced-under-reading',
  '004.diameter': 'reproduced',
  '004.mean.10': 'reproduced-under-reading',
  '004.mean.01': 'reproduced-under-reading',
  '004.mean.20': 'reproduced-under-reading',
  '004.mean.11': 'not-reproduced',
  // §5 in --quick: a reduced study (every pattern, loads 0.002, 0.01, 0.05, 500 clocks, pipelined
  // routers). 1/4 partition CCCB 37.1 vs 3DT 33.1 clocks (+12.2%), as the full run's +11.2%. The hot
  // spot's ordering holds at no load (0.37, 0.38, 0.39), as in the full run (2 of 6 loads). FT and
  // MIN keep at least 89% of the best's packets everywhere but mesh emulation at 0.05 (78.9%), so
  // tolerance holds here, unlike the full run (hot spot at 0.05 over 10,000 clocks: FT 62% of 3DT);
  // the claim's text says it differs. Mesh emulation at 0.05: 2DT 27,776, (CB)² 24,419, CB 18,596
  // packets. CCCB 19,808 packets and 40.9 clocks against (CB)² 17,913 and 43.4.
  '004.sim.mdce-latency': 'not-reproduced',
  '004.sim.indirect-tolerant': 'reproduced-under-reading',
  '004.sim.hotspot': 'not-reproduced',
  '004.sim.mesh-emulation': 'reproduced-under-reading',
  '004.appendix-a.ccc-combination': 'reproduced-under-reading',
  // Appendix A: the paper argues about routes (a skipped position costs a lap, "on average over all"),
  // so the document row is judged on self-routed paths, longer for every n and delta >= 2 (issue 27);
  // as a graph property (BFS, Meshwork's question) delta = 2 beats c-Banyan at odd n (6.0125 vs
  // 6.0313). Fig. 12's simulation: every delta >= 2 slower (44.0, 46.5, 49.1 vs 38.6 clocks).
  '004.appendix-a.distance': 'reproduced-under-reading',
  '004.appendix-a.graph-distance': 'not-reproduced',
  '004.appendix-a.simulation': 'reproduced-under-reading',
  // The circular omega: the dce reading is c-Banyan relabelled; the literal omega reading is another network.
  '004.comega.readings': 'reproduced-under-reading',
  // P = 2 under the paper's link-width rule: throughput 0.970 and 0.895 of P = 1 ((2,0) and (1,1), n = 3).
  '004.parallel-links': 'not-reproduced',
};

/** Questions the documents never ask (issue 10): reported apart, never counted. */
const MESHWORK_QUESTIONS = ['000.arbitration', '000.noise.skew', '000.noise.jitter', '000.noise.os', '001.threshold.order', '002.time', '003.r2.steps', '003.r1.steps', '003.near-bound', '003.vs-chain', '003.binomial-contention', '003.time', '004.appendix-a.graph-distance', '004.comega.readings', '004.parallel-links'];

interface ResultsJson {
  format: string;
  version: number;
  quick: boolean;
  summary: Record<string, number>;
  seeds: Array<{ id: string; summary: Record<string, number>; meshworkSummary: Record<string, number>; claims: Claim[]; plots: Array<{ file: string }> }>;
}

describe('meshwork reproduce all --quick', () => {
  let dir: string;
  let r: CliResult;
  let results: ResultsJson;

  // Seed 004's reduced §5 study makes this about 56 s of CPU: 3 min 18 s wall at load 10–12 on the shared 2-core machine.
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'meshwork-quick-'));
    r = runCli(['reproduce', 'all', '--quick', '--out', join(dir, 'out')], { timeoutMs: 600_000 });
    results = JSON.parse(readFileSync(join(dir, 'out', 'results.json'), 'utf8')) as ResultsJson;
  }, 600_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs cleanly and prints every seed checklist and the report path', () => {
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    for (const id of ['000', '001', '002', '003', '004']) expect(r.stdout).toContain(`== Seed ${id}:`);
    expect(r.stdout.trim().split('\n').at(-1)).toBe(`report: ${join(dir, 'out', 'report.html')}`);
  });

  it('writes a versioned results.json, report.html and every plot it lists', () => {
    expect(results.format).toBe('meshwork-reproduce');
    expect(results.version).toBe(1);
    expect(results.quick).toBe(true);
    const files = readdirSync(join(dir, 'out'), { recursive: true }).map(String);
    expect(files).toContain('report.html');
    for (const s of results.seeds) for (const p of s.plots) expect(files).toContain(p.file);
  });

  // Issue 16 item 6: 000-barriers.svg had eight zero-height bars. Every plot must draw a visible mark:
  // a bar, line, point or heatmap cell whose path has a non-zero extent in both directions or a length.
  it('every plot draws marks with a visible size', () => {
    for (const s of results.seeds) {
      for (const p of s.plots) {
        const svg = readFileSync(join(dir, 'out', p.file), 'utf8');
        // Vega wraps each mark in <g class="mark-TYPE role-mark ...">; rects are paths "Mx,yhWvH...".
        const groups = [...svg.matchAll(/class="mark-(\w+) role-mark[^"]*"[^>]*>(.*?)<\/g>/gs)];
        const visible = groups.flatMap(([, type, body]) =>
          [...body.matchAll(/\sd="([^"]+)"/g)].filter(([, d]) => {
            if (type !== 'rect') return true;
            const m = /h(-?[\d.e]+)v(-?[\d.e]+)/.exec(d);
            return m !== null && Number(m[1]) !== 0 && Number(m[2]) !== 0;
          }),
        );
        const marks = groups;
        expect(visible.length, `${p.file}: ${marks.length} marks, none visible`).toBeGreaterThan(0);
      }
    }
  });

  it('labels as Meshwork\'s own questions exactly those the documents never ask, and leaves them out of the totals', () => {
    const claims = results.seeds.flatMap((s) => s.claims);
    expect(claims.filter((c) => c.source === 'meshwork').map((c) => c.id)).toEqual(MESHWORK_QUESTIONS);
    expect(claims.every((c) => c.source === 'document' || c.source === 'meshwork')).toBe(true);
    for (const s of results.seeds) {
      const total = Object.values(s.summary).reduce((a, b) => a + b, 0);
      expect(total, `seed ${s.id}`).toBe(s.claims.filter((c) => c.source === 'document').length);
    }
  });

  // Issue 27, rules 1–3 over every seed's results.json: a declared form on every row; on every document
  // row its sentence in the original with location and English; no sentence quoted by two rows.
  it('keeps one row per sentence: forms, quotes and locations on every row, no sentence twice', () => {
    for (const s of results.seeds) {
      for (const c of s.claims) expect(claimRuleProblem(c), c.id).toBeUndefined();
      expect(duplicateSentence(s.claims), `seed ${s.id}`).toBeUndefined();
    }
    const documentRows = results.seeds.flatMap((s) => s.claims.filter((c) => c.source === 'document'));
    expect(Object.values(results.summary).reduce((a, b) => a + b, 0)).toBe(documentRows.length);
    // No document row re-times another's sentence (the old 001 *.packet rows, 000's per-torus rows).
    expect(documentRows.filter((c) => /\.packet(\.|$)/.test(c.id))).toEqual([]);
  });

  // Issue 27's Why cases: each new verdict with the reason the report gives.
  it('states the reason of every verdict issue 27 moved', () => {
    const claim = (id: string) => results.seeds.flatMap((s) => s.claims).find((c) => c.id === id)!;
    expect(claim('004.table1.2d-mesh.1024').why).toMatch(/printed value is not derivable as a mean distance; exact is 21\.3125/);
    expect(claim('004.table1.c-banyan.1024').why).toMatch(/not derivable.*exact is 10\.1348/);
    expect(claim('004.appendix-a.distance').reading).toMatch(/routed paths/);
    expect(claim('004.sim.mdce-latency').robustness?.status).toBe('depends');
    expect(claim('004.sim.mdce-latency').robustness?.alternatives.join(' ')).toMatch(/torus:16x8x8 \(axis order\): holds/);
    expect(claim('004.sim.mesh-emulation').robustness?.alternatives.join(' ')).toMatch(/wrap-around address grid/);
    expect(claim('004.sim.hotspot').robustness?.alternatives.join(' ')).toMatch(/saturated loads only/);
    expect(claim('000.pacing').robustness?.status).toBe('depends');
    expect(claim('002.hardware-combining').reading).toMatch(/chosen reading.*excludes/);
    expect(claim('001.p2p2.threshold').form).toBe('bound');
    expect(claim('001.p2p1.threshold').form).toBe('threshold');
    expect(claim('001.mcast3.threshold').why).toMatch(/not faster at 4\.00 kbit at packet N=8, 20 Gbps/);
    expect(claim('000.faster').evidence?.rows.some((r) => r[0] === 'packet' && r[1] === '4x4' && r[2] === 16384)).toBe(true);
    expect(claim('000.faster.example1').why).toMatch(/FIG\. 9 is as fast or faster at flow 8x8, 65536 B/);
    expect(claim('001.control.periodic').why).toMatch(/3rd-embodiment form/);
  });

  it('gives every claim its pinned verdict', () => {
    const got = Object.fromEntries(results.seeds.flatMap((s) => s.claims.map((c) => [c.id, c.verdict])));
    expect(got).toEqual(EXPECTED);
  });
});
