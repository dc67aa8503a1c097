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

/** Whether a routing reads channel loads (`RoutingFunction.adaptive`: adaptive, UGAL, dragonfly ugal, DAL). */
export const readsLoad = (routing: RoutingFunction): boolean => routing.adaptive === true;

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
}
