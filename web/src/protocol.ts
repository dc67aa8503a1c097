/** Messages between the page and the core's Web Worker (web/src/worker.ts). */
import type { LayoutKind } from './layout.js';
import type { RunRequest } from '../../src/sim/request.js';

export type EngineName = 'flow' | 'packet';

export type Request =
  | { kind: 'topology'; spec: string }
  | { kind: 'route'; spec: string; from: number; to: number }
  | { kind: 'algorithms'; collective: string }
  | { kind: 'traffic'; spec: string; patterns: string[]; rates: string; seed: number; packetSize: number }
  /** `schedule` names an opened schedule file (Meshwork JSON or MSCCL-XML), run instead of the algorithm. */
  | { kind: 'collective'; spec: string; collective: string; algorithm: string; size: string; engine: EngineName; schedule?: string; model?: Record<string, string> }
  | { kind: 'compare'; spec: string; collective: string; size: string }
  /** `meshwork reproduce <seeds> --quick`; the reply is results.json's document (ResultsJson). */
  | { kind: 'seeds'; seeds: string }
  /** One claim re-run: its seed's study (`rerunClaim`), quick or full as the shown results were; the reply is a ClaimRerun. */
  | { kind: 'claim'; claim: string; quick: boolean }
  /** A results.json the user opened: checked by the library's reader, returned as ResultsJson. */
  | { kind: 'results'; name: string; text: string }
  /** A file the user opened, kept under its name for `graphml:NAME`, `anynet:NAME`, `simgrid:NAME`, `file:NAME`. */
  | { kind: 'upload'; name: string; text: string }
  /**
   * A generated transformer step (`meshwork workload generate`) timed on a topology (`workload run`),
   * or, with `trace`, the Chakra files the user opened (`workload run --trace`; the bytes travel with the request).
   */
  | { kind: 'workload'; spec: string; tp: number; dp: number; layers: number; hidden: number; sequence: number; engine: EngineName; trace?: WorkloadTraceFiles }
  /**
   * `meshwork perf`: a size sweep (-b, -e, -f as nccl-tests reads them) at flow level, or with
   * `measured` (an nccl-tests/rccl-tests table's name and text) `perf --measured`, row by row.
   */
  | { kind: 'perf'; spec: string; collective: string; algorithm: string; minBytes: string; maxBytes: string; factor: string; measured?: { name: string; text: string } };

/** One size of a `perf` run: Meshwork's row, and the measured one beside it when a table was given. */
export interface PerfReplyRow {
  readonly size_bytes: number;
  readonly time_s: number;
  readonly busbw_Bps: number;
  readonly algorithm: string;
  readonly measured_time_s: number | null;
  readonly measured_busbw_Bps: number | null;
  /** Meshwork / measured time − 1 (the CLI's error column); null without a table. */
  readonly error: number | null;
  /** A row a preset parameter was solved from (left out of the held-out figures). */
  readonly anchor: boolean;
}

export interface PerfReply {
  readonly ranks: number;
  readonly rows: readonly PerfReplyRow[];
  /** Geometric-mean errors (the CLI's), null without a table or without rows on that side of 1 MiB. */
  readonly geomean: { readonly below1MiB: number | null; readonly from1MiB: number | null; readonly heldOutBelow1MiB: number | null; readonly heldOutFrom1MiB: number | null } | null;
}

/** Opened Chakra rank files (name.<rank>.et) and the `--deps`, `--replicate` of `workload run`. */
export interface WorkloadTraceFiles {
  readonly files: ReadonlyArray<{ readonly name: string; readonly bytes: Uint8Array }>;
  readonly deps: 'both' | 'data' | 'ctrl';
  readonly replicate?: number;
}

/** What the page draws a network from: node positions and the channel list. */
export interface Drawing {
  readonly layout: LayoutKind;
  readonly xy: Float32Array;
  readonly nodeKind: Uint8Array;
  readonly chSrc: Int32Array;
  readonly chDst: Int32Array;
  readonly rankOfNode: Int32Array;
}

export interface TopologyReply {
  readonly spec: string;
  readonly family: string;
  readonly metrics: Record<string, unknown>;
  /** Absent when the network is too large to draw (`notDrawn` says why). */
  readonly drawing?: Drawing;
  readonly notDrawn?: string;
}

export interface RouteReply {
  readonly routing: string;
  readonly nodes: number[];
  readonly channels: number[];
}

export interface AlgorithmInfo {
  readonly name: string;
  readonly description: string;
  readonly supportsText: string;
  readonly source: string;
  readonly params: ReadonlyArray<{ key: string; kind: string; default: number | string | boolean; choices?: readonly string[]; description: string }>;
}

export interface TrafficReply {
  readonly routing: string;
  readonly preset: string;
  readonly config: Record<string, unknown>;
  readonly series: ReadonlyArray<{ pattern: string; saturationRate: number | null; points: ReadonlyArray<{ rate: number; packet_latency: number | null; accepted_flit_rate: number | null; saturated: boolean }> }>;
  /** The resolved RunRequest of each pattern, as its result records it (`meshwork traffic --request` re-runs one). */
  readonly requests: readonly unknown[];
}

/** Ops of the timed run, flat: one entry per op, for the Gantt chart. */
export interface GanttData {
  readonly rank: Int32Array;
  readonly kind: Uint8Array;
  readonly start: Float64Array;
  readonly end: Float64Array;
  readonly kindNames: readonly string[];
  /** Ops left out (only the first ranks are kept past the op limit). */
  readonly omitted: number;
}

/** Channel utilisation per frame: frames × channels, each in [0, 1]. */
export interface Heatmap {
  readonly frames: number;
  readonly frameSeconds: number;
  readonly utilisation: Float32Array;
}

export interface CollectiveReply {
  readonly verify: { pass: boolean; summary: string; firstMismatch: string | null; problems: string[] };
  readonly result: Record<string, unknown> & { makespan_s: number; bound_s: number; efficiency: number };
  readonly gantt?: GanttData;
  readonly heatmap: Heatmap;
  readonly drawing?: Drawing;
  /** Wall seconds in the worker (shown to the user and read by bench/web.mjs). */
  readonly seconds: { readonly verify: number; readonly simulate: number };
}

export interface WorkloadReply {
  /** The library's WorkloadReport (step time, ranks, collectives, critical path, links). */
  readonly report: Record<string, unknown> & { step_time_s: number };
  /** Every op of the lowered workload, its kind the op's category (compute, cpu, memory, collective, p2p, marker). */
  readonly gantt: GanttData;
  /** The resolved RunRequest the worker ran (what `meshwork workload run --request` re-runs, given the files). */
  readonly request: RunRequest;
}

export interface CompareReply {
  readonly bound_s: number | null;
  readonly runs: ReadonlyArray<{ algorithm: string; makespan_s: number; bound_s: number; efficiency: number }>;
  readonly skipped: ReadonlyArray<{ algorithm: string; reason: string }>;
  /** Algorithms that could not run (a deadlock under the protocol, or a defect), as `meshwork compare` lists them. */
  readonly failed: ReadonlyArray<{ algorithm: string; reason: string }>;
}

export type Reply =
  | { id: number; type: 'progress'; fraction: number; note?: string }
  | { id: number; type: 'result'; value: unknown }
  /** `input` marks a user error (an InputError or LimitError): one line, as the CLI prints it. */
  | { id: number; type: 'error'; message: string; input: boolean };
