import { describe, expect, it } from 'vitest';
import { buildTopology } from '../../../src/topology/registry.js';
import { checkFlowCollectiveSize, MAX_ALLTOALL_BLOCKS, runCollectiveFlow } from '../../../src/sim/flow/collective-run.js';
import { LimitError } from '../../../src/util/errors.js';

describe('flow-level size limit', () => {
  it('refuses alltoall on a 32×32×32 torus (2^30 blocks > 2^27) before building the schedule', () => {
    const t = buildTopology('torus:32x32x32');
    // 32768 × 32767 blocks, far above the limit: a LimitError naming it, not an exhausted heap.
    expect(() => runCollectiveFlow({ topology: t, collective: 'alltoall', algorithm: 'hop-grouped', size: 1 << 20 })).toThrow(LimitError);
    expect(() => checkFlowCollectiveSize('alltoall', t)).toThrow(/134217728 alltoall blocks \(2\^27, 11585 ranks\)/);
  });

  it('accepts the largest rank count under the limit and other collectives of that size', () => {
    // 11585 × 11584 = 134,200,640 ≤ 2^27 = 134,217,728 < 11586 × 11585.
    expect(11585 * 11584).toBeLessThanOrEqual(MAX_ALLTOALL_BLOCKS);
    expect(11586 * 11585).toBeGreaterThan(MAX_ALLTOALL_BLOCKS);
    const t = buildTopology('torus:16x16x16');
    expect(() => checkFlowCollectiveSize('alltoall', t)).not.toThrow();
    expect(() => checkFlowCollectiveSize('allgather', buildTopology('torus:32x32x32'))).not.toThrow();
  });
});
