/**
 * Allocator and arbiter registries (issue 17): built-ins are registered on import, a new arbiter or
 * allocator is one registration, unknown names are refused with the registered ones listed.
 */
import { describe, expect, it } from 'vitest';
import {
  allocatorNames,
  arbiterNames,
  buildTopology,
  registerAllocator,
  registerArbiter,
  simulateTraffic,
  type LoadPoint,
} from '../../../src/index.js';
import { IslipAllocator } from '../../../src/sim/packet/allocators/islip.js';
import { bookSimNames, getArbiter } from '../../../src/sim/packet/allocators/registry.js';
import { SeparableAllocator } from '../../../src/sim/packet/allocators/separable.js';
import { WavefrontAllocator } from '../../../src/sim/packet/allocators/wavefront.js';
import { PimAllocator } from '../../../src/sim/packet/allocators/pim.js';
import { MaxSizeAllocator } from '../../../src/sim/packet/allocators/max-size.js';
import { LonelyOutputAllocator } from '../../../src/sim/packet/allocators/loa.js';

const run = (config: Record<string, unknown>): LoadPoint =>
  simulateTraffic({ topology: buildTopology('mesh:4x4'), pattern: 'uniform', rates: [0.3], preset: 'booksim', config: { seed: 1, ...config } }).points[0] as LoadPoint;

describe('allocator and arbiter registries', () => {
  it('hold the built-ins with their BookSim names', () => {
    expect(arbiterNames()).toEqual(expect.arrayContaining(['round-robin', 'age']));
    expect(allocatorNames()).toContain('islip');
    expect(bookSimNames('arbiter')).toEqual(expect.arrayContaining(['round_robin', 'age']));
    expect(bookSimNames('allocator')).toContain('islip');
    // Round-robin: the requester at the pointer wins, then the ones after it, wrapping.
    expect([0, 1, 2, 3].map((r) => getArbiter('round-robin').key(0, r, 2, 4))).toEqual([2, 3, 0, 1]);
    // Age: the older packet wins whatever the pointer says.
    expect(getArbiter('age').key(5, 2, 2, 4)).toBeGreaterThan(getArbiter('age').key(4, 1, 2, 4));
  });

  it('refuses an unknown name, listing the registered ones', () => {
    expect(() => run({ arbitration: 'lottery' })).toThrow(/arbitration: got "lottery"; accepted: round-robin \| age/);
    expect(() => run({ allocator: 'lottery-match' })).toThrow(/allocator: got "lottery-match"; accepted: islip/);
  });

  it('a newly registered arbiter and allocator are usable by name, and change the result', () => {
    // Fixed priority: the lowest-numbered requester always wins (no rotation).
    registerArbiter({ name: 'test-fixed-priority', description: 'lowest index wins', key: (_c, requester) => requester });
    registerAllocator({ name: 'test-islip-copy', description: 'iSLIP under another name', create: (i, o, r) => new IslipAllocator(i, o, r) });
    const base = run({});
    expect(run({ allocator: 'test-islip-copy' })).toEqual(base);
    const fixed = run({ arbitration: 'test-fixed-priority' });
    expect(fixed.packet_latency).not.toBe(base.packet_latency);
  });
});

describe("wavefront allocators (BookSim's wavefront.cpp)", () => {
  const grants = (a: WavefrontAllocator, requests: [number, number][], grantPtr: Int32Array): number[] => {
    a.reset();
    for (const [i, o] of requests) a.add(i, o, 0);
    a.allocate(1, grantPtr, 0, new Int32Array(3), 0);
    return [0, 1, 2].map((i) => (requests.some(([r]) => r === i) ? a.matchOfIn[i] : -1));
  };
  it("sweeps diagonals from the priority diagonal, outputs in order, as BookSim's loop input = (pri + p + side − output) mod side", () => {
    const a = new WavefrontAllocator(false, 3, 3, 8);
    const ptr = new Int32Array(1);
    const requests: [number, number][] = [[0, 0], [0, 1], [1, 0], [2, 2], [1, 2]];
    // pri 0, diagonal 0: output 0 takes input 0, output 2 input 1; input 2's only request (output 2) is taken.
    expect(grants(a, requests, ptr)).toEqual([0, 2, -1]);
    expect(ptr[0]).toBe(1);
    // pri 1, diagonal 0 holds (1, 0), (0, 1) and (2, 2): a full match.
    expect(grants(a, requests, ptr)).toEqual([1, 0, 2]);
    expect(ptr[0]).toBe(2);
  });
  it('rr_wavefront starts the next sweep one past the first diagonal granted; wavefront one past its own', () => {
    // From pri 0, (0, 1) lies on diagonal 1 and is granted first (0 + 1 = 1): rr_wavefront moves to 2, wavefront to 1.
    const requests: [number, number][] = [[0, 1], [0, 2]];
    const rr = new Int32Array(1);
    const plain = new Int32Array(1);
    expect(grants(new WavefrontAllocator(true, 3, 3, 8), requests, rr)).toEqual([1, -1, -1]);
    expect(grants(new WavefrontAllocator(false, 3, 3, 8), requests, plain)).toEqual([1, -1, -1]);
    expect([rr[0], plain[0]]).toEqual([2, 1]);
  });
  it("places requests by the router's port geometry where given (BookSim's port numbers, its own square)", () => {
    // Inputs 0 and 1 both request output 0, swept from priority diagonal 2. In the engine's indices
    // (square of 4) they lie on diagonals 2 and 3 from it: input 0 wins, the pointer moves to 3. As
    // BookSim's ports 1 and 0, output 0, in a square of 3: diagonals 2 and 1, input 1 wins, and the
    // pointer wraps to 0.
    const sweep = (geometry: boolean): number[] => {
      const a = new WavefrontAllocator(false, 4, 4, 8);
      if (geometry) a.portGeometry({ inIndex: Int32Array.of(1, 0), outIndex: Int32Array.of(0), side: Int32Array.of(3), inputs: Int32Array.of(2), outputs: Int32Array.of(1) });
      const ptr = Int32Array.of(2);
      a.reset();
      a.add(0, 0, 0);
      a.add(1, 0, 0);
      a.allocate(1, ptr, 0, new Int32Array(4), 0);
      return [a.matchOfIn[0], a.matchOfIn[1], ptr[0]];
    };
    expect(sweep(false)).toEqual([0, -1, 3]);
    expect(sweep(true)).toEqual([-1, 0, 0]);
  });
  it('sweeps a higher input priority first (BookSim in_pri)', () => {
    const a = new WavefrontAllocator(false, 3, 3, 8);
    a.reset();
    a.addPrioritized(0, 0, 0, 0, 0);
    a.addPrioritized(1, 0, 0, 0, 1);
    a.allocate(1, new Int32Array(1), 0, new Int32Array(3), 0);
    expect([a.matchOfIn[0], a.matchOfIn[1]]).toEqual([-1, 0]);
  });
});

describe("parallel iterative matching (BookSim's pim.cpp)", () => {
  const match = (a: PimAllocator, requests: [number, number][], iterations: number): number[] => {
    a.reset();
    for (const [i, o] of requests) a.add(i, o, 0);
    a.allocate(iterations);
    return requests.map(([i]) => a.matchOfIn[i]);
  };

  it('matches only requested pairs, each input and output at most once; more iterations fill a maximal matching', () => {
    // Inputs 0-2 all want outputs 0 and 1, input 3 wants output 2.
    const requests: [number, number][] = [[0, 0], [0, 1], [1, 0], [1, 1], [2, 0], [2, 1], [3, 2]];
    const a = new PimAllocator(4, 3, 16, 5);
    for (let round = 0; round < 200; round++) {
      a.reset();
      for (const [i, o] of requests) a.add(i, o, 0);
      const n = a.allocate(4);
      const outs = [0, 1, 2, 3].map((i) => a.matchOfIn[i]).filter((o) => o >= 0);
      expect(new Set(outs).size).toBe(outs.length);
      for (const [i, o] of [0, 1, 2, 3].map((i) => [i, a.matchOfIn[i]])) if (o >= 0) expect(requests).toContainEqual([i, o]);
      // Four iterations always reach the maximum here: outputs 0 and 1 to two of inputs 0-2, 2 to 3.
      expect(n).toBe(3);
      expect(a.matchOfIn[3]).toBe(2);
    }
  });

  it('grants from a random offset: two inputs on one output each win about half the time; the same seed, the same draws', () => {
    const a = new PimAllocator(8, 8, 16, 1);
    let first = 0;
    const wins: number[] = [];
    for (let round = 0; round < 4000; round++) {
      const m = match(a, [[2, 5], [6, 5]], 1);
      if (m[0] === 5) first++;
      wins.push(m[0]);
    }
    expect(first / 4000).toBeGreaterThan(0.45);
    expect(first / 4000).toBeLessThan(0.55);
    const again = new PimAllocator(8, 8, 16, 1);
    expect(Array.from({ length: 4000 }, () => match(again, [[2, 5], [6, 5]], 1)[0])).toEqual(wins);
  });
});

describe("maximum-size matching (BookSim's maxsize.cpp)", () => {
  const match = (a: MaxSizeAllocator, requests: [number, number][], ptr: Int32Array): number[] => {
    a.reset();
    for (const [i, o] of requests) a.add(i, o, 0);
    a.allocate(1, ptr, 0);
    return [0, 1, 2, 3].map((i) => a.matchOfIn[i]);
  };

  it('augments past a greedy first choice: every input matched where a maximum matching does it', () => {
    // Input 0 could take output 0 first and strand input 1; the augmenting path moves it to output 1.
    const ptr = new Int32Array(1);
    expect(match(new MaxSizeAllocator(4, 4, 16), [[0, 0], [0, 1], [1, 0]], ptr)).toEqual([1, 0, -1, -1]);
    // A chain whose only perfect matching shifts every input off its first choice: 3 wants 0 alone.
    expect(match(new MaxSizeAllocator(4, 4, 16), [[0, 0], [0, 1], [1, 1], [1, 2], [2, 2], [2, 3], [3, 0]], new Int32Array(1))).toEqual([1, 2, 3, 0]);
  });

  it('starts from a priority input that moves by one per allocation: two inputs on one output take turns', () => {
    const a = new MaxSizeAllocator(2, 1, 4);
    const ptr = new Int32Array(1);
    const winners = Array.from({ length: 6 }, () => match(a, [[0, 0], [1, 0]], ptr).indexOf(0));
    expect(winners).toEqual([0, 1, 0, 1, 0, 1]);
  });
});

describe("the lonely output allocator (BookSim's loa.cpp)", () => {
  it('each input requests its least requested output; outputs grant round-robin; a grant moves both pointers by one', () => {
    const a = new LonelyOutputAllocator(3, 3, 8);
    const grantPtr = new Int32Array(3);
    const requestPtr = new Int32Array(3);
    const run = (requests: [number, number][]): number[] => {
      a.reset();
      for (const [i, o] of requests) a.add(i, o, 0);
      a.allocate(1, grantPtr, 0, requestPtr, 0);
      // matchOfIn holds only the inputs that requested.
      return [0, 1, 2].map((i) => (requests.some(([r]) => r === i) ? a.matchOfIn[i] : -1));
    };
    // Output 0 has three requesters, output 1 one: input 0 asks for 1 (lonely), inputs 1 and 2 for 0,
    // which grants input 1 (first from its pointer, 0): one pass leaves input 2 unmatched.
    expect(run([[0, 0], [0, 1], [1, 0], [2, 0]])).toEqual([1, 0, -1]);
    expect([...grantPtr, ...requestPtr]).toEqual([1, 1, 0, 1, 1, 0]);
    // Output 0's pointer is now 1: input 1 again, then 2 once the pointer has moved past 1.
    expect(run([[1, 0], [2, 0]])).toEqual([-1, 0, -1]);
    expect(run([[1, 0], [2, 0]])).toEqual([-1, -1, 0]);
  });
});

describe("BookSim's select (selalloc.cpp): iSLIP whose inputs accept by input priority", () => {
  it('an input granted two outputs takes the higher input priority, where plain iSLIP takes the one nearest its pointer', () => {
    const pick = (a: IslipAllocator): number => {
      a.reset();
      // Input 0 requests output 0 at priority 0 and output 2 at priority 1; both outputs grant it.
      a.addPrioritized(0, 0, 0, 0, 0);
      a.addPrioritized(0, 2, 0, 0, 1);
      a.allocate(1, new Int32Array(3), 0, new Int32Array(1), 0);
      return a.matchOfIn[0];
    };
    expect(pick(new IslipAllocator(1, 3, 4, true))).toBe(2);
    expect(pick(new IslipAllocator(1, 3, 4))).toBe(0);
  });
});

describe('separable allocators (BookSim separable_input_first / separable_output_first)', () => {
  // Requests: input 0 -> outputs 0 and 1, input 1 -> output 0. Pointers at 0, round-robin keys by
  // the output's pointer (input index here).
  function match(order: 'input-first' | 'output-first'): { pairs: number[]; grant: number[]; accept: number[] } {
    const a = new SeparableAllocator(order, 2, 2, 4);
    a.add(0, 0, 0);
    a.add(0, 1, 0);
    a.add(1, 0, 1);
    const grant = new Int32Array(2);
    const accept = new Int32Array(2);
    a.allocate(1, grant, 0, accept, 0);
    return { pairs: [a.matchOfIn[0], a.matchOfIn[1]], grant: [...grant], accept: [...accept] };
  }

  it('input first: both inputs pick output 0 (nearest their pointer), output 0 takes input 0, input 1 is left unmatched', () => {
    // A separable allocator makes one pass: output 1 stays idle although input 0 asked for it.
    expect(match('input-first')).toEqual({ pairs: [0, -1], grant: [1, 0], accept: [1, 0] });
  });

  it('output first: output 0 grants input 0, output 1 grants input 0, input 0 accepts output 0; input 1 unmatched', () => {
    expect(match('output-first')).toEqual({ pairs: [0, -1], grant: [1, 0], accept: [1, 0] });
  });

  it('the two orders differ when an input picks an output that prefers another input', () => {
    // Input 0 -> outputs 0 and 1, input 1 -> output 1; input 0's pointer is at output 1, output 1
    // prefers input 1 (key 0).
    const run2 = (order: 'input-first' | 'output-first'): number[] => {
      const a = new SeparableAllocator(order, 2, 2, 4);
      a.add(0, 0, 0);
      a.add(0, 1, 1);
      a.add(1, 1, 0);
      const accept = new Int32Array([1, 0]);
      a.allocate(1, new Int32Array(2), 0, accept, 0);
      return [a.matchOfIn[0], a.matchOfIn[1]];
    };
    // Input first: input 0 picks output 1, input 1 picks output 1; output 1 takes input 1 (key 0).
    expect(run2('input-first')).toEqual([-1, 1]);
    // Output first: output 0 grants input 0, output 1 grants input 1; both accept: a full match.
    expect(run2('output-first')).toEqual([0, 1]);
  });

  it("input arbiters take the higher input priority first, then round-robin (BookSim's RoundRobinArbiter; min_adapt's priorities)", () => {
    // Input 0 -> output 0 at priority 0 and output 1 at priority 1, pointer at output 0: priority wins.
    for (const order of ['input-first', 'output-first'] as const) {
      const a = new SeparableAllocator(order, 1, 2, 2);
      a.addPrioritized(0, 0, 0, 0, 0);
      a.addPrioritized(0, 1, 0, 0, 1);
      a.allocate(1, new Int32Array(2), 0, new Int32Array(1), 0);
      expect(a.matchOfIn[0], order).toBe(1);
    }
    // iSLIP ignores it, as BookSim's iSLIP_Sparse: the output nearest the pointer.
    const islip = new IslipAllocator(1, 2, 2);
    islip.addPrioritized(0, 0, 0, 0, 0);
    islip.addPrioritized(0, 1, 0, 0, 1);
    islip.allocate(1, new Int32Array(2), 0, new Int32Array(1), 0);
    expect(islip.matchOfIn[0]).toBe(0);
  });
});


describe("vc_prioritize_empty (BookSim's iq_router.cpp _VCAllocEvaluate: in_priority + INT_MIN for a VC that holds flits)", () => {
  it('an input arbiter prefers an empty output VC over one nearer its pointer, whatever the routing priority', () => {
    // Input 0 requests output VCs 0 (holding flits: priority 1 − 2^31) and 1 (empty: priority 0).
    const a = new SeparableAllocator('input-first', 1, 2, 2);
    a.addPrioritized(0, 0, 0, 0, 1 - 2 ** 31);
    a.addPrioritized(0, 1, 0, 0, 0);
    a.allocate(1, new Int32Array(2), 0, new Int32Array(1), 0);
    expect(a.matchOfIn[0]).toBe(1);
  });

  it('changes a run under a separable VC allocator, and nothing under iSLIP, which never reads input priorities', () => {
    const sep = { allocator: 'separable-input-first', vcs: 4, vcBuf: 4, packetSize: 4 };
    const islip = { vcs: 4, vcBuf: 4, packetSize: 4 };
    expect(run({ ...islip, vcPrioritizeEmpty: true })).toEqual(run(islip));
    expect(run({ ...sep, vcPrioritizeEmpty: true }).packet_latency).not.toBe(run(sep).packet_latency);
    expect(() => run({ vcPrioritizeEmpty: 1 })).toThrow(/vc-prioritize-empty: got 1; accepted: true \| false/);
  });
});

describe("vc_shuffle_requests and vc_priority_donation (BookSim's iq_router.cpp and vc.cpp)", () => {
  const base = { vcs: 4, vcBuf: 4, packetSize: 4 };
  it('shuffling numbers VC requesters VC-major: the round-robin order, so the run, changes', () => {
    const mesh8 = (config: Record<string, unknown>): number | null =>
      (simulateTraffic({ topology: buildTopology('mesh:8x8'), pattern: 'uniform', rates: [0.35], preset: 'booksim', config: { seed: 1, ...base, ...config } }).points[0] as LoadPoint).packet_latency;
    expect(mesh8({ vcShuffleRequests: true })).not.toBe(mesh8({}));
  });

  it('donation lets a VC compete with its best flit under age, and changes nothing under local-age or queue-length, as in BookSim', () => {
    const sep = { ...base, allocator: 'separable-input-first' };
    // Donation reads the flits that have arrived (BookSim's VC buffer): at 0.45 on this mesh a VC
    // often holds a second packet's flits behind its first (at 0.3 it never changes a grant).
    const at45 = (config: Record<string, unknown>): LoadPoint =>
      simulateTraffic({ topology: buildTopology('mesh:4x4'), pattern: 'uniform', rates: [0.45], preset: 'booksim', config: { seed: 1, ...config } }).points[0] as LoadPoint;
    expect(at45({ ...sep, arbitration: 'age', vcPriorityDonation: true }).packet_latency).not.toBe(at45({ ...sep, arbitration: 'age' }).packet_latency);
    for (const arbitration of ['local-age', 'queue-length']) expect(at45({ ...sep, arbitration, vcPriorityDonation: true }), arbitration).toEqual(at45({ ...sep, arbitration }));
    expect(() => run({ vcPriorityDonation: 'yes' })).toThrow(/vc-priority-donation: got "yes"; accepted: true \| false/);
  });
});
