/**
 * Issue 16 item 17: an axis of whole numbers (n, ranks, steps) is labelled with whole numbers.
 * Vega's default put ticks at halves and labelled an axis over n = 2..9 "2.0, 2.5, … 9.0".
 */
import { describe, expect, it } from 'vitest';
import { linePlot, renderPlotSvg } from '../../src/index.js';

/** The tick labels of each axis in the rendered SVG, one array per axis. */
function axisLabels(svg: string): string[][] {
  return [...svg.matchAll(/<g class="mark-text role-axis-label"[^>]*>(.*?)<\/g>/gs)].map((m) => [...m[1].matchAll(/>([^<>]+)<\/text>/g)].map((t) => t[1]));
}

describe('integer axes', () => {
  it('n = 2..9 against a fractional time: x labels are whole numbers, y labels keep their decimals', async () => {
    const points = Array.from({ length: 8 }, (_, i) => ({ series: 'steps', x: i + 2, y: 0.35 * (i + 1) }));
    const svg = await renderPlotSvg(linePlot({ id: 'n', title: 't', figure: 'f', x: { title: 'n' }, y: { title: 'time (s)' }, legend: 'l', points }));
    const axes = axisLabels(svg);
    expect(axes.length).toBe(2);
    // The x axis is the one labelled 3 (the y axis runs 0.35 .. 2.8 in halves).
    const x = axes.find((a) => a.includes('3'))!;
    const y = axes.find((a) => a !== x)!;
    expect(x).toEqual(['2', '3', '4', '5', '6', '7', '8', '9']);
    expect(y).toContain('0.5');
  });
});
