/**
 * The plot of `meshwork traffic --plot`: mean packet latency against accepted throughput (BookSim
 * measurement) or against packets delivered in the horizon (seed 004's fixed-horizon mode).
 */
import type { HorizonPoint, TrafficSweepResult } from '../sim/packet/traffic-run.js';
import type { LoadPoint } from '../sim/packet/measure.js';
import { linePlot, type Plot, type ReferenceMark, type SeriesPoint } from './plot.js';

export function isHorizon(p: LoadPoint | HorizonPoint): p is HorizonPoint {
  return 'delivered' in p;
}

export function trafficPlot(result: TrafficSweepResult, logX: boolean): Plot {
  const horizon = result.measurement === 'horizon';
  const points: SeriesPoint[] = [];
  // Rates with no latency to draw: saturated (BookSim measurement) or nothing delivered (horizon).
  const undrawn: number[] = [];
  for (const p of result.points) {
    const x = isHorizon(p) ? p.delivered : p.accepted_flit_rate;
    const y = isHorizon(p) ? p.meanLatency : p.packet_latency;
    if (x === null || y === null || (logX && x <= 0)) undrawn.push(p.rate);
    else points.push({ series: result.pattern, x, y });
  }
  const marks: ReferenceMark[] = [];
  const notes: string[] = [];
  if (result.saturationRate !== null) {
    const threshold = 'latencyThreshold' in result.measurementOptions ? result.measurementOptions.latencyThreshold : undefined;
    const why = `saturated from offered rate ${result.saturationRate}${threshold === undefined ? '' : ` (latency > ${threshold} cycles)`}`;
    // The line sits at the most throughput a drawn point accepted: the curve cannot go beyond it.
    const edge = points.reduce((m, p) => Math.max(m, p.x), 0);
    if (edge > 0) marks.push({ axis: 'x', value: edge, label: `saturated from ${result.saturationRate}` });
    notes.push(`${why}: ${undrawn.length} of ${result.points.length} rates not drawn`);
  } else if (undrawn.length > 0) {
    notes.push(`${undrawn.length} of ${result.points.length} rates not drawn (nothing delivered${logX ? ' or x ≤ 0 on the log axis' : ''}): ${undrawn.join(', ')}`);
  }
  return linePlot({
    id: `traffic-${result.pattern}`,
    // The note goes in the title too: a standalone SVG has no caption, and a dropped point must show.
    title: `${result.topology}, ${result.pattern} traffic`,
    notes,
    figure: horizon ? '004 Figs. 7–11 (packets delivered in the horizon against latency)' : 'BookSim latency/throughput curve',
    caption: notes.length > 0 ? notes.join('; ') : undefined,
    x: { title: horizon ? `packets delivered in ${result.points[0]?.cycles ?? ''} cycles` : 'accepted throughput (flits/node/cycle)', log: logX },
    y: { title: 'mean packet latency (cycles)' },
    legend: 'pattern',
    points,
    marks,
    // In order of offered rate: past saturation, delivered packets can fall as the rate rises, and
    // joining points by x would draw a zig-zag no run followed.
    connect: 'input',
  });
}
