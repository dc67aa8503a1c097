/**
 * Packet for packet against BookSim 2.0 (booksim/booksim2 @ 28f43299): small batch runs whose every
 * packet BookSim traced with watch_packets (./booksim/README.md, "Per-packet references"). Each CSV
 * row is one packet as BookSim ran it: id, source, destination, creation cycle, the cycle its head
 * left the source (BookSim's itime) and the cycle its tail arrived (atime). The test replays the
 * packets into the `booksim` preset's network (creation cycles and destinations from the file: batch
 * mode draws nothing after that) and requires the same injection and arrival cycle for every packet.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bookSimRun, buildTopology, parseBookSimConfig } from '../../../src/index.js';
import { presetConfig } from '../../../src/sim/packet/config.js';
import { PacketNetwork } from '../../../src/sim/packet/network.js';
import { trafficRouting } from '../../../src/sim/packet/traffic-run.js';
import { resolveRouting } from '../../../src/routing/registry.js';
import { BOOKSIM_CSV_DIR, readCsvCells } from './booksim-csv.js';

interface TracedPacket {
  id: number;
  src: number;
  dst: number;
  creation: number;
  injection: number;
  arrival: number;
}

/** Replays BookSim's packets; returns each one's injection and arrival cycle in Meshwork. */
function replay(name: string, packets: readonly TracedPacket[]): { injection: number[]; arrival: number[] } {
  // The replay drives the network itself, from the trace: the file's batch keys are dropped (the rate
  // is unused here, but must be one Meshwork accepts for the packet size). booksim-batch.test.ts runs
  // batch mode itself.
  const text = readFileSync(`${BOOKSIM_CSV_DIR}${name}.cfg`, 'utf8')
    .replace(/^\s*(sim_type|batch_size|batch_count)\s*=.*$/gm, '')
    .replace(/^\s*injection_rate\s*=.*$/m, 'injection_rate = 0.01;');
  const run = bookSimRun(parseBookSimConfig(text));
  const topology = buildTopology(run.topologySpec);
  const seed = run.config.seed ?? 1;
  const routing = run.routingName ? resolveRouting(topology, { routing: run.routingName, seed, engine: 'packet' }) : trafficRouting(topology, 'booksim', seed);
  const cfg = { ...presetConfig('booksim', topology), ...run.config };
  const net = new PacketNetwork(topology, routing, cfg, [], run.vcsPerClass);
  const order = packets.map((_, i) => i).sort((a, b) => packets[a].creation - packets[b].creation || packets[a].id - packets[b].id);
  const injection = new Array<number>(packets.length).fill(-1);
  const arrival = new Array<number>(packets.length).fill(-1);
  let next = 0;
  let retired = 0;
  while (retired < packets.length && net.now < 100_000) {
    // A packet created in cycle c joins its source queue at the end of that cycle, as the traffic driver does.
    while (next < order.length && packets[order[next]].creation < net.now) {
      const p = packets[order[next++]];
      net.enqueue(p.src, p.dst, cfg.packetSize, p.creation, order[next - 1]);
    }
    net.step();
    // A head leaving its source in step c left in BookSim's cycle c − 1 (the engine's source runs a cycle behind).
    for (let k = 0; k < net.dequeuedCount; k++) injection[net.dequeuedTag[k]] = net.now - 2;
    for (let k = 0; k < net.retiredCount; k++) {
      arrival[net.retiredTag[k]] = net.retiredCycle[k];
      retired++;
    }
  }
  return { injection, arrival };
}

const cases: Array<[string, string]> = [
  ['mesh44_batch_uniform_p4', "BookSim's defaults, 16 packets of 4 flits per node to uniform destinations"],
  ['mesh44_batch_transpose_p20', "examples/mesh88_lat's router (credit_delay 2, lookahead, input_speedup 2), 4 packets of 20 flits per node"],
];

describe('BookSim 2.0 batch runs, packet for packet', () => {
  for (const [name, what] of cases) {
    it(`${name}: ${what}`, () => {
      const packets: TracedPacket[] = readCsvCells(`${name}.csv`).map((c) => {
        const [id, src, dst, creation, injection, arrival] = c.map(Number);
        return { id, src, dst, creation, injection, arrival };
      });
      const ours = replay(name, packets);
      const differing = packets
        .map((p, i) => ({ p, injection: ours.injection[i], arrival: ours.arrival[i] }))
        .filter((d) => d.injection !== d.p.injection || d.arrival !== d.p.arrival)
        .map((d) => `packet ${d.p.id} ${d.p.src}->${d.p.dst}: injection ${d.injection} (BookSim ${d.p.injection}), arrival ${d.arrival} (BookSim ${d.p.arrival})`);
      expect(differing.slice(0, 5), `${differing.length} of ${packets.length} packets differ`).toEqual([]);
      // The runs have contention to reproduce: packets wait in their source queues and in the network.
      expect(packets.some((p) => p.injection > p.creation + 1)).toBe(true);
    });
  }
});
