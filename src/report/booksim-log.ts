/**
 * BookSim 2.0's own end-of-run log lines (trafficmanager.cpp: "Time taken is N cycles" and
 * DisplayOverallStats), so that scripts written to read BookSim's log read Meshwork's. One traffic
 * class, one simulation (`sim_count = 1`): every "(1 samples)" is BookSim's count of simulations.
 * Numbers are printed as C++'s default ostream does (6 significant digits, %g).
 */
import type { BookSimSummary, StatLine } from '../sim/packet/measure.js';
import type { BatchStats } from '../sim/packet/batch.js';

/** A double as `std::cout << x` prints it (precision 6, %g: exponent below 1e-4 or from 1e6). */
export function cppNumber(x: number): string {
  if (Number.isNaN(x)) return '-nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (x === 0) return '0';
  const exponent = Math.floor(Math.log10(Math.abs(Number(x.toPrecision(6)))));
  if (exponent < -4 || exponent >= 6) {
    const [mantissa, exp] = x.toExponential(5).split('e');
    const trimmed = mantissa.includes('.') ? mantissa.replace(/0+$/, '').replace(/\.$/, '') : mantissa;
    const e = Number(exp);
    return `${trimmed}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  }
  return String(Number(x.toPrecision(6)));
}

function statLines(name: string, s: StatLine): string[] {
  return [`${name} average = ${cppNumber(s.average)} (1 samples)`, `\tminimum = ${cppNumber(s.minimum)} (1 samples)`, `\tmaximum = ${cppNumber(s.maximum)} (1 samples)`];
}

/** The lines BookSim ends a stable run with: "Time taken is …" and the overall statistics of class 0. */
export function bookSimSummaryLines(s: BookSimSummary): string[] {
  return [
    `Time taken is ${s.timeTaken} cycles`,
    '====== Overall Traffic Statistics ======',
    '====== Traffic class 0 ======',
    ...statLines('Packet latency', s.packetLatency),
    ...statLines('Network latency', s.networkLatency),
    ...statLines('Flit latency', s.flitLatency),
    ...statLines('Fragmentation', s.fragmentation),
    ...statLines('Injected packet rate', s.injectedPacketRate),
    ...statLines('Accepted packet rate', s.acceptedPacketRate),
    ...statLines('Injected flit rate', s.injectedFlitRate),
    ...statLines('Accepted flit rate', s.acceptedFlitRate),
    `Injected packet size average = ${cppNumber(s.injectedPacketSize)} (1 samples)`,
    `Accepted packet size average = ${cppNumber(s.acceptedPacketSize)} (1 samples)`,
    `Hops average = ${cppNumber(s.hops)} (1 samples)`,
  ];
}

/** BookSim's line for a run it declared unstable (latency above latency_thres); it prints no statistics then. */
export const BOOKSIM_UNSTABLE = 'Simulation unstable, ending ...';

/**
 * What BookSim's batch mode prints of each batch (batchtrafficmanager.cpp _SingleSim and
 * DisplayStats): its injection and completion times and the batch-duration statistics so far. The
 * per-batch statistics block between them (its packet and flit ids among them) is left out.
 */
export function bookSimBatchLines(b: BatchStats): string[] {
  const lines: string[] = [];
  let sum = 0;
  let min = Infinity;
  let max = -Infinity;
  b.durations.forEach((duration, i) => {
    sum += duration;
    min = Math.min(min, duration);
    max = Math.max(max, duration);
    lines.push(
      `Sending batch ${i + 1} (${b.size} packets)...`,
      `Batch injected. Time used is ${b.injectedCycles[i]} cycles.`,
      'Waiting for batch to complete...',
      '',
      `Batch received. Time used is ${duration - b.injectedCycles[i]} cycles.`,
      `Minimum batch duration = ${cppNumber(min)}`,
      `Average batch duration = ${cppNumber(sum / (i + 1))}`,
      `Maximum batch duration = ${cppNumber(max)}`,
    );
  });
  return lines;
}

/**
 * The batch lines BookSim adds to its overall statistics (BatchTrafficManager::DisplayOverallStats):
 * minimum, average and maximum batch duration, each labelled "min" as BookSim 2.0 prints them.
 */
export function bookSimBatchOverallLines(b: BatchStats): string[] {
  return [b.minDuration, b.averageDuration, b.maxDuration].map((d) => `Overall min batch duration = ${cppNumber(d)} (1 samples)`);
}
