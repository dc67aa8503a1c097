// Seed 001 (JP 2020-046713): full-mesh collectives with 1-hop turnaround links.
// Spec: shared/spec/seed001_fullmesh.md (§2.1–§2.8 named per test). Ranks are 0-based: the
// document's node 1 is rank 0.
import { describe, expect, it } from 'vitest';
import { buildSchedule, buildTopology, executeSchedule, InputError, OpKind, Schedule } from '../../src/index.js';

const fullMesh = (n: number) => buildTopology(`fullmesh:${n}`);

/** Every send as "from>to1,to2 piece via" (tag = piece/column; via = turnaround rank or "direct"). */
function sends(s: Schedule): string[] {
  const out: string[] = [];
  for (let op = 0; op < s.numOps; op++) {
    if (s.opKind[op] !== OpKind.Send) continue;
    const h = s.hint(s.opC[op]);
    const via = h?.kind === 'via' ? `via${h.nodes.join(',')}` : (h?.kind ?? 'none');
    out.push(`${s.opRank[op]}>${s.sendDests(op).join(',')} p${s.opTag[op]} ${via}`);
  }
  return out;
}

describe('seed 001 reduce and allreduce (4th/6th embodiments, §2.5, §2.7)', () => {
  // 図32A: node 1 holds [1,3,5,7], node 2 holds [1,2,3,4]; the document gives no values for nodes 3
  // and 4 (they are only in the drawing), so this test chooses [10,20,30,40] and [100,200,300,400].
  const data = [[1, 3, 5, 7], [1, 2, 3, 4], [10, 20, 30, 40], [100, 200, 300, 400]];
  const sum = [112, 225, 338, 451];

  for (const alg of ['fullmesh-turnaround', 'fullmesh-turnaround:embodiment=5', 'fullmesh-turnaround:embodiment=6,K=2']) {
    it(`${alg}: reduce to node 1 gives the column sums; allreduce gives them everywhere`, () => {
      const topology = fullMesh(4);
      for (const collective of ['reduce', 'allreduce'] as const) {
        const s = buildSchedule({ collective, algorithm: alg, topology, size: 16, root: 0 });
        const r = executeSchedule(s, { inputs: (rank, k) => data[rank][k], keepBuffers: true });
        expect(r.problems).toEqual([]);
        const receivers = collective === 'reduce' ? [0] : [0, 1, 2, 3];
        for (const rank of receivers) expect(Array.from(r.buffer!(rank, 1)!), `${collective} rank ${rank}`).toEqual(sum);
        // And the executor's own pattern check passes.
        expect(executeSchedule(s).pass).toBe(true);
      }
    });
  }

  it('6th embodiment, N=4, K=2: turnaround nodes are nodes 2 and 3 (図41A/B), every rank sends them a column', () => {
    const s = buildSchedule({ collective: 'reduce', algorithm: 'fullmesh-turnaround:embodiment=6,K=2', topology: fullMesh(4), size: 16 });
    const firstHop = sends(s).filter((x) => / p[01] direct$/.test(x));
    expect(firstHop.sort()).toEqual(['0>1 p0 direct', '0>2 p1 direct', '2>1 p0 direct', '3>1 p0 direct', '1>2 p1 direct', '3>2 p1 direct'].sort());
  });
});

describe('seed 001 multicast piece routing (§2.3 3rd embodiment, §2.4 6th embodiment)', () => {
  it('3rd embodiment, N=4 (store-and-forward form): scatter data 2–4, each turnaround replicates to the others, the sender multicasts data 1', () => {
    const s = buildSchedule({ collective: 'broadcast', algorithm: 'fullmesh-multicast:embodiment=3,forward=store', topology: fullMesh(4), size: 16 });
    // §2.3 steps 2 and 4 (1-based: 1→2 data 2, 2→3 and 2→4 data 2, ...; node 1 sends data 1 to 2, 3, 4).
    expect(sends(s)).toEqual(['0>1 p1 direct', '1>2,3 p1 direct', '0>2 p2 direct', '2>1,3 p2 direct', '0>3 p3 direct', '3>1,2 p3 direct', '0>1,2,3 p0 direct']);
    expect(executeSchedule(s).pass).toBe(true);
  });

  it('3rd embodiment, cut-through: one transfer per piece, replicated in the turnaround node (図14)', () => {
    const s = buildSchedule({ collective: 'broadcast', algorithm: 'fullmesh-multicast:embodiment=3', topology: fullMesh(4), size: 16 });
    expect(sends(s)).toEqual(['0>1,2,3 p1 via1', '0>2,1,3 p2 via2', '0>3,1,2 p3 via3', '0>1,2,3 p0 direct']);
    expect(executeSchedule(s).pass).toBe(true);
  });

  it('6th embodiment, N=4, K=2: pieces to nodes 2 and 3 only, the direct link 1→4 unused (図39)', () => {
    const store = buildSchedule({ collective: 'broadcast', algorithm: 'fullmesh-multicast:embodiment=6,K=2,forward=store', topology: fullMesh(4), size: 16 });
    // §2.4 steps 2 and 4: 1→2 piece 1, 1→3 piece 2; 2→3, 2→4 (piece 1); 3→2, 3→4 (piece 2).
    expect(sends(store)).toEqual(['0>1 p0 direct', '1>2,3 p0 direct', '0>2 p1 direct', '2>1,3 p1 direct']);
    expect(sends(store).some((x) => x.startsWith('0>3'))).toBe(false);
    const ct = buildSchedule({ collective: 'broadcast', algorithm: 'fullmesh-multicast:embodiment=6,K=2', topology: fullMesh(4), size: 16 });
    for (const s of [store, ct]) expect(executeSchedule(s).pass).toBe(true);
    // 図40: N=8, K=7: each piece is 1/7 of the message.
    const big = buildSchedule({ collective: 'broadcast', algorithm: 'fullmesh-multicast', topology: fullMesh(8), size: 7 * 64 });
    const r = executeSchedule(big);
    expect(r.pass).toBe(true);
    expect(r.stats.sentBytes[0]).toBe(7 * 64); // the sender puts the message on the wire once, 1/7 per link
  });

  it('refuses K outside the embodiment and non-full-mesh topologies', () => {
    expect(() => buildSchedule({ collective: 'broadcast', algorithm: 'fullmesh-multicast:embodiment=3,K=3', topology: fullMesh(4), size: 16 })).toThrow(/K = N/);
    expect(() => buildSchedule({ collective: 'broadcast', algorithm: 'fullmesh-multicast:K=4', topology: fullMesh(4), size: 16 })).toThrow(InputError);
    expect(() => buildSchedule({ collective: 'broadcast', algorithm: 'fullmesh-multicast', topology: buildTopology('torus:3x3'), size: 16 })).toThrow(/full mesh/);
  });
});

describe('seed 001 1-to-1, scatter/gather and alltoall', () => {
  it('1-to-1 (§2.2, 図38): sender 1 → receiver 2 over the direct link and turnaround node 3', () => {
    const s = buildSchedule({ collective: 'one-to-one', algorithm: 'fullmesh-split:K=1', topology: fullMesh(4), size: 10, root: 0, peer: 1 });
    expect(sends(s)).toEqual(['0>1 p0 direct', '0>1 p1 via2']);
    expect(executeSchedule(s).pass).toBe(true);
    const all = buildSchedule({ collective: 'one-to-one', algorithm: 'fullmesh-split', topology: fullMesh(6), size: 50, root: 3, peer: 1 });
    expect(sends(all).length).toBe(5); // N−1 paths: 1/(N−1) of the time (§2.1)
    expect(executeSchedule(all).pass).toBe(true);
  });

  it('two program groups (図29): two concurrent scatters (and gathers), every block half direct, half via the other group', () => {
    for (const collective of ['scatter', 'gather'] as const) {
      const s = buildSchedule({ collective, algorithm: 'fullmesh-two-group', topology: fullMesh(8), size: 6 });
      expect(s.parts.map((p) => Array.from(p.ranks))).toEqual([[0, 1, 2, 3], [4, 5, 6, 7]]);
      expect(executeSchedule(s).pass).toBe(true);
      const list = sends(s);
      if (collective === 'scatter') expect(list.filter((x) => x.startsWith('0>2'))).toEqual(['0>2 p0 direct', '0>2 p1 via6']);
    }
    expect(() => buildSchedule({ collective: 'scatter', algorithm: 'fullmesh-two-group', topology: fullMesh(5), size: 6 })).toThrow(/even rank count/);
  });

  it('alltoall: direct plus 1-hop split is a correct alltoall for any K', () => {
    for (const K of [0, 1, 3]) {
      const s = buildSchedule({ collective: 'alltoall', algorithm: `fullmesh-turnaround:K=${K}`, topology: fullMesh(5), size: 8 });
      expect(executeSchedule(s).pass).toBe(true);
    }
  });
});

describe('seed 001 embodiments and cases of issue 10, verified byte for byte', () => {
  const run = (collective: 'broadcast' | 'reduce' | 'allreduce' | 'allgather' | 'scatter' | 'gather' | 'one-to-one', algorithm: string, size = 840, root = 2) => {
    const s = buildSchedule({ collective, algorithm, topology: fullMesh(8), size, root, peer: 5 });
    const r = executeSchedule(s);
    expect(r.problems, algorithm).toEqual([]);
    expect(r.pass, algorithm).toBe(true);
    return { s, r };
  };
  it('multicast to X < N receivers (付記16): turnarounds outside the receivers relay without keeping a copy', () => {
    const { s } = run('broadcast', 'fullmesh-multicast:X=4');
    // Receivers 2..5; K = N−1 = 7 turnarounds 3..7,0,1; pieces via 6, 7, 0, 1 reach only the 3 receivers.
    expect(sends(s).filter((x) => x.endsWith('via6'))).toEqual(['2>3,4,5 p3 via6']);
    expect(sends(s).filter((x) => x.endsWith('via3'))).toEqual(['2>3,4,5 p0 via3']);
  });
  it('reduce and allreduce from Y < N senders (付記17/18): turnarounds among the senders, the others idle', () => {
    for (const collective of ['reduce', 'allreduce'] as const) {
      const { s } = run(collective, 'fullmesh-turnaround:embodiment=6,Y=4,K=2');
      const ranks = new Set(Array.from({ length: s.numOps }, (_, op) => s.opRank[op]));
      expect([...ranks].sort(), collective).toEqual(collective === 'reduce' ? [2, 3, 4, 5] : [0, 1, 2, 3]);
    }
  });
  it('allgather as N concurrent multicasts ([0100]); M turnarounds at a time (4th embodiment, [0094]) adds ⌈N/M⌉−1 barriers', () => {
    const free = run('allgather', 'fullmesh-turnaround', 70);
    const m3 = run('allgather', 'fullmesh-turnaround:M=3', 70);
    expect(free.r.messages).toBe(8 * 7 * 7);
    expect(m3.r.messages).toBe(8 * 7 * 7);
    expect(free.r.stats.barriers[0]).toBe(0);
    expect(m3.r.stats.barriers[0]).toBe(2 * 7); // 2 round boundaries on each of rank 0's 7 streams
  });
  it('two-group scatter and gather with unequal groups (図29 generalised): 3 and 5', () => {
    for (const collective of ['scatter', 'gather'] as const) {
      const { s } = run(collective, 'fullmesh-two-group:first=3', 64, 0);
      expect(s.parts.map((p) => Array.from(p.ranks))).toEqual([[0, 1, 2], [3, 4, 5, 6, 7]]);
    }
  });
  it('1-to-1 with K = 1, L = 1 (図38): one piece direct, one via the lowest free node', () => {
    const { s } = run('one-to-one', 'fullmesh-split:K=1,L=1', 840, 0);
    expect(sends(s)).toEqual(['0>5 p0 direct', '0>5 p1 via1']);
  });
});
