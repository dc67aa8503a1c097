/**
 * Issue 28 item 23: the library applies a family's spec defaults (`dragonfly({ h: 2 })` threw
 * `dragonfly.a: got (nothing)`), and `metricsRecord()` is typed field by field. The type checks
 * below are compile-time (`npm run typecheck` covers test/): an untyped record fails them.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { buildTopology, computeMetrics, dragonfly, metricsRecord, type MetricsRecord } from '../../src/index.js';

describe('library defaults and types (issue 28 item 23)', () => {
  it('dragonfly({ h: 2 }) is dragonfly:h=2: a = 2h = 4, p = h = 2, g = a·h + 1 = 9', () => {
    const lib = dragonfly({ h: 2 });
    const spec = buildTopology('dragonfly:h=2');
    expect(lib.params).toMatchObject({ a: 4, p: 2, h: 2, g: 9 });
    // 9 groups x 4 routers x 2 terminals = 72 endpoints; channels 2·72 + 36·3 + 36·2 (Kim et al. 2008).
    expect(lib.numEndpoints).toBe(72);
    expect(lib.numChannels).toBe(2 * 72 + 36 * 3 + 36 * 2);
    expect(Array.from(lib.chDst)).toEqual(Array.from(spec.chDst));
    expect(dragonfly({ h: 2, g: 5 }).numEndpoints).toBe(5 * 4 * 2);
  });

  it('metricsRecord is typed: diameter number | null, histogram number[], bisection fields', () => {
    const record = metricsRecord(computeMetrics(buildTopology('torus:4x4')));
    expectTypeOf(record.diameter).toEqualTypeOf<number | null>();
    expectTypeOf(record.spec).toEqualTypeOf<string>();
    expectTypeOf(record.bisection.channels).toEqualTypeOf<number>();
    expectTypeOf(record).toEqualTypeOf<MetricsRecord>();
    expect(record.diameter).toBe(4);
    expect(record.bisection.channels).toBe(16);
  });
});
