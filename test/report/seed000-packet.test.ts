import { describe, expect, it } from 'vitest';
import { seed000 } from '../../src/analysis/reproduce/seed000.js';
import { buildTopology } from '../../src/topology/index.js';

describe('seed 000 quick: packet level and link heatmap', () => {
  it('heatmap cells are utilisations and integrate to every block times its hop distance', async () => {
    const r = await seed000.run({ quick: true, progress() {} });
    const heat = r.plots.find((p) => p.id === '000-link-heatmap')!;
    const cells = (heat.spec as unknown as { data: { values: { row: string; col: number; v: number }[] } }).data.values;
    const cols = [...new Set(cells.map((c) => c.col))].sort((a, b) => a - b);
    const width = cols[1] - cols[0];
    const topo = buildTopology('torus:8x8');
    // 8x8 torus: 4 links out of each of 64 routers.
    expect(new Set(cells.map((c) => c.row)).size).toBe(256);
    for (const c of cells) {
      expect(c.v).toBeGreaterThanOrEqual(0);
      expect(c.v).toBeLessThanOrEqual(1 + 1e-9);
    }
    const linkBytes = cells.reduce((s, c) => s + c.v, 0) * topo.chBandwidth[0] * width;
    // Hop-grouped moves every block in the + direction of each axis (spec §8 item 12: offsets
    // 0..7 hops on a ring of 8, summing to 28 per axis), so each source moves 2 × 8 × 28 = 448
    // block-hops; 64 sources; quick flow blocks are 4096 bytes.
    expect(linkBytes / (64 * 448 * 4096)).toBeCloseTo(1, 6);
    const packet = r.tables.find((t) => t.id === '000-packet')!;
    // Every packet-level makespan respects the topology bound (efficiency at most 1).
    for (const row of packet.rows) expect(Number(row[6])).toBeLessThanOrEqual(1);
    expect(packet.rows.filter((row) => row[3] === 'age').length).toBe(4);
  });
});
