// Seed 001's communication control unit (JP 2020-046713; spec/seed001_fullmesh.md §3). Nodes are
// 0-based: the document's node 1 is node 0, its link "1-2" is "0-1".
import { describe, expect, it } from 'vitest';
import { buildSchedule, buildTopology, ControlUnit, executeSchedule, InputError } from '../../src/index.js';
import { controlHeaderFields } from '../../src/collectives/fullmesh-control.js';

// 3rd embodiment ([0057]): T0 = 2 µs, T1 = 2.1 µs; 20 Gbps per link ([0011]). The document gives no
// precision for the example's counts; 4-byte elements (MPI_FLOAT) are this test's choice.
const THIRD = { nodes: 4, bandwidth: 2.5e9, t0: 2e-6, t1: 2.1e-6 } as const;

describe('worked example A/B/C of the 3rd embodiment ([0079]–[0086], 図17–図28)', () => {
  it('A uses direct + 1-hop, B (scatter) direct only and starts, C (small multicast) direct only and waits on link 3-2; when A completes, C starts', () => {
    const cu = new ControlUnit(THIRD);
    // A: 1-to-1, node 1 → node 2, count 5000 ([0080], 図17/図18): large, so S216 → S218 direct + 1-hop.
    const a = cu.submit({ type: 'one-to-one', sender: 0, receiver: 1, count: 5000, precision: 4 });
    expect(a.state).toBe('communicating');
    expect(a.decision.choice).toBe('both');
    expect(a.decision.K).toBe(2); // K = N − 2, all free turnaround nodes (S214)
    expect(a.decision.turnarounds).toEqual([2, 3]); // nodes 3 and 4 relay, [0108] order
    expect(a.decision.step).toMatch(/^S218 .*S222 start/);
    expect(cu.busyLinks()).toEqual(['0-1', '0-2', '0-3', '2-1', '3-1']); // 1-2 direct; 1-3, 1-4 first hops; 3-2, 4-2 second hops
    // B: scatter, count 5000 ([0081], 図22/図23). The tables record links 2-1, 2-3, 2-4, so B is read as
    // sent from node 2 (spec §3.6: "from node 1" would need node 1's links, busy with A).
    const b = cu.submit({ type: 'scatter', sender: 1, count: 5000, precision: 4 });
    expect(b.decision.step).toBe('S219 direct only (type scatter)');
    expect(b.state).toBe('communicating');
    expect(b.decision.links).toEqual([[1, 0], [1, 2], [1, 3]]);
    // C: multicast from node 3, count 50 ([0082], 図24/図25): small, so direct links 3-1, 3-2, 3-4;
    // 3-2 carries A's second hop, so C waits.
    const c = cu.submit({ type: 'multicast', sender: 2, count: 50, precision: 4 });
    expect(c.decision.choice).toBe('direct');
    expect(c.decision.links).toEqual([[2, 0], [2, 1], [2, 3]]);
    expect(c.decision.step).toMatch(/^S217 .*S223 wait/);
    expect(c.state).toBe('waiting');
    expect(cu.table().map((r) => `${r.id}:${r.comm.type}:${r.state}`)).toEqual(['0:one-to-one:communicating', '1:scatter:communicating', '2:multicast:waiting']);
    // A completes ([0083]–[0086], 図27/図28): its row goes, the rows below move up, C starts.
    const started = cu.complete(a.id);
    expect(started.map((r) => r.id)).toEqual([c.id]);
    expect(cu.table().map((r) => `${r.id}:${r.state}`)).toEqual(['1:communicating', '2:communicating']);
    expect(cu.busyLinks()).toEqual(['1-0', '1-2', '1-3', '2-0', '2-1', '2-3']);
  });

  it('with B read literally as a scatter from node 1, B waits on A and C queues behind B (S203), both start when A completes', () => {
    const cu = new ControlUnit(THIRD);
    const a = cu.submit({ type: 'one-to-one', sender: 0, receiver: 1, count: 5000, precision: 4 });
    const b = cu.submit({ type: 'scatter', sender: 0, count: 5000, precision: 4 });
    expect(b.state).toBe('waiting');
    const c = cu.submit({ type: 'multicast', sender: 2, count: 50, precision: 4 });
    expect(c.decision.step).toBe('S203 waiting behind communication 1');
    expect(cu.complete(a.id).map((r) => r.id)).toEqual([b.id, c.id]);
  });
});

describe('the 1-hop decision (S215/S425, claim 6, spec §8)', () => {
  const bits = (cu: ControlUnit, comm: Parameters<ControlUnit['verify']>[0]) => cu.verify(comm);
  it('1-to-1 breaks even at (N−1)/(N−2)·B·(T1−T0)·p/(p−h): the printed (K−1)/(K−2) with K = N and ">"', () => {
    // N = 8, 1st embodiment T1 = 4 µs, no header: S* = 7/6 · 2.5e9 · 2e-6 = 5833.3 B (46.7 kbit, spec §8 table).
    const cu = new ControlUnit({ nodes: 8, bandwidth: 2.5e9, t0: 2e-6, t1: 4e-6, headerBits: 0 });
    const star = (7 / 6) * 2.5e9 * 2e-6;
    expect(bits(cu, { type: 'one-to-one', sender: 0, receiver: 1, count: Math.floor(star) - 1, precision: 1 }).choice).toBe('direct');
    expect(bits(cu, { type: 'one-to-one', sender: 0, receiver: 1, count: Math.ceil(star) + 1, precision: 1 }).choice).toBe('both');
    // With the 100-bit header in 50 ns packets at 20 Gbps (1000 bits), 1-hop pays off only above S*/0.9 + ...
    const withHeader = new ControlUnit({ nodes: 8, bandwidth: 2.5e9, t0: 2e-6, t1: 4e-6 });
    expect(withHeader.payloadFraction()).toBeCloseTo(0.9, 12);
    expect(bits(withHeader, { type: 'one-to-one', sender: 0, receiver: 1, count: Math.ceil(star) + 1, precision: 1 }).choice).toBe('direct');
  });

  it('6th-embodiment reduce: K ≤ 2 never pays off (2/K ≥ 1); K = 4 breaks even at K/(K−2)·B·(T1−T0) ([0123])', () => {
    const cu = new ControlUnit({ nodes: 8, bandwidth: 2.5e9, t0: 2e-6, t1: 4e-6, headerBits: 0, policy: 'variable-K', kMax: 2 });
    expect(bits(cu, { type: 'reduce', sender: 0, count: 1e9, precision: 1 }).choice).toBe('direct');
    const k4 = new ControlUnit({ nodes: 8, bandwidth: 2.5e9, t0: 2e-6, t1: 4e-6, headerBits: 0, policy: 'variable-K', kMax: 4 });
    const star = 2 * 2.5e9 * 2e-6; // K/(K−2) = 2
    expect(bits(k4, { type: 'reduce', sender: 0, count: star - 1, precision: 1 }).choice).toBe('direct');
    const big = bits(k4, { type: 'reduce', sender: 0, count: star + 1, precision: 1 });
    expect(big.K).toBe(4);
    expect(big.turnarounds).toEqual([0, 1, 2, 3]);
  });
});

describe('variable K (6th embodiment, 図42) and the main node (1st embodiment, 付記9)', () => {
  it('busy links shrink K instead of making the transfer wait; all links busy → S427 wait', () => {
    const cu = new ControlUnit({ nodes: 8, bandwidth: 2.5e9, t0: 2e-6, t1: 2.1e-6, policy: 'variable-K' });
    cu.occupy(0, 2); // first hop to node 3 busy
    cu.occupy(4, 1); // second hop from node 5 busy
    const d = cu.verify({ type: 'one-to-one', sender: 0, receiver: 1, count: 1e6, precision: 1 });
    expect(d.turnarounds).toEqual([3, 5, 6, 7]);
    expect(d.L).toBe(1);
    expect(d.step).toMatch(/^S425\/S429/);
    cu.occupy(0, 1); // the direct link too: 1-hop only (S426), L = 0
    const hopOnly = cu.verify({ type: 'one-to-one', sender: 0, receiver: 1, count: 1e6, precision: 1 });
    expect([hopOnly.choice, hopOnly.L, hopOnly.step]).toEqual(['one-hop', 0, 'S426 1-hop only (direct links busy), K = 4']);
    const max = new ControlUnit({ nodes: 8, bandwidth: 2.5e9, t0: 2e-6, t1: 2.1e-6 });
    max.occupy(0, 2);
    expect(max.verify({ type: 'one-to-one', sender: 0, receiver: 1, count: 1e6, precision: 1 }).start).toBe(false); // 図21: waits for all
    const full = new ControlUnit({ nodes: 3, bandwidth: 2.5e9, t0: 2e-6, t1: 2.1e-6, policy: 'variable-K' });
    full.occupy(0, 1);
    full.occupy(0, 2);
    expect(full.verify({ type: 'one-to-one', sender: 0, receiver: 1, count: 10, precision: 1 }).step).toBe('S427 wait (neither direct nor 1-hop links free)');
  });

  it('the main node sends each started communication an instruction of one entry per send and receive link (F03, ≈ 2N, [0029])', () => {
    const cu = new ControlUnit({ ...THIRD, nodes: 8, mainNode: 0 });
    cu.submit({ type: 'one-to-one', sender: 0, receiver: 1, count: 1e6, precision: 1 });
    // direct 0→1 plus 6 turnarounds × 2 links = 13 links, each a send entry and a receive entry.
    expect(cu.instructions[0].entries).toBe(26);
    expect(cu.instructions[0].perNode.find((x) => x.node === 0)!.send).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('the control header of 図10 for N = 32 is 74 bits, inside the 100 bits of [0051] (spec §8)', () => {
    expect(controlHeaderFields(32)).toEqual({ management: 10, step: 1, linkInfo: 31, processId: 32, total: 74 });
  });

  it('refuses bad input with InputError', () => {
    expect(() => new ControlUnit({ ...THIRD, nodes: 2 })).toThrow(InputError);
    const cu = new ControlUnit(THIRD);
    expect(() => cu.submit({ type: 'one-to-one', sender: 0, receiver: 0, count: 1, precision: 1 })).toThrow(/control.receiver/);
    expect(() => cu.complete(7)).toThrow(/control.complete/);
  });
});

describe('fullmesh-adaptive schedules, verified byte for byte', () => {
  const topology = buildTopology('fullmesh:8,bw=20Gbps');
  const messages = (collective: 'one-to-one' | 'broadcast' | 'reduce' | 'allreduce', size: number, algorithm = 'fullmesh-adaptive') => {
    const r = executeSchedule(buildSchedule({ collective, algorithm, topology, size, root: 0, peer: 1 }));
    expect(r.problems).toEqual([]);
    expect(r.pass).toBe(true);
    return r.messages;
  };
  it('small transfers take the direct links, large ones the embodiment the control unit chose', () => {
    expect([messages('one-to-one', 64), messages('one-to-one', 4096)]).toEqual([1, 7]); // direct; K = 6 + L = 1
    expect([messages('broadcast', 64), messages('broadcast', 65536)]).toEqual([7, 7 + 7 * 7]); // 図47 direct; 3rd emb. K = N
    expect([messages('reduce', 64), messages('reduce', 65536)]).toEqual([7, 8 * 7 + 7]); // all to the root; all-to-all + 7 results
    expect([messages('allreduce', 64), messages('allreduce', 65536)]).toEqual([56, 56 + 56]);
    // variable-K multicast excludes the sender (6th embodiment): K = N − 1 pieces, each to 7 ranks.
    expect(messages('broadcast', 65536, 'fullmesh-adaptive:policy=variable-K')).toBe(7 * 7);
    // kmax=4: turnarounds 0..3 ([0108] order from the root); 8 × 4 pieces less the 4 kept, 3 results to the root.
    expect(messages('reduce', 65536, 'fullmesh-adaptive:policy=variable-K,kmax=4')).toBe(8 * 4 - 4 + 3);
  });
});
