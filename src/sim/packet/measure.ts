/**
 * Measurement drivers over a PacketNetwork and a traffic source:
 * - `measureLikeBookSim`: BookSim 2.0's latency-mode `_SingleSim` (trafficmanager.cpp): warm-up
 *   periods, sample periods until latency and throughput change by less than the stopping
 *   threshold for 3 consecutive samples (at most `maxSamples` periods in all), then a drain of the
 *   recorded packets, including the back-dated ones backlogged sources still owe from before the
 *   drain began (BookSim waits for every source's queue time to pass the drain time); the run is declared saturated when the mean of retired latencies plus the ages
 *   of all outstanding flits exceeds `latencyThreshold`.
 * - `runFixedHorizon`: exactly N cycles, every packet recorded (seed 004's 10,000-clock runs).
 */
import type { PacketNetwork } from './network.js';
import type { TrafficSource } from '../traffic/sources.js';
import type { BatchSource, BatchStats } from './batch.js';

export interface MeasurementOptions {
  /** Warm-up sample periods; 0: warm up until latency and throughput change less than the warm-up thresholds (BookSim). */
  warmupPeriods: number;
  samplePeriod: number;
  maxSamples: number;
  /** Mean latency (retired plus in-flight ages) above which the run is declared saturated; negative: never (BookSim). */
  latencyThreshold: number;
  /** Relative latency change allowed per sample while warming up / running; negative: not checked (BookSim). */
  warmupThreshold: number;
  stoppingThreshold: number;
  /** The same for accepted throughput (BookSim `acc_warmup_thres`, `acc_stopping_thres`); default: the latency thresholds. */
  accWarmupThreshold?: number;
  accStoppingThreshold?: number;
  /**
   * BookSim's `sim_type`: `latency` (the default) checks the latency threshold, converges on latency
   * and throughput and drains the recorded packets; `throughput` converges on throughput alone, never
   * declares saturation and has no drain of its own: its latencies are of the packets recorded in the
   * window, retired in it or while the network empties at the end (BookSim's Run(), every mode).
   */
  simType?: 'latency' | 'throughput';
  /**
   * BookSim's `include_queuing`: true (its default) stamps a packet with the cycle its source was
   * due to create it, so packet latency includes the wait in the source queue; false stamps the cycle
   * the source generates it, behind the packets queued before it (trafficmanager.cpp _Inject passes
   * `_include_queuing == 1 ? _qtime : _time`). The stamp also decides which packets a drain records.
   * Read by every measurement (latency, throughput, batch, horizon).
   */
  includeQueuing?: boolean;
}

/** BookSim 2.0 defaults (booksim_config.cpp), as the reference CSVs used. */
export const BOOKSIM_MEASUREMENT: MeasurementOptions = {
  warmupPeriods: 3,
  samplePeriod: 1000,
  maxSamples: 10,
  latencyThreshold: 500,
  warmupThreshold: 0.05,
  stoppingThreshold: 0.05,
};

/** One point of a latency/throughput curve, with BookSim's column names. */
export interface LoadPoint {
  rate: number;
  /** Mean packet latency, cycles, creation to ejection (source queueing included); null when saturated. */
  packet_latency: number | null;
  /** Mean latency from injection to ejection; for a saturated run, the value at the abort. */
  network_latency: number | null;
  /** Accepted throughput, flits/node/cycle. */
  accepted_flit_rate: number | null;
  /** Router traversals per packet (mean distance + 1, BookSim's convention). */
  hops: number | null;
  cycles: number;
  saturated: boolean;
  packets: number;
  /** BookSim's overall statistics block, when asked for (`summary`); absent for a saturated run, as in BookSim. */
  summary?: BookSimSummary;
  /** Batch mode (`measureBatches`): the batches' durations. */
  batch?: BatchStats;
}

/** One BookSim statistic: average with minimum and maximum. */
export interface StatLine {
  average: number;
  minimum: number;
  maximum: number;
}

/**
 * BookSim's "Overall Traffic Statistics" (trafficmanager.cpp DisplayOverallStats) for one run:
 * latencies over the recorded packets (flit latency over every flit ejected since the last reset,
 * from that flit's own injection); rates per node per cycle from the last reset to the drain, their
 * minimum and maximum over the nodes; hops averaged over the recorded packets.
 */
export interface BookSimSummary {
  packetLatency: StatLine;
  networkLatency: StatLine;
  flitLatency: StatLine;
  fragmentation: StatLine;
  injectedPacketRate: StatLine;
  acceptedPacketRate: StatLine;
  injectedFlitRate: StatLine;
  acceptedFlitRate: StatLine;
  injectedPacketSize: number;
  acceptedPacketSize: number;
  hops: number;
  /** Cycles until every flit left and every credit returned, injection stopped after the drain (BookSim's "Time taken"). */
  timeTaken: number;
}

function perNodeRate(counts: Int32Array, span: number): StatLine {
  let sum = 0;
  let min = Infinity;
  let max = -Infinity;
  for (const c of counts) {
    sum += c;
    if (c < min) min = c;
    if (c > max) max = c;
  }
  return { average: sum / span / counts.length, minimum: min / span, maximum: max / span };
}

function sumOf(counts: Int32Array): number {
  let sum = 0;
  for (const c of counts) sum += c;
  return sum;
}

/** BookSim's empty-network phase after the drain: no new packets, until no flit or credit is in flight. */
function emptyNetwork(net: PacketNetwork): void {
  while (net.unretiredFlits > 0 || net.creditsInFlight() > 0) net.step();
}

function summarise(net: PacketNetwork, window: { sent: Int32Array; sentPackets: Int32Array; accepted: Int32Array; acceptedPackets: Int32Array; span: number }): BookSimSummary {
  // BookSim updates its overall statistics after emptying the network: flit latencies include those flits.
  emptyNetwork(net);
  const s = net.stats;
  const flits = sumOf(s.acceptedFlitsBy);
  const line = (sum: number, count: number, min: number, max: number): StatLine => ({ average: sum / count, minimum: min, maximum: max });
  return {
    packetLatency: line(s.latencySum, s.packets, s.latencyMin, s.latencyMax),
    networkLatency: line(s.networkLatencySum, s.packets, s.networkLatencyMin, s.networkLatencyMax),
    flitLatency: line(s.flitLatencySum, flits, s.flitLatencyMin, s.flitLatencyMax),
    fragmentation: line(s.fragmentationSum, s.packets, s.fragmentationMin, s.fragmentationMax),
    injectedPacketRate: perNodeRate(window.sentPackets, window.span),
    acceptedPacketRate: perNodeRate(window.acceptedPackets, window.span),
    injectedFlitRate: perNodeRate(window.sent, window.span),
    acceptedFlitRate: perNodeRate(window.accepted, window.span),
    injectedPacketSize: sumOf(window.sent) / sumOf(window.sentPackets),
    acceptedPacketSize: sumOf(window.accepted) / sumOf(window.acceptedPackets),
    hops: s.hopsSum / s.packets,
    timeTaken: net.now,
  };
}

function thresholdExceeded(net: PacketNetwork, threshold: number): boolean {
  if (threshold < 0) return false;
  const s = net.stats;
  const count = s.packets + net.unretiredFlits;
  if (count === 0) return false;
  return (s.latencySum + net.outstandingAgeSum()) / count > threshold;
}

export function measureLikeBookSim(net: PacketNetwork, source: TrafficSource, rate: number, m: MeasurementOptions = BOOKSIM_MEASUREMENT, summary = false): LoadPoint {
  const nodes = net.topology.numEndpoints;
  let warming = true;
  let converged = 0;
  // BookSim 2.0 @ 28f43299 trafficmanager.cpp _SingleSim: prev_latency and prev_accepted start at 0.0
  // (lines 1422-1423), so a first sample with packets changes by 1; NaN (no packets) never exceeds.
  let prevLatency = 0;
  let prevAccepted = 0;
  let clearLast = false;
  let phases = 0;
  let saturated = false;
  net.recording = false;
  // While warming up BookSim's statistics take every retired packet (_RetireFlit, line 724): the
  // warm-up samples' latency changes and the latency_thres check (lines 1467-1481) include them.
  net.countUnrecorded = 1;
  const measureLatency = (m.simType ?? 'latency') === 'latency';
  // A negative threshold is not checked (BookSim: `threshold >= 0.0 && change > threshold`).
  const exceeds = (change: number, threshold: number): boolean => threshold >= 0 && change > threshold;
  while (phases < m.maxSamples && (warming || converged < 3)) {
    if (clearLast || (warming && phases % 2 === 0)) {
      clearLast = false;
      net.clearStats();
    }
    for (let i = 0; i < m.samplePeriod; i++) net.step(source);
    const s = net.stats;
    const latency = s.latencySum / s.packets;
    const accepted = s.acceptedFlits / (net.now - s.resetCycle) / nodes;
    // Lines 1454-1465: NaN comparisons are false, as in BookSim (a sample with no packet never exceeds).
    const latencyChange = Math.abs((latency - prevLatency) / latency);
    const acceptedChange = Math.abs((accepted - prevAccepted) / accepted);
    prevLatency = latency;
    prevAccepted = accepted;
    if (measureLatency && thresholdExceeded(net, m.latencyThreshold)) {
      saturated = true;
      break;
    }
    const threshold = warming ? m.warmupThreshold : m.stoppingThreshold;
    const accThreshold = warming ? (m.accWarmupThreshold ?? m.warmupThreshold) : (m.accStoppingThreshold ?? m.stoppingThreshold);
    const steady = !(measureLatency && exceeds(latencyChange, threshold)) && !exceeds(acceptedChange, accThreshold);
    if (warming) {
      if (m.warmupPeriods > 0 ? phases + 1 >= m.warmupPeriods : steady) {
        clearLast = true;
        warming = false;
        net.recording = true;
        net.countUnrecorded = 0;
      }
    } else {
      converged = steady ? converged + 1 : 0;
    }
    phases++;
  }
  // Still warming up after max_samples (warmup_periods = 0 that never converged): BookSim's "Too many
  // sample periods needed to converge", a run it reports unstable.
  if (warming) saturated = true;
  net.countUnrecorded = 0;
  const drainStart = net.now;
  const acceptedFlits = net.stats.acceptedFlits;
  const acceptedSpan = drainStart - net.stats.resetCycle;
  // BookSim counts injected and accepted flits per node while warming up and running, not in the drain.
  // The sent counts go on to the end: a flit injected in BookSim's cycle drainStart − 1 is injected in the engine's next step.
  net.sentCountedBefore = drainStart;
  const window = summary
    ? { sent: net.stats.sentFlits, sentPackets: net.stats.sentPackets, accepted: net.stats.acceptedFlitsBy.slice(), acceptedPackets: net.stats.acceptedPacketsBy.slice(), span: acceptedSpan }
    : null;
  if (!saturated && !warming && measureLatency) {
    net.recording = false;
    net.recordCreatedBefore = drainStart;
    let steps = 0;
    while (net.recordedOutstanding > 0 || (source.generatedUpTo !== undefined && !source.generatedUpTo(drainStart))) {
      net.step(source);
      if (++steps % 1000 === 0 && thresholdExceeded(net, m.latencyThreshold)) {
        saturated = true;
        break;
      }
    }
  }
  // BookSim's Run() empties the network after _SingleSim in every mode (trafficmanager.cpp "Draining
  // remaining packets": no new packets, until no flit or credit is in flight) and reads its overall
  // statistics only then. Throughput mode has no drain of its own, so the recorded packets still
  // queued or in flight at the end of the last sample retire there and count in its latencies.
  if (!saturated && !measureLatency) emptyNetwork(net);
  const s = net.stats;
  const nlat = s.packets > 0 ? s.networkLatencySum / s.packets : null;
  if (saturated) {
    return { rate, packet_latency: null, network_latency: nlat, accepted_flit_rate: null, hops: null, cycles: net.now, saturated, packets: s.packets };
  }
  const point: LoadPoint = {
    rate,
    packet_latency: s.latencySum / s.packets,
    network_latency: nlat,
    accepted_flit_rate: acceptedFlits / acceptedSpan / nodes,
    hops: s.hopsSum / s.packets,
    cycles: net.now,
    saturated: false,
    packets: s.packets,
  };
  if (window) point.summary = summarise(net, window);
  return point;
}

/**
 * BookSim's batch mode (BatchTrafficManager::_SingleSim): batches until the source has sent them
 * all and every packet arrived. Every packet is recorded and the statistics are never cleared, so
 * latencies are over all batches' packets and rates over the whole run (BookSim's `_reset_time` 0
 * to its `_drain_time`, the end of the last batch); `rate` is only carried (batch mode does not read it).
 */
export function measureBatches(net: PacketNetwork, source: BatchSource, rate: number, summary = false): LoadPoint {
  net.recording = true;
  net.countUnrecorded = 0;
  net.clearStats();
  while (!source.done) net.step(source);
  // Every batch packet counts, its last flits read in the cycle the batch ends or just after.
  net.retireUnread();
  const end = source.endCycle;
  const s = net.stats;
  const point: LoadPoint = {
    rate,
    packet_latency: s.latencySum / s.packets,
    network_latency: s.networkLatencySum / s.packets,
    accepted_flit_rate: s.acceptedFlits / end / net.topology.numEndpoints,
    hops: s.hopsSum / s.packets,
    cycles: end,
    saturated: false,
    packets: s.packets,
    batch: source.stats(),
  };
  if (summary) point.summary = summarise(net, { sent: s.sentFlits, sentPackets: s.sentPackets, accepted: s.acceptedFlitsBy, acceptedPackets: s.acceptedPacketsBy, span: end });
  return point;
}

export interface HorizonResult {
  cycles: number;
  /** Packets delivered within the horizon (all packets, whenever created). */
  delivered: number;
  /** Mean latency of those packets, creation to ejection, cycles. */
  meanLatency: number | null;
  meanNetworkLatency: number | null;
  hops: number | null;
  acceptedFlitRate: number;
}

export function runFixedHorizon(net: PacketNetwork, source: TrafficSource, cycles: number): HorizonResult {
  net.recording = true;
  net.clearStats();
  for (let i = 0; i < cycles; i++) net.step(source);
  const s = net.stats;
  return {
    cycles,
    delivered: s.packets,
    meanLatency: s.packets > 0 ? s.latencySum / s.packets : null,
    meanNetworkLatency: s.packets > 0 ? s.networkLatencySum / s.packets : null,
    hops: s.packets > 0 ? s.hopsSum / s.packets : null,
    acceptedFlitRate: s.acceptedFlits / cycles / net.topology.numEndpoints,
  };
}
