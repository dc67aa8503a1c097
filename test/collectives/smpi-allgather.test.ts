/**
 * SimGrid SMPI 3.32's allgather algorithms beyond NTSLR, ring, rdb, bruck and neighbor exchange
 * (src/smpi/colls/allgather/*.cpp): each name builds the Meshwork variant that sends SMPI's messages in
 * SMPI's order, delivers every block byte for byte, and is refused in one line where SMPI itself throws.
 * Timings against smpirun: test/reference/simgrid/smpi-cases/*allgather-{pair,rhv,...}.json.
 */
import { describe, expect, it } from 'vitest';
import { buildSchedule, buildTopology, estimateSchedule, executeSchedule, OpKind, smpiSelectorChoice, type Schedule } from '../../src/index.js';
import { NotApplicableError } from '../../src/util/errors.js';
import { expectDeclaredIsLowered } from '../sim/flow/representatives-helpers.js';

const build = (algorithm: string, n: number, size = 8) => buildSchedule({ collective: 'allgather', algorithm, topology: buildTopology(`torus:${n}`), size });

/** Rank `rank`'s sends in program order as [destination, bytes]. */
function sendsOf(s: Schedule, rank: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (let op = 0; op < s.numOps; op++) if (s.opRank[op] === rank && s.opKind[op] === OpKind.Send) out.push([s.sendDests(op)[0], s.regionBytes(s.dataRegion(op))]);
  return out;
}

/** Rank `rank`'s ops as their kind words ("copy", "isend", "wait", ...), after its first `skip`. */
function kindsOf(s: Schedule, rank: number, skip = 0): string[] {
  const ops = Array.from({ length: s.numOps }, (_, op) => op).filter((op) => s.opRank[op] === rank);
  return ops.slice(skip).map((op) => s.describeOp(op).split(' ')[0]);
}

/** init_smp on 5 ranks, rank 2's sends: two shift rings of 4 B (to 3, 4, 0, 1), the flag to 0, the flag on to 3. */
const PRELUDE_5 = [[3, 4], [4, 4], [0, 4], [1, 4], [3, 4], [4, 4], [0, 4], [1, 4], [0, 4], [3, 4]];
/** Rank 2's ops in init_smp on 5 ranks (8 sendrecvs, the flag's send, the broadcast's receive and send). */
const PRELUDE_5_OPS = 19;

describe("SMPI 3.32's allgather names: the exact variants", () => {
  const names: Array<[string, string]> = [
    ['pair', 'ring:order=xor'],
    ['rhv', 'recursive-doubling:order=far-first'],
    ['spreading_simple', 'linear:order=next,recvs=first'],
    ['GB', 'gather-broadcast'],
    ['2dmesh', 'mesh:dims=2'],
    ['3dmesh', 'mesh:dims=3'],
    ['loosely_lr', 'ring:recvs=per-step,sends=at-end,smp=true'],
    ['SMP_NTS', 'ring:recvs=preposted,sends=at-end,smp=true'],
    ['smp_simple', 'linear:recvs=first,smp=true'],
  ];

  it('resolves each name to its variant and records the alias; every one moves the data byte for byte on 1 to 20, 27 and 64 ranks where SMPI runs it', () => {
    for (const [name, spec] of names) {
      let ran = 0;
      for (const n of [...Array.from({ length: 20 }, (_, i) => i + 1), 27, 64]) {
        let s: Schedule;
        try {
          s = build(name, n, 12);
        } catch (e) {
          expect(e, `${name} on ${n}`).toBeInstanceOf(NotApplicableError);
          continue;
        }
        expect(s.algorithmSpec).toBe(spec);
        expect(s.algorithmAlias).toBe(`${name} (SimGrid SMPI 3.32 allgather)`);
        const r = executeSchedule(s);
        expect(r.problems, `${name} on ${n}`).toEqual([]);
        expect(r.pass).toBe(true);
        ran++;
      }
      expect(ran, name).toBeGreaterThanOrEqual(5);
    }
  });

  it('refuses in one line where SMPI throws: pair and rhv off a power of two, 2dmesh and 3dmesh where SMPI cannot factor the rank count', () => {
    expect(() => build('pair', 6)).toThrow(/^algorithm: got "ring:order=xor"; .*order=xor needs a power-of-two rank count, got 6 \(SMPI's pair throws there too\)$/);
    expect(() => build('rhv', 12)).toThrow(/order=far-first needs a power-of-two rank count, got 12 \(SMPI's rhv throws there too\)$/);
    expect(() => build('2dmesh', 7)).toThrow(/a rank count SMPI's 2dmesh factors \(a divisor from floor\(sqrt n\) to n\/2\), got 7: smpirun aborts there/);
    expect(() => build('3dmesh', 10)).toThrow(/a rank count SMPI's 3dmesh factors \(x from floor\(cbrt n\) to n\/3 with x² dividing n\), got 10/);
    for (const [name, n] of [['pair', 12], ['2dmesh', 13], ['3dmesh', 2]] as const) expect(() => build(name, n)).toThrow(NotApplicableError);
    // Digits before the first letter name an algorithm (SMPI's 2dmesh); digits alone still do not.
    expect(() => build('0', 4)).toThrow(/an algorithm name of letters, digits/);
  });

  it('pair swaps the own block with rank XOR 1, 2, ..., n − 1, one blocking sendrecv each; rhv first swaps with rank bitreverse(r), then XOR n/2 .. 1 with doubling ranges', () => {
    const pair = build('pair', 8);
    expect(sendsOf(pair, 5)).toEqual([4, 7, 6, 1, 0, 3, 2].map((d) => [d, 8]));
    expect(kindsOf(pair, 5)).toEqual(['copy', ...Array(7).fill(['send', 'recv']).flat()]);
    const rhv = build('rhv', 8);
    // Rank 1 = 001: bitreverse 100 = 4, then partners 1 ^ 4, 1 ^ 2, 1 ^ 1 with 1, 2 and 4 blocks.
    expect(sendsOf(rhv, 1)).toEqual([[4, 8], [5, 8], [3, 16], [0, 32]]);
    // Rank 0 and rank 2 (= 010, its own bitreverse) copy their block in place first.
    expect(kindsOf(rhv, 2)[0]).toBe('copy');
    expect(sendsOf(rhv, 2)).toEqual([[6, 8], [0, 16], [3, 32]]);
  });

  it('spreading_simple posts every irecv (from r + 1, r + 2, ...) before its isends to r + 1, r + 2, ...; smp_simple, after init_smp, receives from r − 1, r − 2, ...', () => {
    const spreading = build('spreading_simple', 5);
    expect(kindsOf(spreading, 2)).toEqual(['copy', 'irecv', 'irecv', 'irecv', 'irecv', 'isend', 'isend', 'isend', 'isend', 'waitall']);
    expect(sendsOf(spreading, 2)).toEqual([3, 4, 0, 1].map((d) => [d, 8]));
    const recvFroms = (s: Schedule, rank: number) => Array.from({ length: s.numOps }, (_, op) => op).filter((op) => s.opRank[op] === rank && s.opKind[op] === OpKind.Recv && s.regionBytes(s.dataRegion(op)) === 8).map((op) => s.opPeer[op]);
    expect(recvFroms(spreading, 2)).toEqual([3, 4, 0, 1]);
    const simple = build('smp_simple', 5);
    expect(sendsOf(simple, 2)).toEqual([...PRELUDE_5, ...[3, 4, 0, 1].map((d) => [d, 8])]);
    expect(recvFroms(simple, 2)).toEqual([1, 0, 4, 3]);
  });

  it('loosely_lr: init_smp, then per step an irecv from r − 1, the isend to r + 1, a wait for the receive, the sends waited at the end; SMP_NTS posts every receive first', () => {
    const loose = build('loosely_lr', 5);
    expect(sendsOf(loose, 2)).toEqual([...PRELUDE_5, ...Array(4).fill([3, 8])]);
    expect(kindsOf(loose, 2, PRELUDE_5_OPS)).toEqual(['copy', ...Array(4).fill(['irecv', 'isend', 'wait']).flat(), 'waitall']);
    const nts = build('SMP_NTS', 5);
    expect(kindsOf(nts, 2, PRELUDE_5_OPS)).toEqual(['copy', 'irecv', 'irecv', 'irecv', 'irecv', ...Array(4).fill(['isend', 'wait']).flat(), 'waitall']);
    // NTSLR_NB, the same ring, waits for each isend in its step.
    expect(kindsOf(build('NTSLR_NB', 5), 2).slice(5, 8)).toEqual(['isend', 'wait', 'wait']);
  });

  it('GB gathers every block to rank 0 (all receives posted at once), then broadcasts the n blocks down the binomial tree from rank 0, farthest subtree first', () => {
    const gb = build('GB', 8);
    expect(sendsOf(gb, 0)).toEqual([[4, 64], [2, 64], [1, 64]]);
    expect(sendsOf(gb, 6)).toEqual([[0, 8], [7, 64]]);
    expect(kindsOf(gb, 0)).toEqual(['copy', ...Array(7).fill('irecv'), 'waitall', 'send', 'send', 'send']);
  });

  it('2dmesh on 12 ranks is 3 rows of 4: rows swap blocks, columns swap rows; 3dmesh on 12 is 2 × 2 × 3: rows, columns, then planes from rank + 4 and + 8', () => {
    const mesh2 = build('2dmesh', 12);
    // Rank 5: row 4..7, column 1, 5, 9; every phase's irecvs first, then blocking sends, then a waitall.
    expect(sendsOf(mesh2, 5)).toEqual([[4, 8], [6, 8], [7, 8], [1, 32], [9, 32]]);
    expect(kindsOf(mesh2, 5)).toEqual(['copy', 'irecv', 'irecv', 'irecv', 'send', 'send', 'send', 'waitall', 'irecv', 'irecv', 'send', 'send', 'waitall']);
    const mesh3 = build('3dmesh', 12);
    expect(sendsOf(mesh3, 5)).toEqual([[4, 8], [7, 16], [9, 32], [1, 32]]);
    // 18 ranks: SMPI's first divisor from floor(sqrt 18) = 4 is 6, swapped to 3 rows of 6.
    expect(sendsOf(build('2dmesh', 18), 0)).toEqual([[1, 8], [2, 8], [3, 8], [4, 8], [5, 8], [6, 48], [12, 48]]);
    // 64 ranks: 8 × 8 and 4 × 4 × 4, as SMPI factors them.
    expect(sendsOf(build('2dmesh', 64), 0).map(([, bytes]) => bytes)).toEqual([...Array(7).fill(8), ...Array(7).fill(64)]);
    expect(sendsOf(build('3dmesh', 64), 0).map(([, bytes]) => bytes)).toEqual([...Array(3).fill(8), ...Array(3).fill(32), ...Array(3).fill(128)]);
  });

  it("each smp=true variant is init_smp's messages, then the plain variant's, byte for byte", () => {
    for (const plain of ['bruck', 'gather-broadcast', 'linear:recvs=first', 'ring:recvs=per-step,sends=at-end', 'ring:recvs=preposted,sends=at-end']) {
      const smp = `${plain}${plain.includes(':') ? ',' : ':'}smp=true`;
      for (const n of [1, 2, 5, 13]) {
        const r = executeSchedule(build(smp, n));
        expect(r.problems, `${smp} on ${n}`).toEqual([]);
        expect(r.pass).toBe(true);
      }
      expect(sendsOf(build(smp, 5), 2), smp).toEqual([...PRELUDE_5, ...sendsOf(build(plain, 5), 2)]);
    }
  });

  it("mvapich2_smp is init_smp, then MPICH's allgather over the leaders (every rank): rdb, bruck or the shift ring by the gathered total", () => {
    const spec = (size: number, n: number) => build('mvapich2_smp', n, size).algorithmSpec;
    expect(spec(1024, 64)).toBe('recursive-doubling:smp=true');
    expect(spec(65536, 64)).toBe('ring:order=shift,smp=true');
    expect(spec(1024, 12)).toBe('bruck:smp=true');
    expect(spec(8192, 12)).toBe('ring:order=shift,smp=true');
    expect(build('mvapich2_smp', 12, 1024).algorithmAlias).toBe('mvapich2_smp → bruck:smp=true at 1024 B on 12 ranks (SimGrid SMPI 3.32 allgather)');
    for (const n of [1, 2, 5, 13]) expect(executeSchedule(build('mvapich2_smp', n, 24)).pass).toBe(true);
  });

  it("selectors: the ompi allgather's pair on 2 ranks and the impi allgather's GB now run", () => {
    expect(smpiSelectorChoice('allgather', 'ompi', 1 << 20, 2)).toBe('pair');
    expect(build('ompi', 2, 1 << 20).algorithmSpec).toBe('ring:order=xor');
    expect(smpiSelectorChoice('allgather', 'impi', 1024, 64)).toBe('init_smp+GB');
    expect(build('impi', 64, 1024).algorithmSpec).toBe('gather-broadcast:smp=true');
  });

  it('the ring declares its size for the new orders and waits, and pair its XOR equivariance', () => {
    for (const algorithm of ['ring:order=xor', 'ring:recvs=per-step,sends=at-end', 'ring:recvs=preposted,sends=at-end,smp=true', 'ring:recvs=preposted', 'ring:recvs=per-step']) {
      for (const n of [1, 2, 8]) {
        const req = { collective: 'allgather' as const, algorithm, topology: buildTopology(`torus:${n}`), size: 8 };
        const s = buildSchedule(req);
        let messages = 0;
        for (let o = 0; o < s.numOps; o++) if (s.opKind[o] === OpKind.Send) messages += s.sendDests(o).length;
        expect(estimateSchedule(req), `${algorithm} on ${n}`).toEqual({ ops: s.numOps, messages });
      }
    }
    const { decl } = expectDeclaredIsLowered({ collective: 'allgather', algorithm: 'pair', topology: buildTopology('torus:4x4'), size: 4096 });
    expect(decl.streams.action).toBe('xor');
  });
});
