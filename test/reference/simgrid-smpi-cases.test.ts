/**
 * Issue 23's SimGrid SMPI reference cases (test/reference/simgrid/smpi-cases/*.json, made by
 * `generate.sh smpi-cases` with SimGrid 3.32's smpirun): SMPI algorithm names run as Meshwork aliases
 * (so each case checks the mapping too), the SMPI variants (pre-posted ring receives, scatter_gather,
 * NTSL, ompi_binomial, basic_linear), `--barriers`, SMPI's default barrier, FLAT clusters with and
 * without a backbone, a hostfile that uses 56 of the 64 hosts, and SimGrid's own FAT_TREE and DRAGONFLY
 * shapes (generalised fat trees, multi-chassis dragonflies, loaded from their XML), and SMPI's selectors
 * `default`, `ompi` and `mpich` (each row runs what the selector chose at its size), at 64 ranks and at 12, 16,
 * 27, 45, 48, 96 and 128 (other bands of the selectors; the non-powers of two run the algorithms' folds). Target: within 2 %; a case outside
 * it is pinned at its measured error with the cause (docs/flow.md, "SimGrid users").
 */
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { buildSchedule, flowPreset, parseAlltoallvSizes, parseCollective, simulate } from '../../src/index.js';
import { loadMapping, loadTopology } from '../../src/node/index.js';

const DIR = 'test/reference/simgrid';
const TOPOLOGY: Record<string, string> = {
  'torus-4x4x4': 'torus:4x4x4,bw=10GBps,lat=100ns',
  'fattree-4-3': 'fattree:k=4,levels=3,bw=10GBps,lat=100ns',
  'dragonfly-4x4x4': `file:${DIR}/platforms/dragonfly-4x4x4.json`,
  'flat-16': `simgrid:${DIR}/platforms/flat-16.xml`,
  'flat-16-backbone': `simgrid:${DIR}/platforms/flat-16-backbone.xml`,
  'torus-3x3x3': 'torus:3x3x3,bw=10GBps,lat=100ns',
  'torus-5x3x3': 'torus:5x3x3,bw=10GBps,lat=100ns',
  'torus-4x4x3': 'torus:4x4x3,bw=10GBps,lat=100ns',
  'torus-4x4x6': 'torus:4x4x6,bw=10GBps,lat=100ns',
};
/** The hostfiles of generate.sh: every host, all but hosts 3, 10, ..., 52 (56 ranks), or node-0 and node-1 (2 ranks). */
const HOSTS: Record<string, string | undefined> = { all: undefined, skip8: `${DIR}/platforms/hosts-skip8.txt`, first2: `${DIR}/platforms/hosts-first2.txt` };
const TARGET = 2;
const PIN_TOLERANCE = 0.5;

/**
 * Cases outside 2 %, at their measured error, with the cause: none now. The dragonfly bcast with
 * --barriers at 1 KiB, once −3.7 % (the first barrier's 63 zero-byte messages queue their 16-byte
 * envelopes on the root's one host link), is within 0.1 % since the preset sends SMPI's envelope
 * (envelopeBytes 16). rab_rdb on 56 ranks at 64 KiB (−4.9 %), the ring allreduce on SHARED links at
 * 64 KiB (−7.4 %) and the ring allgather under limiters at 1 KiB (−4.5 %) are within 1.3 % since a
 * sendrecv's send below 64 KiB is detached, as in SMPI.
 */
/**
 * SMPI's default barrier on a FLAT cluster (ompi_basic_linear, 0.45 µs): the 10 ns of SMPI's `MPI_Wtime`
 * (smpi/wtime), which every smpirun makespan includes and Meshwork does not model, is 2.2 % of it.
 */
/**
 * The impi allgather on 45 ranks at 16 KiB blocks runs init_smp, then SMPI's rdb on 32 + 13 ranks. SimGrid's
 * CM02 updates its sharing lazily by default (network/optim:Lazy), and there it oversubscribes a link: at the
 * rdb's second step on torus-5x3x3, 30 -> 28 keeps 5 GB/s of the 10 GB/s link 33_to_34_DOWN while 34 -> 32,
 * out of its latency phase, runs on it at 10 GB/s. With network/optim:Full smpirun gives Meshwork's max-min
 * figures (the `*-optim-full` cases, within 0.05 %): the pin is Lazy's.
 */
const PINNED: Record<string, [number, 'envelope' | 'wtime' | 'lazy']> = {
  'flat-12-barrier-default 0': [-2.25, 'wtime'],
  'flat-16-barrier-default 0': [-2.18, 'wtime'],
  'torus-5x3x3-smp-allgather-impi 16384': [4.87, 'lazy'],
  // Two ranks under one fat-tree edge switch (0.2-0.4 µs): the same 10 ns of MPI_Wtime, exactly each row's error.
  'fattree-4-3-bc-barrier-ompi_two_procs 0': [-4.73, 'wtime'],
  'fattree-4-3-bc-bcast-ompi-2ranks 16': [-4.69, 'wtime'],
  'fattree-4-3-bc-bcast-ompi-2ranks 128': [-4.46, 'wtime'],
  'fattree-4-3-bc-bcast-ompi-2ranks 300': [-4.14, 'wtime'],
  'fattree-4-3-bc-bcast-ompi-2ranks 2048': [-2.4, 'wtime'],
};

interface SmpiCase {
  simgrid: string;
  platform: string;
  ranks: number;
  hosts: string;
  config: string;
  smpi: { collective: string; algorithm: string; barriers: boolean };
  meshwork: { collective: string; algorithm: string };
  rows: Array<{ size: number; makespan_s: number }>;
}

const cases = readdirSync(`${DIR}/smpi-cases`)
  .sort()
  .map((f) => ({ name: f.replace(/\.json$/, ''), c: JSON.parse(readFileSync(`${DIR}/smpi-cases/${f}`, 'utf8')) as SmpiCase }));
const preset = flowPreset('simgrid');

/** Meshwork's makespan for one case row: the SMPI name as the algorithm, the preset's model. */
export function smpiCaseMakespan(c: SmpiCase, size: number): number {
  const platform = c.platform.replace(/^platforms\/|\.xml$/g, '');
  // Platforms without a Meshwork spec of their own load from their SimGrid XML (simgrid:PATH).
  const base = loadTopology(TOPOLOGY[platform] ?? `simgrid:${DIR}/platforms/${platform}.xml`);
  const hostfile = HOSTS[c.hosts];
  const topology = hostfile ? loadMapping(base, hostfile) : base;
  const collective = parseCollective(c.meshwork.collective);
  // alltoallv: generate.sh's size matrix (the same as --sizes random:max=128KiB,seed=7).
  const sizes = collective === 'alltoallv' ? parseAlltoallvSizes(readFileSync(`${DIR}/platforms/alltoallv-64-random.txt`, 'utf8'), topology.numEndpoints) : undefined;
  const schedule = buildSchedule({ collective, algorithm: c.meshwork.algorithm, topology, size, sizes });
  return simulate({ topology, schedule, routingOptions: preset.routing, model: preset.model, barriers: c.smpi.barriers }).makespan_s;
}

describe("issue 23's SMPI cases: aliases, variants, --barriers, FLAT clusters, hostfile subsets", () => {
  it('covers every feature: each variant, barriers, the default barrier, FLAT clusters with and without backbone, a 56-host hostfile', () => {
    expect(cases.every(({ c }) => c.simgrid === 'SimGrid version 3.32')).toBe(true);
    const algorithms = new Set(cases.map(({ c }) => c.smpi.algorithm));
    for (const a of ['basic_linear', 'NTSLR_NB', 'ompi_ring', 'scatter_gather', 'NTSL', 'ompi_binomial', 'rab_rdb', 'ompi_basic_linear', '-']) expect(algorithms.has(a), a).toBe(true);
    expect(cases.some(({ c }) => c.smpi.collective === 'alltoallv')).toBe(true);
    expect(cases.some(({ c }) => c.smpi.barriers)).toBe(true);
    expect(cases.some(({ c }) => c.hosts === 'skip8' && c.ranks === 56)).toBe(true);
    expect(cases.some(({ c }) => c.platform.includes('flat-16-backbone'))).toBe(true);
    // SimGrid's own fat trees (parallel links, three levels, 2:1 oversubscribed, 2;16,8;1,16;1,1) and
    // multi-chassis dragonflies (several links per connection), each with at least two collectives.
    // SMPI's selectors (default, ompi, mpich): what an SMPI user gets without naming an algorithm,
    // on the torus and the fat tree, at the sizes where each switches algorithm.
    for (const selector of ['default', 'ompi', 'mpich']) {
      for (const platform of ['torus-4x4x4', 'fattree-4-3']) {
        const collectives = new Set(cases.filter(({ c }) => c.smpi.algorithm === selector && c.platform === `platforms/${platform}.xml`).map(({ c }) => c.smpi.collective));
        expect(collectives.size, `${selector} on ${platform}`).toBeGreaterThanOrEqual(selector === 'mpich' ? 3 : 6);
      }
    }
    // The selectors at other rank counts: 12 and 16 (FLAT clusters), 27 and 45 (odd: tori 3x3x3 and
    // 5x3x3), 48 and 96 (tori 4x4x3, 4x4x6), 128 (fattree-2-16-8), every collective Meshwork maps, each selector.
    for (const [platform, ranks] of [['flat-12', 12], ['flat-16', 16], ['torus-3x3x3', 27], ['torus-5x3x3', 45], ['torus-4x4x3', 48], ['torus-4x4x6', 96], ['fattree-2-16-8', 128]] as const) {
      const mine = cases.filter(({ c }) => c.platform === `platforms/${platform}.xml` && ['default', 'ompi', 'mpich'].includes(c.smpi.algorithm));
      expect(mine.every(({ c }) => c.ranks === ranks)).toBe(true);
      for (const selector of ['default', 'ompi', 'mpich']) {
        const collectives = new Set(mine.filter(({ c }) => c.smpi.algorithm === selector).map(({ c }) => c.smpi.collective));
        // (Above 64 ranks the default alltoall, which is ompi's, is not run again; the ompi bcast there is refused.)
        expect(collectives.size, `${selector} on ${platform}`).toBeGreaterThanOrEqual(ranks > 64 ? { default: 8, ompi: 8, mpich: 6 }[selector]! : { default: 9, ompi: 9, mpich: 5 }[selector]!);
      }
    }
    for (const platform of ['fattree-2-16-8', 'fattree-2-4-4-par2', 'fattree-3-4-2-4', 'fattree-2-8-8-taper', 'dragonfly-3x4x5x2', 'dragonfly-2x2x4x4', 'dragonfly-4x2x4x2']) {
      expect(new Set(cases.filter(({ c }) => c.platform === `platforms/${platform}.xml`).map(({ c }) => c.smpi.collective)).size, platform).toBeGreaterThanOrEqual(2);
    }
  });

  it("covers SMPI's SMP algorithms on one rank per host: mpich's allreduce, reduce, bcast and reduce_scatter (mpich_rdb), ompi's knomial bcast, the mvapich2 and impi selectors on 16 to 64 ranks", () => {
    const smp = cases.filter(({ name }) => name.includes('-smp-'));
    for (const platform of ['torus-4x4x4', 'fattree-4-3', 'flat-16', 'torus-3x3x3', 'torus-5x3x3', 'torus-4x4x3']) {
      const mine = smp.filter(({ c }) => c.platform === `platforms/${platform}.xml`).map(({ c }) => `${c.smpi.collective} ${c.smpi.algorithm}`);
      for (const choice of ['allreduce mpich', 'reduce mpich', 'bcast mpich', 'reduce_scatter mpich', 'bcast ompi']) expect(mine, platform).toContain(choice);
    }
    for (const name of ['SMP_binomial', 'mvapich2_two_level', 'mpich_rdb', 'mvapich2_knomial_intra_node']) expect(smp.some(({ c }) => c.smpi.algorithm === name), name).toBe(true);
    // The mvapich2 selector: every collective Meshwork has, on each platform (alltoall from 17 ranks: bruck at 1 KiB).
    for (const platform of ['torus-4x4x4', 'fattree-4-3', 'flat-16', 'torus-3x3x3', 'torus-5x3x3', 'torus-4x4x3']) {
      const mine = new Set(smp.filter(({ c }) => c.platform === `platforms/${platform}.xml` && c.smpi.algorithm === 'mvapich2').map(({ c }) => c.smpi.collective));
      expect(mine.size, platform).toBe(platform === 'flat-16' ? 8 : 9);
    }
    // The impi selector: allreduce on the six platforms, its other collectives on torus-4x4x4, flat-16 and
    // torus-5x3x3 (all but scatter, whose 1-ppn table ends at 8 ranks), alltoallv on torus-4x4x4.
    expect(smp.filter(({ c }) => c.smpi.algorithm === 'impi' && c.smpi.collective === 'allreduce').length).toBe(6);
    for (const platform of ['torus-4x4x4', 'flat-16', 'torus-5x3x3']) {
      const mine = new Set(smp.filter(({ c }) => c.platform === `platforms/${platform}.xml` && c.smpi.algorithm === 'impi').map(({ c }) => c.smpi.collective));
      expect([...mine].sort(), platform).toEqual(['allgather', 'allreduce', 'alltoall', 'barrier', 'bcast', 'gather', 'reduce', 'reduce_scatter', ...(platform === 'torus-4x4x4' ? ['alltoallv'] : [])].sort());
    }
  });

  it("SimGrid's lazy sharing update is the pinned +4.9 %: under network/optim:Full smpirun's rdb and impi allgather on 45 ranks are Meshwork's within 0.05 %", () => {
    const full = cases.filter(({ name }) => name.endsWith('-optim-full'));
    expect(full.map(({ name }) => name).sort()).toEqual(['torus-5x3x3-allgather-rdb-optim-full', 'torus-5x3x3-smp-allgather-impi-optim-full']);
    for (const { name, c } of full) {
      expect(c.config).toContain('--cfg=network/optim:Full');
      for (const row of c.rows) expect(Math.abs(smpiCaseMakespan(c, row.size) / row.makespan_s - 1), `${name} ${row.size}`).toBeLessThan(0.0005);
    }
    // The same impi case under Lazy (CM02's default), pinned above: 4.9 % faster than Full at 16 KiB.
    const lazy = cases.find(({ name }) => name === 'torus-5x3x3-smp-allgather-impi')!.c.rows.find((r) => r.size === 16384)!;
    const fullRow = full.find(({ name }) => name.includes('impi'))!.c.rows.find((r) => r.size === 16384)!;
    expect(fullRow.makespan_s / lazy.makespan_s - 1).toBeGreaterThan(0.045);
  });

  for (const { name, c } of cases) {
    it(`${name}: within 2 % of smpirun or at its pin`, () => {
      for (const row of c.rows) {
        const error = (smpiCaseMakespan(c, row.size) / row.makespan_s - 1) * 100;
        const key = `${name} ${row.size}`;
        const pin = PINNED[key];
        if (pin === undefined) expect(Math.abs(error), `${key}: ${error.toFixed(2)}%`).toBeLessThanOrEqual(TARGET);
        else expect(Math.abs(error - pin[0]), `${key}: pinned at ${pin[0]}% (${pin[1]}), now ${error.toFixed(2)}%`).toBeLessThanOrEqual(PIN_TOLERANCE);
      }
    });
  }
});
