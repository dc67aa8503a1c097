/**
 * BookSim 2.0's batch mode (`sim_type = batch`, batchtrafficmanager.cpp @ 28f43299): every node
 * sends `size` packets as fast as its source queue takes them (BookSim's batch `_IssuePacket` never
 * asks the injection process, so `injection_rate` has no effect), at most `maxOutstanding` of them
 * unretired at a time (0: no limit); a batch ends in the cycle after its last packet arrives, and the
 * next one starts then, `count` times. The statistics are never cleared between batches.
 */
import { InputError } from '../../util/errors.js';
import { Rng, type RandomStream } from '../../util/rng.js';
import type { TrafficPattern } from '../traffic/patterns.js';
import type { TrafficSource } from '../traffic/sources.js';
import type { PacketNetwork } from './network.js';
import { maxOf, minOf } from '../../util/arrays.js';

export interface BatchOptions {
  /** Packets per node per batch (BookSim `batch_size`, default 1000). */
  size: number;
  /** Batches, one after another (BookSim `batch_count`, default 1). */
  count: number;
  /** Packets a node may have created but not yet retired; 0: no limit (BookSim `max_outstanding_requests`, default 0). */
  maxOutstanding: number;
}

/** BookSim's defaults (booksim_config.cpp). */
export const BOOKSIM_BATCH: BatchOptions = { size: 1000, count: 1, maxOutstanding: 0 };

/** Packets a batch run may create in all (nodes × size × count): far beyond any BookSim run, short of memory trouble. */
export const MAX_BATCH_PACKETS = 1e8;

/** What BookSim prints per batch, and the batch-time statistics it reports. */
export interface BatchStats extends BatchOptions {
  /** Each batch's duration, cycles, from its first injection cycle to the cycle after its last arrival. */
  durations: number[];
  /** Each batch's "Batch injected. Time used is N cycles": until every node created its last packet. */
  injectedCycles: number[];
  minDuration: number;
  averageDuration: number;
  maxDuration: number;
}

export function checkBatchOptions(b: BatchOptions, nodes: number): void {
  if (!Number.isInteger(b.size) || b.size < 1) throw new InputError('batch.size', b.size, 'an integer of at least 1 (packets per node per batch)');
  if (!Number.isInteger(b.count) || b.count < 1) throw new InputError('batch.count', b.count, 'an integer of at least 1 (batches)');
  if (!Number.isInteger(b.maxOutstanding) || b.maxOutstanding < 0) throw new InputError('batch.maxOutstanding', b.maxOutstanding, 'an integer of at least 0 (0: no limit)');
  const packets = nodes * b.size * b.count;
  if (packets > MAX_BATCH_PACKETS) throw new InputError('batch.size', b.size, `nodes × size × count at most ${MAX_BATCH_PACKETS.toExponential()} packets (here ${nodes} × ${b.size} × ${b.count})`);
}

/**
 * The batch injection of BookSim's `_Inject` with the batch `_IssuePacket`: a node whose source
 * queue is empty creates a packet at its queue time `qtime` (so a packet waiting behind the one
 * before it is back-dated to the cycle after that one's creation), unless its batch is sent or it
 * has `maxOutstanding` packets unretired, in which case its queue time passes the cycle.
 */
export class BatchSource implements TrafficSource {
  private readonly qtime: Int32Array;
  private readonly sent: Int32Array;
  private readonly outstanding: Int32Array;
  private readonly rng: RandomStream;
  /** Packets the network has ejected whose arrival cycle BookSim has not reached yet (it retires in the arrival cycle). */
  private pendingCycle: number[] = [];
  private pendingSrc: number[] = [];
  /** Packets of the current batch not yet retired, as of BookSim's current cycle. */
  private unretired = 0;
  private batchStart = 0;
  /** Cycles until the current batch was all created, or -1 while it is not. */
  private injected = -1;
  readonly durations: number[] = [];
  readonly injectedCycles: number[] = [];
  /** BookSim's time when the last batch completed (its `_drain_time`), or -1 while running. */
  endCycle = -1;

  constructor(
    private readonly pattern: TrafficPattern,
    private readonly packetSize: number,
    nodes: number,
    /** A seed for Meshwork's Rng, or the stream to draw from (BookSimRandom: BookSim's own draws). */
    random: number | RandomStream,
    readonly options: BatchOptions,
    /** Stamp packets with the cycle they were due (BookSim include_queuing = 1) or generated (0). */
    private readonly includeQueuing = true,
  ) {
    checkBatchOptions(options, nodes);
    this.qtime = new Int32Array(nodes);
    this.sent = new Int32Array(nodes);
    this.outstanding = new Int32Array(nodes);
    this.rng = typeof random === 'number' ? new Rng(random) : random;
  }

  /** Generation reads the retirements of the routers' step (net.retiredCount): it runs after it. */
  readonly afterRouters = true;

  get done(): boolean {
    return this.endCycle >= 0;
  }

  /** BookSim's cycle `t`: retirements before its injection, the batch's end (and the next one's start), then injection. */
  generate(net: PacketNetwork, t: number): void {
    if (this.done) return;
    for (let k = 0; k < net.retiredCount; k++) {
      this.pendingCycle.push(net.retiredCycle[k]);
      this.pendingSrc.push(net.retiredSrc[k]);
    }
    this.retireBefore(t);
    if (this.injected >= 0 && this.unretired === 0) {
      // BookSim's batch loop ends after the step of the last arrival: its time is then t.
      this.durations.push(t - this.batchStart);
      this.injectedCycles.push(this.injected);
      if (this.durations.length === this.options.count) {
        this.endCycle = t;
        return;
      }
      this.sent.fill(0);
      this.batchStart = t;
      this.injected = -1;
    }
    const { size, maxOutstanding } = this.options;
    const n = this.qtime.length;
    let allSent = true;
    for (let s = 0; s < n; s++) {
      if (net.sourceIdle(s)) {
        let q = this.qtime[s];
        while (q <= t) {
          const due = q++;
          if (this.sent[s] < size && (maxOutstanding <= 0 || this.outstanding[s] < maxOutstanding)) {
            this.sent[s]++;
            this.outstanding[s]++;
            this.unretired++;
            net.enqueue(s, this.pattern.dest(s, this.rng), this.packetSize, this.includeQueuing ? due : t);
            this.rng.endPacket?.();
            break;
          }
        }
        this.qtime[s] = q;
      }
      if (this.sent[s] < size) allSent = false;
    }
    if (allSent && this.injected < 0) this.injected = t + 1 - this.batchStart;
  }

  /** Applies the retirements BookSim made in cycles before `t` (after its injection of that cycle). */
  private retireBefore(t: number): void {
    const cycles = this.pendingCycle;
    if (cycles.length === 0) return;
    const keptCycle: number[] = [];
    const keptSrc: number[] = [];
    for (let i = 0; i < cycles.length; i++) {
      if (cycles[i] < t) {
        this.outstanding[this.pendingSrc[i]]--;
        this.unretired--;
      } else {
        keptCycle.push(cycles[i]);
        keptSrc.push(this.pendingSrc[i]);
      }
    }
    this.pendingCycle = keptCycle;
    this.pendingSrc = keptSrc;
  }

  stats(): BatchStats {
    const d = this.durations;
    return {
      ...this.options,
      durations: [...d],
      injectedCycles: [...this.injectedCycles],
      minDuration: minOf(d),
      averageDuration: d.reduce((a, b) => a + b, 0) / d.length,
      maxDuration: maxOf(d),
    };
  }
}
