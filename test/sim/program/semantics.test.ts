import { describe, expect, it } from 'vitest';
import { FlowProgramBuilder, buildTopology, flowPreset, runFlow, simulatePacketSchedule } from '../../../src/index.js';

// One meaning of a program in both engines (issue 17; sim/program/semantics.ts).
describe('shared stream semantics', () => {
  const t = buildTopology('torus:4x4,bw=32GBps,lat=1ns');
  const cycle = 32 / 32e9;

  it('a barrier among 4 ranks × 2 streams costs ⌈log2 4⌉ = 2 stages in both engines (P = participating ranks)', () => {
    // Issue 17's case: before, flow took P = ranks (2.0 µs) and packet P = streams (3.0 µs).
    const b = new FlowProgramBuilder(16);
    for (let r = 0; r < 4; r++) for (let s = 0; s < 2; s++) b.beginStream(r, s).barrier('b');
    const prog = b.build();
    const model = { alpha: 0, barrierStageLatency: 1e-6 };
    expect(runFlow({ topology: t, program: prog, model }).makespan_s).toBeCloseTo(2e-6, 12);
    const packet = simulatePacketSchedule({ topology: t, program: prog, model });
    expect(Math.round(packet.makespan_s / cycle)).toBe(Math.ceil(2e-6 / cycle - 1e-9));
  });

  it('a barrier waits for its last participant in both engines', () => {
    // Rank 1 arrives late (γ_copy × 32 KiB = 1 µs); rank 0 must wait for it.
    const prog = new FlowProgramBuilder(16).beginStream(0).barrier('b').beginStream(1).copy(32768).barrier('b').build();
    const model = { alpha: 0, barrierStageLatency: 0, gammaCopy: 1e-6 / 32768 };
    const flow = runFlow({ topology: t, program: prog, model });
    expect(flow.ranks.finish_s[0]).toBeCloseTo(1e-6, 12);
    const packet = simulatePacketSchedule({ topology: t, program: prog, model });
    expect(Math.round(packet.ranks.finish_s[0] / cycle)).toBe(Math.ceil(1e-6 / cycle - 1e-9));
  });

  it("barrier linear (SMPI's default): run as its messages, everyone's reaches the root, then each rank is released when the root's answer arrives", () => {
    // torus:4x4, 1 ns links: rank 10 is 4 hops from root 0, rank 1 one hop. The root has all messages
    // at 4 ns; rank 1 is released at 4 + 1 ns, rank 10 at 4 + 4 ns; the root's zero-byte answers are
    // eager (detached under SMPI), so it goes on at 4 ns.
    const b = new FlowProgramBuilder(16);
    for (let r = 0; r < 16; r++) b.beginStream(r).barrier('b');
    const prog = b.build();
    const flow = runFlow({ topology: t, program: prog, model: { alpha: 0, barrier: 'linear' } });
    expect(flow.model.barrier).toBe('linear');
    expect(flow.stats.messages).toBe(2 * 15);
    expect(flow.ranks.finish_s[1]).toBeCloseTo(5e-9, 15);
    expect(flow.ranks.finish_s[10]).toBeCloseTo(8e-9, 15);
    expect(flow.ranks.finish_s[0]).toBeCloseTo(4e-9, 15);
    const packet = simulatePacketSchedule({ topology: t, program: prog, model: { alpha: 0, barrier: 'linear' } });
    expect(packet.stats.messages).toBe(2 * 15);
    expect(packet.ranks.finish_s[1]).toBeLessThan(packet.ranks.finish_s[10]);
    expect(packet.ranks.finish_s[0]).toBeLessThan(packet.ranks.finish_s[1]);
  });

  it("barrier linear: the root's host link carries the 2(P − 1) messages' envelopes one after another (the closed form's route latency alone would be 8 ns)", () => {
    // 16 B envelopes at 32 GB/s take 0.5 ns each; 15 arrive at the root over its 4 links and 15
    // answers leave over them: the farthest rank's answer comes later than 4 + 4 ns.
    const b = new FlowProgramBuilder(16);
    for (let r = 0; r < 16; r++) b.beginStream(r).barrier('b');
    const plain = runFlow({ topology: t, program: b.build(), model: { alpha: 0, barrier: 'linear' } }).makespan_s;
    const enveloped = runFlow({ topology: t, program: b.build(), model: { alpha: 0, barrier: 'linear', envelopeBytes: 16 } }).makespan_s;
    expect(plain).toBeCloseTo(8e-9, 15);
    expect(enveloped).toBeGreaterThan(8e-9 + 2 * 0.5e-9);
  });

  it('both engines refuse a deadlocked program with the same message', () => {
    const prog = new FlowProgramBuilder(16).beginStream(1).recv(0, 64).build();
    const words = /deadlock at rank 1 stream 0 op 0.*recv from rank 0 tag 0 never matched/;
    expect(() => runFlow({ topology: t, program: prog })).toThrow(words);
    expect(() => simulatePacketSchedule({ topology: t, program: prog })).toThrow(words);
  });
});

describe('NIC model (injectionOrder) and point-to-point protocol, the same in both engines', () => {
  // 1 MiB at 32 GB/s is T = 32.768 µs on every link of this torus (1 ns links, α = 0).
  const t = buildTopology('torus:4x4,bw=32GBps,lat=1ns');
  const B = 1 << 20;
  const T = B / 32e9;
  // Rank 0 sends two messages to rank 1 on one link; rank 1 forwards the first to rank 2 as soon
  // as it has it, then takes the second.
  const relay = new FlowProgramBuilder(16).beginStream(0).send(1, B, 0).send(1, B, 1).beginStream(1).recv(0, B, 0).send(2, B).recv(0, B, 1).beginStream(2).recv(1, B).build();

  it('fifo: the first message leaves whole before the second, so the relay overlaps (2T); shared: both share the link (3T)', () => {
    const fifo = runFlow({ topology: t, program: relay, model: { alpha: 0 } });
    expect(fifo.model.injectionOrder).toBe('fifo');
    expect(fifo.makespan_s / T).toBeCloseTo(2, 2);
    const shared = runFlow({ topology: t, program: relay, model: { alpha: 0, injectionOrder: 'shared' } });
    expect(shared.makespan_s / T).toBeCloseTo(3, 2);
    const packet = simulatePacketSchedule({ topology: t, program: relay, model: { alpha: 0 } });
    expect(packet.makespan_s / T).toBeCloseTo(2, 1);
    // At packet level the two sending messages interleave packet by packet in the link's source queue.
    const packetShared = simulatePacketSchedule({ topology: t, program: relay, model: { alpha: 0, injectionOrder: 'shared' } });
    expect(packetShared.model.injectionOrder).toBe('shared');
    expect(packetShared.makespan_s / T).toBeCloseTo(3, 1);
  });

  it('per-destination: messages to one destination queue as under fifo; to two destinations they share', () => {
    expect(runFlow({ topology: t, program: relay, model: { alpha: 0, injectionOrder: 'per-destination' } }).makespan_s / T).toBeCloseTo(2, 2);
    expect(simulatePacketSchedule({ topology: t, program: relay, model: { alpha: 0, injectionOrder: 'per-destination' } }).makespan_s / T).toBeCloseTo(2, 1);
    // Rank 0 sends to 1 and then to 2, both over link 0 → 1: under fifo rank 1 has its data at T and
    // rank 2 at 2T; one queue per destination shares the link, so both have it at 2T, in both engines.
    const two = new FlowProgramBuilder(16).beginStream(0).send(1, B).send(2, B).beginStream(1).recv(0, B).beginStream(2).recv(0, B).build();
    for (const [order, first] of [['fifo', 1], ['per-destination', 2], ['shared', 2]] as const) {
      const flow = runFlow({ topology: t, program: two, model: { alpha: 0, injectionOrder: order } });
      const packet = simulatePacketSchedule({ topology: t, program: two, model: { alpha: 0, injectionOrder: order } });
      for (const r of [flow, packet]) {
        expect(r.ranks.finish_s[1] / T, `${r.engine} ${order}`).toBeCloseTo(first, 1);
        expect(r.ranks.finish_s[2] / T, `${r.engine} ${order}`).toBeCloseTo(2, 1);
      }
    }
  });

  // Rank 1 posts its receive only after a local copy of 10 µs (γ_copy).
  const late = (bytes: number) => new FlowProgramBuilder(16).beginStream(0).send(1, bytes).beginStream(1).copy(1).recv(0, bytes).build();
  const lateModel = { alpha: 0, gammaCopy: 10e-6 };

  it('protocol mpi: at or above the eager threshold the data moves only once the receive is posted (rendezvous)', () => {
    const eager = runFlow({ topology: t, program: late(B), model: lateModel }).makespan_s;
    const mpi = runFlow({ topology: t, program: late(B), model: { ...lateModel, protocol: 'mpi' } });
    expect(mpi.model.eagerThreshold).toBe(65536);
    // Eager: the data moves from 0 while the receiver copies; rendezvous: it starts at 10 µs.
    expect(eager).toBeCloseTo(T + 1e-9, 9);
    expect(mpi.makespan_s).toBeCloseTo(10e-6 + T + 1e-9, 9);
    const packet = simulatePacketSchedule({ topology: t, program: late(B), model: { ...lateModel, protocol: 'mpi' } });
    expect(packet.makespan_s / mpi.makespan_s).toBeGreaterThan(0.97);
    expect(packet.makespan_s / mpi.makespan_s).toBeLessThan(1.03);
  });

  // MPI_Sendrecv posts its send and its receive together: a rendezvous send directly followed by a
  // receive must not wait for the peer's receive that sits behind the peer's own blocked send.
  it('protocol mpi: a send directly followed by a receive is a sendrecv, so an exchange completes', () => {
    const exchange = (between: boolean) => {
      const b = new FlowProgramBuilder(16).beginStream(0).send(1, B);
      if (between) b.copy(1);
      b.recv(1, B).beginStream(1).send(0, B);
      if (between) b.copy(1);
      return b.recv(0, B).build();
    };
    const eager = runFlow({ topology: t, program: exchange(false), model: { alpha: 0 } }).makespan_s;
    const mpi = runFlow({ topology: t, program: exchange(false), model: { alpha: 0, protocol: 'mpi' } }).makespan_s;
    expect(mpi).toBeCloseTo(eager, 12);
    const packet = simulatePacketSchedule({ topology: t, program: exchange(false), model: { alpha: 0, protocol: 'mpi' } }).makespan_s;
    expect(packet / mpi).toBeGreaterThan(0.97);
    expect(packet / mpi).toBeLessThan(1.03);
    // With work between the send and the receive it is two blocking calls, which deadlock as in MPI.
    expect(() => runFlow({ topology: t, program: exchange(true), model: { alpha: 0, gammaCopy: 1e-9, protocol: 'mpi' } })).toThrow(/deadlock/);
  });

  it('protocol mpi: below the threshold a send is detached, as eager', () => {
    const small = 1024;
    const eager = runFlow({ topology: t, program: late(small), model: lateModel }).makespan_s;
    expect(runFlow({ topology: t, program: late(small), model: { ...lateModel, protocol: 'mpi' } }).makespan_s).toBe(eager);
    expect(runFlow({ topology: t, program: late(small), model: { ...lateModel, protocol: 'mpi', eagerThreshold: 1024 } }).makespan_s).toBeGreaterThan(eager);
  });

  // Measured under SimGrid 3.32 smpirun (CM02, 2 hosts, one 10 GBps 100 ns link): a 16 B MPI_Send
  // to a rank that posts its MPI_Recv after 1 µs of computing arrives 1 µs + 101.6 ns after the
  // start (SimGrid starts a transfer when both sides are matched), and MPI_Send returns at once.
  it('protocol smpi: even below the threshold the data moves only once the receive is posted, and a lone send is detached (its stream ends at once)', () => {
    const small = 1024;
    const model = { ...lateModel, protocol: 'smpi' as const };
    const flow = runFlow({ topology: t, program: late(small), model });
    expect(flow.model.protocol).toBe('smpi');
    expect(flow.makespan_s).toBeCloseTo(10e-6 + small / 32e9 + 1e-9, 12);
    expect(flow.ranks.finish_s[0]).toBe(0);
    const packet = simulatePacketSchedule({ topology: t, program: late(small), model });
    expect(packet.makespan_s / flow.makespan_s).toBeGreaterThan(0.97);
    expect(packet.makespan_s / flow.makespan_s).toBeLessThan(1.03);
    expect(packet.ranks.finish_s[0]).toBe(0);
  });

  // SMPI 3.32's smpi/async-small-thresh: a send below it goes to the receiver's small mailbox, whose
  // permanent receiver starts the transfer at once (smpi_request.cpp, Request::start "eager mode");
  // against smpirun in test/reference/simgrid-cfg.test.ts (cfg-cases/*-async-*).
  it('protocol smpi with asyncSmallThreshold: a send below it moves its data at once, the receive posted later takes it then', () => {
    const small = 1024;
    const model = { ...lateModel, protocol: 'smpi' as const };
    const waits = runFlow({ topology: t, program: late(small), model });
    const eager = runFlow({ topology: t, program: late(small), model: { ...model, asyncSmallThreshold: 65536 } });
    expect(eager.model.asyncSmallThreshold).toBe(65536);
    // The receiver copies for 10 µs either way; the message no longer waits for that to start moving.
    expect(waits.makespan_s).toBeCloseTo(10e-6 + small / 32e9 + 1e-9, 12);
    expect(eager.makespan_s).toBeCloseTo(10e-6, 12);
    // At or above the threshold the send waits for its receive, as without one.
    expect(runFlow({ topology: t, program: late(small), model: { ...model, asyncSmallThreshold: small } }).makespan_s).toBe(waits.makespan_s);
    const packet = simulatePacketSchedule({ topology: t, program: late(small), model: { ...model, asyncSmallThreshold: 65536 } });
    expect(packet.makespan_s).toBeCloseTo(10e-6, 8);
    expect(() => runFlow({ topology: t, program: late(small), model: { ...lateModel, asyncSmallThreshold: 1024 } })).toThrow(/model\.asyncSmallThreshold.*protocol smpi/);
  });

  // SMPI sends payload_size_ = size_ + 16 (smpi_request.cpp, "MPI envelope size"): measured under smpirun,
  // a 0-byte message over one 10 GBps, 100 ns link takes 101.6 ns.
  it('envelopeBytes: every message carries them on the wire, a zero-byte one too (flow engine); 0 by default, 16 under the simgrid preset', () => {
    const line = 1e-9;
    for (const bytes of [0, 1024]) {
      const prog = new FlowProgramBuilder(16).beginStream(0).send(1, bytes).beginStream(1).recv(0, bytes).build();
      const plain = runFlow({ topology: t, program: prog, model: { alpha: 0 } });
      const enveloped = runFlow({ topology: t, program: prog, model: { alpha: 0, envelopeBytes: 16 } });
      expect(plain.makespan_s, `${bytes} B`).toBeCloseTo(line + bytes / 32e9, 15);
      expect(enveloped.makespan_s, `${bytes} B + 16`).toBeCloseTo(line + (bytes + 16) / 32e9, 15);
      expect(enveloped.model.envelopeBytes).toBe(16);
    }
    expect(flowPreset('simgrid').model.envelopeBytes).toBe(16);
  });

  // Measured under smpirun (SimGrid 3.32, torus-4x4x4.xml, CM02): rank 0 calls MPI_Sendrecv(send to
  // rank 42, 6 hops; receive from rank 1, 1 hop). Below smpi/send-is-detached-thresh (64 KiB) its send is
  // detached like any other (smpi_request.cpp, Request::start; waitany returns a detached send at once):
  // 64 B: rank 0 done at 118 ns (1 hop), rank 42 at 618 ns. At 64 KiB it waits for delivery: both 7,165.2 ns.
  it('protocol smpi: a sendrecv\'s send below the threshold is detached (the sendrecv ends with its receive); from the threshold it completes on delivery', () => {
    // Rank 0 sends to rank 10 (4 hops away on torus:4x4) and receives from rank 1 (1 hop).
    const line = 1e-9;
    const sendrecv = (bytes: number) =>
      new FlowProgramBuilder(16).beginStream(0).send(10, bytes).recv(1, bytes).beginStream(1).send(0, bytes).beginStream(10).recv(0, bytes).build();
    for (const [protocol, bytes, hops] of [['mpi', 64, 1], ['smpi', 64, 1], ['smpi', 65536, 4]] as const) {
      const prog = sendrecv(bytes);
      const flow = runFlow({ topology: t, program: prog, model: { alpha: 0, protocol } });
      expect(flow.ranks.finish_s[0], `${protocol} ${bytes}`).toBeCloseTo(hops * line + bytes / 32e9, 13);
      const packet = simulatePacketSchedule({ topology: t, program: prog, model: { alpha: 0, protocol } });
      // At packet level too: on delivery rank 0 ends when rank 10 has its data; detached, before.
      if (hops === 4) expect(packet.ranks.finish_s[0], `${protocol} ${bytes}`).toBe(packet.ranks.finish_s[10]);
      else expect(packet.ranks.finish_s[0], `${protocol} ${bytes}`).toBeLessThan(packet.ranks.finish_s[10]);
    }
  });
});
