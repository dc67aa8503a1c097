/**
 * Lowering with a topology turns explicit path hints into port walks shared by every rank
 * (routing/hints.ts `ports`): the same routes, so the same timing, with a handful of hints
 * instead of one per (rank, axis, hop count).
 */
import { describe, expect, it } from 'vitest';
import { ScheduleBuilder, buildSchedule, buildTopology, resolveRouting, lowerSchedule, makeRouteBuffers, pathToPorts, routeWithHint, simulateFlow, InputError, SEND, RECV } from '../../../src/index.js';

describe('port-walk hints', () => {
  it('hop-grouped lowered with its topology runs exactly as with node paths, with far fewer hints', () => {
    for (const shape of ['torus:4x4x4', 'torus:3x4x5', 'mesh:4x3x2']) {
      const t = buildTopology(shape);
      const alg = shape.startsWith('mesh') ? 'hop-grouped:dir=shortest' : 'hop-grouped';
      const s = buildSchedule({ collective: 'alltoall', algorithm: alg, topology: t, size: 3 << 10 });
      const paths = lowerSchedule(s);
      const walks = lowerSchedule(s, t);
      expect(paths.hints.length, shape).toBe(s.numHints);
      expect(walks.hints.every((h) => h.kind === 'ports'), shape).toBe(true);
      // At most one walk per (axis, signed hop count, port order at the start node): far below one per rank.
      expect(walks.hints.length * 4, shape).toBeLessThan(s.numHints);
      const a = simulateFlow(t, resolveRouting(t), paths);
      const b = simulateFlow(t, resolveRouting(t), walks);
      expect(b.makespan, shape).toBe(a.makespan);
      expect(Array.from(b.channelBytes), shape).toEqual(Array.from(a.channelBytes));
    }
  });

  it('a path that does not start at its sender keeps the node path, and the engine refuses it', () => {
    const t = buildTopology('torus:4x4');
    const b = new ScheduleBuilder({ collective: 'alltoall', numRanks: 16, size: 4 });
    // Rank 1 sends along 0 -> 1 -> 2: a valid walk, but not from rank 1's node.
    b.send(1, 2, b.block(SEND, 2), 0, 0, b.hint('path', [0, 1, 2]));
    b.recv(2, 1, b.block(RECV, 1));
    const p = lowerSchedule(b.finish(), t);
    expect(p.hints).toEqual([{ kind: 'path', nodes: [0, 1, 2] }]);
    expect(() => simulateFlow(t, resolveRouting(t), p)).toThrow(/route hint\.path/);
  });

  it('routes a walk from any source and refuses one that misses its destination', () => {
    const t = buildTopology('torus:4x4');
    const ports = pathToPorts(t, [0, 1, 2])!;
    const out = makeRouteBuffers(4);
    const scratch = makeRouteBuffers(4);
    // The same walk from node 4 (two steps along axis 0, if the port order is the same there).
    const from4 = pathToPorts(t, [4, 5, 6])!;
    expect(from4).toEqual(ports);
    expect(routeWithHint(t, resolveRouting(t), 4, 6, { kind: 'ports', ports }, 0, out, scratch)).toBe(2);
    expect(Array.from(out.channels.subarray(0, 2))).toEqual([t.channelBetween(4, 5), t.channelBetween(5, 6)]);
    expect(() => routeWithHint(t, resolveRouting(t), 4, 7, { kind: 'ports', ports }, 0, out, scratch)).toThrow(InputError);
    expect(pathToPorts(t, [0, 5])).toBeUndefined();
  });
});
