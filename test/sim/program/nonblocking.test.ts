/**
 * Non-blocking posting (isend, irecv, waitall: MPI_Isend, MPI_Irecv, MPI_Waitall) in the schedule IR,
 * the executor and the shared stream semantics (src/sim/program/semantics.ts) of both engines.
 */
import { describe, expect, it } from 'vitest';
import {
  FlowProgramBuilder,
  RECV,
  SEND,
  ScheduleBuilder,
  buildSchedule,
  buildTopology,
  executeSchedule,
  listAlgorithms,
  runFlow,
  scheduleFromJson,
  scheduleToJson,
  simulate,
  simulatePacketSchedule,
  type CollectiveKind,
} from '../../../src/index.js';

/**
 * Algorithms that still send everything before they receive, so they wait forever when every send is
 * rendezvous: asserted to deadlock, so fixing one fails here until it leaves this list.
 */
const KNOWN_DEADLOCKS: Record<string, string> = {};

const RENDEZVOUS = [
  { protocol: 'mpi', eagerThreshold: 0, alpha: 0 },
  { protocol: 'smpi', eagerThreshold: 0, alpha: 0 },
] as const;

describe('non-blocking posting', () => {
  const t = buildTopology('torus:4x4,bw=10GBps,lat=100ns');

  it('the linear alltoall (irecv, isend, waitall) completes under rendezvous in both engines and delivers every byte', () => {
    const s = buildSchedule({ collective: 'alltoall', algorithm: 'linear', topology: t, size: 4096 });
    expect(executeSchedule(s).pass).toBe(true);
    for (const model of RENDEZVOUS) {
      for (const engine of ['flow', 'packet'] as const) {
        const r = simulate({ topology: t, schedule: s, engine, model });
        // 15 blocks of 4 KiB leave every rank's 4 links: at least 15·4096 / (4 · 10 GB/s).
        expect(r.makespan_s, `${engine} ${model.protocol}`).toBeGreaterThan((15 * 4096) / 4e10);
      }
    }
  });

  it('the same exchange with blocking sends before the receives deadlocks under rendezvous in both engines (the hazard the isends remove)', () => {
    const b = new ScheduleBuilder({ collective: 'alltoall', numRanks: 16, size: 4096 });
    for (let r = 0; r < 16; r++) {
      b.copy(r, b.block(SEND, r), b.block(RECV, r));
      for (let i = 1; i < 16; i++) b.send(r, (r + i) % 16, b.block(SEND, (r + i) % 16));
      for (let i = 1; i < 16; i++) b.recv(r, (r - i + 16) % 16, b.block(RECV, (r - i + 16) % 16));
    }
    const s = b.finish();
    expect(executeSchedule(s).pass).toBe(true); // fine with eager sends
    for (const model of RENDEZVOUS) {
      for (const engine of ['flow', 'packet'] as const) expect(() => simulate({ topology: t, schedule: s, engine, model }), `${engine} ${model.protocol}`).toThrow(/deadlock.*rendezvous send/);
    }
  });

  it('every registered algorithm completes when every send is rendezvous (mpi and smpi, threshold 0)', () => {
    // The audit of the send-before-receive hazard: 16 ranks on a torus, 6 and 8 on a full mesh.
    const topologies = ['torus:4x4,bw=10GBps,lat=100ns', 'fullmesh:6', 'fullmesh:8'].map((x) => buildTopology(x));
    let ran = 0;
    for (const topology of topologies) {
      for (const c of ['alltoall', 'broadcast', 'reduce', 'allreduce', 'scatter', 'gather', 'allgather', 'reduce-scatter', 'barrier'] as CollectiveKind[]) {
        for (const alg of listAlgorithms(c)) {
          let s;
          try {
            s = buildSchedule({ collective: c, algorithm: alg.name, topology, size: c === 'barrier' ? 0 : 96 * 48 });
          } catch {
            continue; // the algorithm does not support this topology
          }
          const known = KNOWN_DEADLOCKS[`${c} ${alg.name}`];
          for (const model of RENDEZVOUS) {
            const run = () => simulate({ topology, schedule: s, model });
            if (known) expect(run, `${c} ${alg.name}: ${known}`).toThrow(/deadlock.*rendezvous send/);
            else expect(run, `${topology.spec} ${c} ${alg.name} ${model.protocol}`).not.toThrow();
          }
          ran++;
        }
      }
    }
    expect(ran).toBeGreaterThan(60);
  });

  it('an irecv posted before a blocking recv on the same (source, tag) takes the earlier message (MPI matching order)', () => {
    const b = new ScheduleBuilder({ collective: 'one-to-one', numRanks: 2, size: 8, root: 0, peer: 1 });
    b.send(0, 1, b.region(SEND, 0, 4));
    b.send(0, 1, b.region(SEND, 4, 4));
    b.irecv(1, 0, b.region(RECV, 0, 4));
    b.recv(1, 0, b.region(RECV, 4, 4));
    b.waitall(1);
    expect(executeSchedule(b.finish()).pass).toBe(true);
    // Swapped order (the blocking recv first) puts the halves the wrong way round.
    const w = new ScheduleBuilder({ collective: 'one-to-one', numRanks: 2, size: 8, root: 0, peer: 1 });
    w.send(0, 1, w.region(SEND, 0, 4));
    w.send(0, 1, w.region(SEND, 4, 4));
    w.recv(1, 0, w.region(RECV, 4, 4));
    w.irecv(1, 0, w.region(RECV, 0, 4));
    w.waitall(1);
    expect(executeSchedule(w.finish()).pass).toBe(false);
  });

  it('a program that ends with non-blocking operations after its last waitall is refused', () => {
    const b = new ScheduleBuilder({ collective: 'one-to-one', numRanks: 2, size: 8, root: 0, peer: 1 });
    b.isend(0, 1, b.region(SEND, 0, 8));
    b.recv(1, 0, b.region(RECV, 0, 8));
    expect(() => b.finish()).toThrow(/rank 0 stream 0 ends with 1 non-blocking operation\(s\) it never waits for/);
  });

  it('isend, irecv and waitall survive the JSON round trip', () => {
    const s = buildSchedule({ collective: 'alltoall', algorithm: 'linear', topology: t, size: 64 });
    const json = scheduleToJson(s);
    expect(json).toContain('"isend"');
    expect(json).toContain('"irecv"');
    expect(json).toContain('["waitall"]');
    const back = scheduleFromJson(JSON.parse(json));
    expect(scheduleToJson(back)).toBe(json);
    expect(executeSchedule(back).pass).toBe(true);
  });

  it('a waitall ends when the last of its operations completes, in both engines', () => {
    // Rank 0 isends 1 MiB to rank 1 and 2 (one hop each, 1 ns), waits; under smpi a send of at least
    // the threshold completes on delivery: 1 ns + 2^20 / 32 GB/s (one link each, no sharing).
    const tt = buildTopology('torus:4x4,bw=32GBps,lat=1ns');
    const B = 1 << 20;
    const b = new FlowProgramBuilder(16);
    b.beginStream(0).isend(1, B).isend(4, B).waitall();
    b.beginStream(1).irecv(0, B).waitall();
    b.beginStream(4).recv(0, B);
    const prog = b.build();
    const model = { alpha: 0, protocol: 'smpi' as const };
    const expected = 1e-9 + B / 32e9;
    const flow = runFlow({ topology: tt, program: prog, model });
    expect(flow.ranks.finish_s[0]).toBeCloseTo(expected, 11);
    expect(flow.ranks.finish_s[1]).toBeCloseTo(expected, 11);
    const packet = simulatePacketSchedule({ topology: tt, program: prog, model });
    expect(packet.ranks.finish_s[0] / expected).toBeCloseTo(1, 1);
  });
});
