/**
 * MSCCL-XML export: every registered algorithm either exports, and then the round trip export →
 * import → verify passes with the same data ops, or is refused with the reason.
 */
import { describe, expect, test } from 'vitest';
import { buildSchedule, COLLECTIVES, executeSchedule, listAlgorithms, OpKind, type Schedule } from '../../src/collectives/index.js';
import { buildTopology } from '../../src/topology/registry.js';
import '../../src/topology/index.js';
import { DEPENDENCY_TAG, mscclExportProblem, mscclToSchedule, readMscclXml, scheduleToMscclXml, verifyMscclSchedule } from '../../src/interop/msccl/index.js';

/** Send, recv, copy and reduce ops, leaving out an import's dependency signals (zero-byte messages to the rank itself). */
function dataOps(s: Schedule): number[] {
  const counts = [0, 0, 0, 0];
  for (let op = 0; op < s.numOps; op++) {
    const k = s.opKind[op];
    if (k > OpKind.Reduce) continue;
    if ((k === OpKind.Send || k === OpKind.Recv) && s.opTag[op] >= DEPENDENCY_TAG) continue;
    counts[k]++;
  }
  return counts;
}

const topology = buildTopology('torus:4x4');
const SIZE = 16 * 48;

describe('round trip of every registered algorithm on torus:4x4', () => {
  const cases = COLLECTIVES.flatMap((c) => listAlgorithms(c).map((a) => [c, a.name] as const));
  const exported: string[] = [];
  const refused: string[] = [];
  test.each(cases)('%s %s', (collective, name) => {
    let s: Schedule;
    try {
      s = buildSchedule({ collective, algorithm: name, topology, size: collective === 'barrier' ? 0 : SIZE });
    } catch {
      return; // not built on this topology or size: nothing to export
    }
    if (!executeSchedule(s).pass) return;
    const problem = mscclExportProblem(s);
    if (problem) {
      refused.push(`${collective} ${name}: ${problem}`);
      expect(() => scheduleToMscclXml(s)).toThrow(/^format: got "msccl-xml"; accepted: a schedule MSCCL-XML can express/);
      return;
    }
    exported.push(`${collective} ${name}`);
    const xml = scheduleToMscclXml(s);
    const back = mscclToSchedule(readMscclXml(xml), { size: s.parts[0].size });
    const report = verifyMscclSchedule(back);
    expect(report.problems).toEqual([]);
    expect(report.pass).toBe(true);
    expect(dataOps(back.schedule)).toEqual(dataOps(s));
  });
  test('the classic algorithms export; merged messages, barriers, hw ops and non-MSCCL collectives are refused', () => {
    // As of this writing: 20 export, 8 are refused (docs/interop.md lists them).
    for (const name of ['alltoall pairwise', 'allreduce ring', 'allreduce rabenseifner', 'broadcast binomial', 'allgather ring', 'reduce-scatter pairwise']) expect(exported).toContain(name);
    // The collective libraries' algorithms (issue 25) round-trip too.
    for (const name of ['allreduce nccl-ring', 'allgather nccl-ring', 'reduce-scatter nccl-ring', 'allreduce hierarchical', 'allreduce nccl-tree']) expect(exported).toContain(name);
    // RCCL's direct allreduce posts irecv/isend/waitall (runs under rendezvous): an MSCCL thread block cannot.
    for (const name of ['allreduce direct', 'alltoall linear', 'alltoall bruck', 'alltoall hop-grouped', 'alltoall per-step-barrier', 'alltoall xor-swap', 'barrier dissemination']) expect(refused.some((r) => r.startsWith(name))).toBe(true);
  });
});
