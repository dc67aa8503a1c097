/**
 * The one output type of a timed run, shared by the flow and the packet engine. Every report,
 * table and plot is a view of it. Versioned; the JSON Schema is schemas/result.schema.json.
 * Units: seconds, bytes, bytes per second. Field names carry their unit (`_s`, `_bytes`).
 */
import type { PacketWrapRecord } from '../routing/up-star-down-star.js';

export const RESULT_VERSION = 1;

export interface BoundRecord {
  /** e.g. "injection", "ejection", "hop-bytes", "bisection", "latency". */
  readonly name: string;
  readonly seconds: number;
  /** One line: how it was computed. */
  readonly detail: string;
}

export interface OpRecord {
  readonly rank: number;
  readonly stream: number;
  /** Index of the operation within its stream. */
  readonly index: number;
  readonly kind: string;
  readonly start_s: number;
  readonly end_s: number;
}

export interface ChannelSummary {
  readonly count: number;
  /** Utilisation = bytes / (bandwidth × makespan). */
  readonly max_utilisation: number;
  readonly mean_utilisation: number;
  /** Jain's fairness index of per-channel utilisation, (Σx)² / (n Σx²); 1 = perfectly even. */
  readonly jain_fairness: number;
  readonly total_bytes: number;
  /** The most loaded channels, at most 10. */
  readonly busiest: ReadonlyArray<{ channel: number; src: number; dst: number; class: string; bytes: number; utilisation: number }>;
  /** Bytes per channel id, present when there are at most 65,536 channels. */
  readonly bytes?: readonly number[];
}

export interface RunResult {
  readonly kind: 'meshwork-run-result';
  readonly version: typeof RESULT_VERSION;
  readonly engine: 'flow' | 'packet';
  readonly makespan_s: number;
  /** The best topology lower bound (the largest of `bounds`), and bound / makespan. */
  readonly bound_s: number;
  readonly efficiency: number;
  /** This schedule's own bound: each step at its own bottleneck, zero latency. */
  readonly schedule_bound_s: number | null;
  readonly bounds: readonly BoundRecord[];
  readonly topology: {
    readonly spec: string;
    readonly family: string;
    readonly nodes: number;
    readonly channels: number;
    readonly endpoints: number;
    readonly params: Readonly<Record<string, unknown>>;
  };
  /** `packet_wrap` (packet level only): whether the deadlock-free wrap replaced the routing, and why (docs/packet.md). */
  readonly routing: { readonly name: string; readonly params: Readonly<Record<string, unknown>>; readonly packet_wrap?: PacketWrapRecord };
  /** What ran: collective, algorithm, size convention; null for a hand-built program. */
  readonly workload: Readonly<Record<string, unknown>> | null;
  /** nccl-tests' algbw and busbw of a collective (sim/nccl-tests.ts); absent for other workloads. */
  readonly bandwidth?: import('./nccl-tests.js').NcclTestsBandwidth;
  /** Every model parameter and model choice that shaped the numbers. */
  readonly model: Readonly<Record<string, unknown>>;
  readonly ranks: { readonly count: number; readonly finish_s: readonly number[] };
  readonly channels: ChannelSummary;
  /** Aggregate injected throughput over time (time-weighted means over equal bins). */
  readonly throughput: { readonly t_s: readonly number[]; readonly bytes_per_s: readonly number[] };
  /** The chain of operations that ends at the makespan, earliest first (at most 200 entries). */
  readonly critical_path: { readonly ops: readonly OpRecord[]; readonly length: number; readonly truncated: boolean };
  readonly stats: {
    readonly messages: number;
    readonly flows: number;
    readonly bytes: number;
    readonly events: number;
    readonly rate_updates: number;
    /** Contributions to hwCollectives (combining network), all ranks, and the bytes they carry. */
    readonly hw_collective_ops: number;
    readonly hw_bytes: number;
  };
}
