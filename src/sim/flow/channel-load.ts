/**
 * The channel loads the flow engine offers adaptive routings (`adaptive`, `ugal-l`, `ugal-g`,
 * dragonfly `ugal`): per channel, the unfinished flows routed over it (started, queued at their NIC
 * or sending), read when a flow starts, which is when its route is chosen.
 *
 * Why a count of flows: under max-min sharing the flows on a channel set the share a new flow gets
 * there (capacity / (n + 1) when it is the bottleneck), the count is exact at every instant without
 * bringing lazily updated rates forward, and it is the flow-level counterpart of the packets a
 * router's credits count. Bytes left would weigh flows by size, but they move with every rate
 * change and would cost a pass over the crossing flows per query.
 */
import type { RoutingFunction } from '../../routing/types.js';

/** A routing that reads a load per channel (AdaptiveRouting, UgalRouting). */
interface LoadReader {
  load: (channel: number) => number;
}

export const readsLoad = (routing: RoutingFunction): routing is RoutingFunction & LoadReader => typeof (routing as Partial<LoadReader>).load === 'function';

export class FlowChannelLoad {
  /** Unfinished flows routed over each channel. */
  readonly flows: Int32Array;
  constructor(private readonly numChannels: number) {
    this.flows = new Int32Array(numChannels);
  }

  /** A flow over these resources started (ids at or above numChannels, NICs and sinks, are skipped). */
  add(resources: ArrayLike<number>, from: number, count: number): void {
    for (let i = from; i < from + count; i++) if (resources[i] < this.numChannels) this.flows[resources[i]]++;
  }

  /** A flow over these resources finished. */
  remove(resources: ArrayLike<number>, from: number, count: number): void {
    for (let i = from; i < from + count; i++) if (resources[i] < this.numChannels) this.flows[resources[i]]--;
  }

  readonly load = (channel: number): number => this.flows[channel];

  /**
   * Lets `routing` read these loads for the length of a run; the returned function unbinds it (a
   * routing object may serve several runs, and must not keep reading a finished one).
   */
  bind(routing: RoutingFunction): () => void {
    if (!readsLoad(routing)) return () => undefined;
    const before = routing.load;
    routing.load = this.load;
    return () => {
      routing.load = before;
    };
  }
}
