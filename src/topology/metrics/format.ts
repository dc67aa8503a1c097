/** The two views of TopologyMetrics the CLI and reports print: a JSON record and a human table. */
import type { TopologyMetrics } from './compute.js';
import { maxOf } from '../../util/arrays.js';

/**
 * What `metricsRecord` returns (and `topo --json` prints): typed field by field, not an untyped
 * record (issue 28 item 23), so `record.diameter` is `number | null` to a library user.
 */
export type MetricsRecord = ReturnType<typeof metricsRecord>;

/**
 * JSON-ready record with snake_case keys. Deterministic: the same topology and options give the
 * same record, so timing is only added when asked for.
 */
export function metricsRecord(m: TopologyMetrics, opts: { timing?: boolean } = {}) {
  const d = m.distances;
  const degree = (s: TopologyMetrics['degree']) => ({ in: { ...s.in }, out: { ...s.out } });
  return {
    spec: m.spec,
    family: m.family,
    params: m.params,
    nodes: m.nodes,
    terminals: m.terminals,
    switches: m.switches,
    channels: m.channels,
    // JSON has no ∞: a disconnected graph's diameter is null, with the pairs that have no path below.
    diameter: d.exact && d.unreachablePairs > 0 ? null : d.diameter,
    mean_distance_with_self: d.meanWithSelf,
    mean_distance_without_self: d.meanWithoutSelf,
    distance_convention: d.convention,
    method: d.method,
    exact: d.exact,
    method_reason: d.reason,
    bfs_searches: d.searches,
    ...(d.exact ? {} : { diameter_note: 'largest distance seen from the sampled sources: a lower bound' }),
    ...(d.interval
      ? {
          interval: {
            confidence: d.interval.confidence,
            sources: d.interval.sources,
            seed: d.interval.seed,
            mean_distance_with_self: d.interval.meanWithSelf,
            mean_distance_without_self: d.interval.meanWithoutSelf,
          },
        }
      : {}),
    pairs: d.pairs,
    unreachable_pairs: d.unreachablePairs,
    histogram: d.histogram,
    degree: degree(m.degree),
    ...(m.switchDegree ? { switch_degree: degree(m.switchDegree) } : {}),
    bisection: {
      channels: m.bisection.channels,
      links: m.bisection.links,
      bandwidth_bytes_per_s: m.bisection.bandwidth,
      exact: m.bisection.exact,
      method: m.bisection.method,
    },
    ...(opts.timing ? { seconds: m.seconds } : {}),
  };
}

function fixed(x: number): string {
  return Number.isInteger(x) ? String(x) : x.toFixed(6);
}

function range(r: { min: number; max: number }): string {
  return r.min === r.max ? String(r.min) : `${r.min}..${r.max}`;
}

/** Histograms longer than this are summarised in the table (the JSON has them whole). */
const HISTOGRAM_ROWS = 40;

export function formatMetrics(m: TopologyMetrics): string {
  const d = m.distances;
  const est = d.exact ? '' : ' (estimate)';
  const disconnected = d.exact && d.unreachablePairs > 0;
  const endpoints = Math.round(Math.sqrt(d.pairs));
  const rows: Array<[string, string]> = [
    ['topology', `${m.spec} (${m.family})`],
    ['nodes', `${m.nodes} (${m.terminals} terminals, ${m.switches} switches)`],
    ['channels', String(m.channels)],
    ['degree', `in ${range(m.degree.in)}, out ${range(m.degree.out)}`],
  ];
  if (m.switchDegree) rows.push(['switch degree', `in ${range(m.switchDegree.in)}, out ${range(m.switchDegree.out)}`]);
  rows.push(
    ['distance', `${d.convention}; method ${d.method}${d.exact ? ', exact' : ', ESTIMATE'}: ${d.reason}`],
    ['diameter', disconnected ? `∞ (disconnected: ${d.unreachablePairs} of ${d.pairs} ordered pairs have no path; largest finite distance ${d.diameter})` : `${d.diameter}${d.exact ? '' : ' (largest seen: a lower bound)'}`],
    ['mean distance', `${fixed(d.meanWithSelf)} with self-pairs (over ${disconnected ? `the ${d.pairs - d.unreachablePairs} reachable of N² = ${d.pairs}` : 'N²'} ordered pairs)${est}`],
    ['', `${fixed(d.meanWithoutSelf)} without self-pairs (over ${disconnected ? `the ${d.pairs - d.unreachablePairs - endpoints} reachable of N(N−1)` : 'N(N−1)'} ordered pairs)${est}`],
  );
  if (d.interval) {
    const [a, b] = d.interval.meanWithSelf;
    const [c, e] = d.interval.meanWithoutSelf;
    rows.push(['95% interval', `[${fixed(a)}, ${fixed(b)}] with self, [${fixed(c)}, ${fixed(e)}] without self`]);
  }
  if (d.unreachablePairs > 0) rows.push(['unreachable', `${d.unreachablePairs} ordered pairs have no path (left out of the means)`]);
  if (d.histogram.length <= HISTOGRAM_ROWS) {
    rows.push(['histogram', d.histogram.map((count, dist) => `${dist}:${fixed(count)}`).join(' ')]);
  } else {
    rows.push(['histogram', `${d.histogram.length} distances (0..${d.histogram.length - 1}); see --json`]);
  }
  const b = m.bisection;
  rows.push([
    'bisection',
    Number.isNaN(b.channels)
      ? b.method
      : `${fixed(b.links)} links (${b.channels} channels both ways), ${b.exact ? 'exact' : 'UPPER BOUND'}: ${b.method}`,
  ]);
  rows.push(['time', `${m.seconds.toFixed(3)} s`]);
  const width = maxOf(rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join('\n');
}
