// Makespans (full precision), a hash of every rank's finish time, rate updates and solver work, per
// case, from one build of the library: for checking that a change to the exact rate update or its
// solver leaves results bit for bit (run it on a copy of main's dist/ and on the new one, then diff).
// Not a *.bench.mjs file: bench/run.mjs does not run it.
//   node bench/rate-update-identity.mjs <dist dir> [small|big|all]
// "small": every algorithm of the agreement-matrix topologies (plus torus 6x6x6 and 4x4x4) under the
// default, per-destination and SimGrid models, and pairwise alltoall on a few tori and a dragonfly
// (about 9 CPU minutes); "big": pairwise alltoall 1 MiB on torus:16x16x8 and fattree:k=16,levels=3.
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
const dist = pathToFileURL(resolve(process.argv[2] ?? 'dist')).href;
const which = process.argv[3] ?? 'small';
const { buildSchedule, buildTopology, listAlgorithms, simulate } = await import(`${dist}/index.js`);
const hash = (a) => createHash('sha1').update(Buffer.from(a.buffer, a.byteOffset, a.byteLength)).digest('hex').slice(0, 12);
function line(label, r) {
  const s = r.raw?.stats ?? {};
  console.log(`${label}\t${r.makespan_s}\t${hash(Float64Array.from(r.ranks.finish_s))}\tupdates=${s.rateUpdates} work=${s.solverWork}`);
}
if (which === 'small' || which === 'all') {
  const TOPOLOGIES = ['torus:4x4,bw=25Gbps,lat=100ns', 'twolevel:leaves=4,hosts=4,bw=25Gbps,lat=100ns', 'fullmesh:8,bw=25Gbps,lat=100ns', 'dragonfly:h=2', 'fattree:k=4,levels=2,taper=2', 'torus:6x6x6', 'torus:4x4x4'];
  const COLLECTIVES = ['alltoall', 'broadcast', 'reduce', 'allreduce', 'scatter', 'gather', 'allgather', 'reduce-scatter', 'one-to-one', 'barrier'];
  const SIZE = { alltoall: 16384, allgather: 16384, barrier: 0 };
  const MODELS = {
    default: {},
    'per-destination': { injectionOrder: 'per-destination', injectionBandwidth: 10e9 },
    simgrid: { injectionOrder: 'shared', latencyRule: 'before-transfer', sharing: 'cm02' },
  };
  for (const spec of TOPOLOGIES) {
    const t = buildTopology(spec);
    for (const [mn, model] of Object.entries(MODELS)) {
      if (mn === 'simgrid' && spec.startsWith('torus:') && spec.split('x').length > 2) continue; // slow and CM02 fills whole components anyway
      for (const collective of COLLECTIVES) {
        for (const a of listAlgorithms(collective)) {
          let schedule;
          try { schedule = buildSchedule({ collective, algorithm: a.name, topology: t, size: SIZE[collective] ?? 65536, root: 0, peer: 1 }); } catch { continue; }
          line(`${spec} ${mn} ${collective} ${a.name}`, simulate({ topology: t, schedule, model }));
        }
      }
    }
  }
  for (const [spec, size] of [['torus:6x6x6', 65536], ['torus:8x8x8', 1 << 20], ['torus:8x8', 1 << 20], ['dragonfly:h=3', 1 << 20]]) {
    const t = buildTopology(spec);
    const schedule = buildSchedule({ collective: 'alltoall', algorithm: 'pairwise', topology: t, size });
    line(`${spec} pairwise ${size}`, simulate({ topology: t, schedule }));
  }
}
if (which === 'big' || which === 'all') {
  for (const spec of ['torus:16x16x8', 'fattree:k=16,levels=3']) {
    const t = buildTopology(spec);
    const schedule = buildSchedule({ collective: 'alltoall', algorithm: 'pairwise', topology: t, size: 1 << 20 });
    line(`${spec} pairwise 1MiB`, simulate({ topology: t, schedule }));
  }
}
