import { describe, expect, it } from 'vitest';
import { FlowProgramBuilder, buildSchedule, buildTopology, runFlow, scheduleFromJson, scheduleToJson, simulate, simulatePacketSchedule } from '../../../src/index.js';
import { overheadSeconds, parseOverheadText } from '../../../src/sim/program/software-overheads.js';
import { InputError } from '../../../src/util/errors.js';

// SMPI's smpi/os, smpi/ois and smpi/or (SimGrid 3.32, smpi_host.cpp and smpi_request.cpp), where
// both engines charge them (program/semantics.ts); against smpirun itself in
// test/reference/simgrid-cfg.test.ts (cfg-cases/*-overheads-*).
describe("SMPI's software overheads by size", () => {
  it("reads SimGrid's threshold:offset:per-byte syntax and looks a size up as Host::osend does", () => {
    const o = parseOverheadText('8192:4e-6:5e-11;0:1us:0.1ns', 'os')!;
    expect(o.thresholds).toEqual([0, 8192]);
    // Up to the second threshold (8,192 included) the first section, above it the second.
    expect(overheadSeconds(o, 0)).toBeCloseTo(1e-6, 18);
    expect(overheadSeconds(o, 8192)).toBeCloseTo(1e-6 + 8192e-10, 18);
    expect(overheadSeconds(o, 8193)).toBeCloseTo(4e-6 + 8193 * 5e-11, 18);
    // SMPI's default (0:0:0:0:0) is no overhead; further values are ignored, as SimGrid does.
    expect(parseOverheadText('0:0:0:0:0', 'os')).toBeNull();
    expect(overheadSeconds(null, 1024)).toBe(0);
    for (const bad of ['0:1e-6', 'x:1e-6:0', '-1:1e-6:0', '0:-1e-6:0', '0:1e-6:fast', '']) {
      expect(() => parseOverheadText(bad, 'smpi/os'), bad).toThrow(InputError);
    }
  });

  const t = buildTopology('torus:4x4,bw=32GBps,lat=1ns');
  const line = 1e-9;
  const smpi = { alpha: 0, protocol: 'smpi' as const };

  it('os before a detached blocking send only, ois before an isend and a sendrecv\'s send, at any size', () => {
    const us = '0:1us:0';
    const lone = (bytes: number, nonBlocking: boolean) => {
      const b = new FlowProgramBuilder(16).beginStream(0);
      if (nonBlocking) b.isend(1, bytes).waitall();
      else b.send(1, bytes);
      return b.beginStream(1).recv(0, bytes).build();
    };
    const arrival = (bytes: number) => line + bytes / 32e9;
    const at = (bytes: number, nonBlocking: boolean, model: Record<string, string>) => runFlow({ topology: t, program: lone(bytes, nonBlocking), model: { ...smpi, ...model } }).ranks.finish_s[1];
    expect(at(64, false, { sendOverhead: us })).toBeCloseTo(1e-6 + arrival(64), 15);
    expect(at(64, false, { isendOverhead: us })).toBeCloseTo(arrival(64), 15);
    // A blocking send at or above the threshold is not detached: no sleep.
    expect(at(65536, false, { sendOverhead: us })).toBeCloseTo(arrival(65536), 15);
    expect(at(65536, true, { isendOverhead: us })).toBeCloseTo(1e-6 + arrival(65536), 15);
    expect(at(64, true, { sendOverhead: us })).toBeCloseTo(arrival(64), 15);
    // A sendrecv (a send directly followed by a receive) posts its send with isend_init: ois.
    const sendrecv = new FlowProgramBuilder(16).beginStream(0).send(1, 64).recv(1, 64).beginStream(1).send(0, 64).recv(0, 64).build();
    const finish = (model: Record<string, string>) => runFlow({ topology: t, program: sendrecv, model: { ...smpi, ...model } }).makespan_s;
    expect(finish({ isendOverhead: us })).toBeCloseTo(1e-6 + arrival(64), 15);
    expect(finish({ sendOverhead: us })).toBeCloseTo(arrival(64), 15);
  });

  it('or after a message from a detached send, in completion order within a waitall (waitany repeated)', () => {
    // Rank 0 posts the receive from rank 10 (4 hops) before the one from rank 1 (1 hop): they arrive
    // at 6 and 3 ns; from the waitall at 0, 3 + 10 = 13 ns, then max(13, 6) + 10 = 23 ns (in
    // posting order it would be 6 + 10 + 10 = 26 ns).
    const prog = new FlowProgramBuilder(16).beginStream(0).irecv(10, 64).irecv(1, 64).waitall().beginStream(1).send(0, 64).beginStream(10).send(0, 64).build();
    const model = { ...smpi, recvOverhead: '0:10ns:0' };
    const flow = runFlow({ topology: t, program: prog, model });
    expect(flow.ranks.finish_s[0]).toBeCloseTo(23e-9, 15);
    expect(runFlow({ topology: t, program: prog, model: smpi }).ranks.finish_s[0]).toBeCloseTo(6e-9, 15);
    // A blocking receive sleeps after its message, unless the sender was not detached (64 KiB).
    const blocking = (bytes: number) => new FlowProgramBuilder(16).beginStream(0).send(1, bytes).beginStream(1).recv(0, bytes).build();
    expect(runFlow({ topology: t, program: blocking(64), model }).ranks.finish_s[1]).toBeCloseTo(line + 2e-9 + 10e-9, 15);
    expect(runFlow({ topology: t, program: blocking(65536), model }).ranks.finish_s[1]).toBeCloseTo(line + 65536 / 32e9, 15);
    // The packet engine drives the same semantics. Its router pipeline spreads the arrivals further
    // (the far message lands at 27 ns), so the near message's sleep is over by then and the waitall
    // ends one sleep after the last arrival.
    const packet = simulatePacketSchedule({ topology: t, program: prog, model });
    const plain = simulatePacketSchedule({ topology: t, program: prog, model: smpi });
    expect(plain.ranks.finish_s[0]).toBeCloseTo(27e-9, 15);
    expect(packet.ranks.finish_s[0]).toBeCloseTo(plain.ranks.finish_s[0] + 10e-9, 15);
  });

  it("a sendrecv's receive sleeps from its message's arrival, overlapping the wait for its own send's delivery (SMPI's waitall over both)", () => {
    // Rank 0 sends 64 KiB to rank 10 (not detached: done on delivery at 4 ns + 2,048 ns) and receives
    // 64 B from rank 1 (detached: arrives at 3 ns). SMPI ends the sendrecv at max(3 + or, 2,052 ns).
    const prog = new FlowProgramBuilder(16).beginStream(0).send(10, 65536).recv(1, 64).beginStream(1).send(0, 64).beginStream(10).recv(0, 65536).build();
    const end = (or: string) => runFlow({ topology: t, program: prog, model: { ...smpi, recvOverhead: or } }).ranks.finish_s[0];
    expect(end('0:10ns:0')).toBeCloseTo(2052e-9, 15);
    expect(end('0:5us:0')).toBeCloseTo(3e-9 + 5e-6, 15);
  });

  it("a schedule's separate sends survive its JSON: the linear barrier read back is charged os as built", () => {
    // Every rank sends to rank 0, then receives from it: an MPI_Send, then an MPI_Recv (not a sendrecv).
    const schedule = buildSchedule({ collective: 'barrier', algorithm: 'linear', topology: t, size: 0 });
    const json = scheduleToJson(schedule);
    expect(json).toContain('["separate-send",0,');
    const back = scheduleFromJson(JSON.parse(json));
    const model = { ...smpi, sendOverhead: '0:1us:0' };
    const built = simulate({ topology: t, schedule, model }).makespan_s;
    // Read as a sendrecv each send would be charged ois (none here) instead: the barrier would be 1 µs shorter.
    expect(built).toBeGreaterThan(1e-6);
    expect(simulate({ topology: t, schedule: back, model }).makespan_s).toBe(built);
    expect(scheduleToJson(back)).toBe(json);
  });

  it('needs protocol smpi (its detached sends decide who pays), refused in one line otherwise', () => {
    const prog = new FlowProgramBuilder(16).beginStream(0).send(1, 64).beginStream(1).recv(0, 64).build();
    expect(() => runFlow({ topology: t, program: prog, model: { alpha: 0, sendOverhead: '0:1us:0' } })).toThrow(/model\.sendOverhead.*protocol smpi/);
    // All-zero overheads are SMPI's default: accepted anywhere.
    expect(runFlow({ topology: t, program: prog, model: { alpha: 0, recvOverhead: '0:0:0' } }).makespan_s).toBeCloseTo(line + 2e-9, 15);
  });
});
