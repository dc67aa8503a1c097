/**
 * Cycle-exact agreement with BookSim 2.0 (@ 28f43299): with `randomStream: 'booksim'` the traffic
 * source draws BookSim's own random numbers (Knuth's ranf and ran generators from the seed, in
 * BookSim's order), so where neither the routing nor an allocator draws a random number the run is
 * BookSim's run: every packet is created and retired in the same cycle, and the averages BookSim
 * prints (6 significant digits) are Meshwork's, digit for digit. The expected values are rows of the
 * reference CSVs in ./booksim/ (one BookSim run per rate and seed).
 */
import { describe, expect, it } from 'vitest';
import { simulateTraffic, type LoadPoint } from '../../../src/index.js';
import { loadBookSimCase, readCsvCells } from './booksim-csv.js';

/** A value as BookSim's `cout` prints it (default precision: 6 significant digits). */
const printed = (x: number): number => Number(x.toPrecision(6));

function runExact(name: string, rate: number, seed: number): LoadPoint {
  const { run, topology } = loadBookSimCase(name);
  return simulateTraffic({
    topology,
    pattern: run.pattern,
    rates: [rate],
    rateUnit: run.rateUnit,
    preset: 'booksim',
    config: { ...run.config, seed },
    measurementOptions: run.measurementOptions,
    routingName: run.routingName,
    vcsPerClass: run.vcsPerClass,
    patternOptions: run.patternOptions,
    packetSizes: run.packetSizes,
    onOff: run.onOff,
    randomStream: 'booksim',
  }).points[0] as LoadPoint;
}

function bookSimRow(name: string, rate: number, seed: number): number[] {
  const row = readCsvCells(`${name}.csv`).find((c) => Number(c[0]) === rate && Number(c[1]) === seed);
  if (!row) throw new Error(`${name}.csv has no row for rate ${rate}, seed ${seed}`);
  return row.slice(2, 6).map(Number);
}

describe("BookSim's random stream: Meshwork's run is BookSim's run", () => {
  // [case, rate, seed, what it covers]
  const cases: Array<[string, number, number, string]> = [
    ['mesh88_lat_uniform_p4', 0.4, 5, 'uniform destinations (RandomInt) and the subnetwork draw after each'],
    ['mesh88_packet_sizes_p1p8', 0.3, 5, 'a packet-size draw before the destination'],
    ['mesh44_speedup2_buf4_p4', 0.7, 20, 'input and output speedup at the knee'],
    ['mesh88_include_queuing0_p4', 0.45, 5, 'include_queuing = 0'],
    ['mesh88_on_off_p4', 0.35, 5, "on/off injection, its initial states drawn before BookSim seeds its generators"],
    ['mesh88_background_p4', 0.3, 5, 'background traffic, redrawn until the destination is not excluded'],
    ['mesh88_hotspot_weighted_p1', 0.012, 5, 'weighted hot spots, every packet hot: no coin drawn'],
    ['fly_k4n3_wavefront_uniform_p4', 0.6, 5, "wavefront allocators on the fly, at BookSim's knee (468 cycles)"],
    ['flatfly_k4n2c4_bitcomp_p4', 0.2, 5, 'a concentrated flattened butterfly'],
    ['anynet_ring4n2_uniform_p4', 0.5, 5, 'an anynet file'],
    // Seed 20's first VC allocation at router (2,2) pits terminal 0's input against the −x input
    // with both round-robin pointers at their start: BookSim's start is terminal 0 (port 0).
    ['cmesh44_c4_dor_p4', 0.18, 20, "a concentrated mesh whose arbiters start at BookSim's port 0"],
    // max_size moves its priority input on every Allocate(), requests or not, over the router's
    // BookSim inputs (an edge router's missing ports count): 109.8 before either, 114.9 without the
    // calls without requests, 99.7 without BookSim's input numbers.
    ['mesh88_max_size_uniform_p4', 0.4, 1, "max_size allocators at BookSim's knee (161 cycles)"],
    // loa's pointers move by one over the router's BookSim ports: 301.9 over the engine's own.
    ['mesh88_loa_uniform_p4', 0.4, 1, "loa allocators at BookSim's knee (310 cycles)"],
    // A separable VC's priority is its queue length, or its flits' best age under donation, over
    // the flits that have arrived (BookSim's VC buffer), not those still on the channel: 130.5
    // and 284.9 when flits in flight counted.
    ['mesh88_queue_length_sif_p4', 0.4, 20, 'queue-length priority at the knee (187 cycles)'],
    ['mesh88_age_donation_sif_p4', 0.4, 20, 'age priority with donation at the knee (316 cycles)'],
    // Output speedup 2: two flits a step into one output's FIFO, in BookSim's switch-queue order
    // (queue-order.ts); in input-port order this run saturated.
    ['mesh88_output_speedup2_p4', 0.4, 4, "output speedup at BookSim's knee (439 cycles)"],
    // pim draws its offsets from BookSim's stream: every output's, then every input's, in every
    // allocation a waiting VC triggers (83.81 with its own generator).
    ['mesh88_pim_uniform_p4', 0.35, 20, 'pim allocators at the knee'],
    // dragonflynew `min` draws each packet's injection VC from BookSim's stream, every cycle its head
    // waits; a packet to its own terminal ejects on VC 0 (221.54 before).
    ['dragonflynew_k2_uniform_p4', 0.5, 5, "the dragonfly's random injection VC"],
    // Internal speedup 1.7 with lookahead routing: BookSim's router takes its internal steps as its
    // double accumulator counts them (cycle 9: one step, cycle 10: two), not floor(c * 1.7).
    ['dragonflynew_k2_runfile_p1', 0.7, 5, 'internal speedup 1.7, lookahead routing, credit_delay 2'],
    // A torus's dimension order draws the side of a k/2 tie (and dim_order_bal its partition) as the
    // head turns into each dimension, at that router, heads in BookSim's routing-queue order.
    ['torus444_uniform_p4', 0.6, 5, "a 3-D torus's k/2 ties at BookSim's knee (137 cycles)"],
    ['torus88_age_uniform_p1', 0.25, 5, 'torus ties with age arbitration'],
    ['torus88_dim_order_bal_uniform_p1', 0.25, 5, "dim_order_bal's random partition"],
    // The fat tree's nca draws an up-port at every router a head climbs from, routers in BookSim's
    // order (its top level first); with lookahead routing, as the head crosses the router before,
    // after that cycle's injections (58.62 and 34.64 before).
    ['fattree_k4n3_uniform_p4', 0.55, 5, "nca's random up-ports at BookSim's knee"],
    ['fattree_runfile_ftreeconfig', 0.7, 5, "nca under lookahead routing (BookSim's ftreeconfig)"],
    // The wavefront's priority diagonal starts at 0 of BookSim's square, not at terminal 0's port
    // (27.76 when it did).
    ['cmesh44_wavefront_transpose_p1p4', 0.05, 20, 'a wavefront VC allocator on a concentrated mesh'],
    // The mesh's xy_yx, romm and valiant, and the cmesh's xy_yx, draw at the packet's first router;
    // valiant's phase 0 may leave the destination router on any VC (63.3779 and 67.9298 at 0.05 and 0.1, seed 1,
    // against BookSim's 63.3716 and 67.9119, when it kept class 0).
    ['mesh88_xy_yx_p4', 0.4, 20, "xy_yx's order coin at BookSim's knee"],
    ['mesh88_romm_p4', 0.3, 4, "romm's intermediate in the minimal box at BookSim's knee"],
    ['mesh88_valiant_p4', 0.15, 2, "valiant's intermediate at BookSim's knee"],
    ['cmesh44_c4_xy_yx_p4', 0.18, 4, "the cmesh xy_yx coin at BookSim's knee"],
    // The flattened butterfly's xyyx coin and valiant intermediate (a terminal, by its BookSim id)
    // at the first router.
    ['flatfly_k4n2c4_xyyx_transpose_p4', 0.35, 1, "xyyx's order coin"],
    ['flatfly_k4n2c4_valiant_tornado_p4', 0.3, 4, "valiant's intermediate at BookSim's knee"],
    // Routings that draw as they route (drawsFromStream): each router's heads are routed in BookSim's
    // order, the adaptive ones reading the credits in use where BookSim does: adaptive_xyyx's and
    // adaptive_xy_yx's coin on a tie, ugal's intermediate (after a terminal draw it ignores), and
    // min_adapt's k/2 side where its escape path turns into a dimension.
    ['flatfly_k4n2c4_adaptive_xyyx_transpose_p4', 0.4, 4, "adaptive_xyyx at BookSim's knee"],
    ['mesh88_adaptive_xy_yx_transpose_p4', 0.1, 4, "the mesh's adaptive_xy_yx at BookSim's knee"],
    ['flatfly_k4n2_ugal_uniform_p4', 0.35, 1, "flatfly ugal's intermediate"],
    ['flatfly_k8n2c1_ugal_tornado_p4', 0.9, 3, "flatfly ugal under tornado at BookSim's knee"],
    ['torus88_min_adapt_uniform_p4', 0.4, 5, "the torus's min_adapt at BookSim's knee"],
    ['torus88_min_adapt_tornado_p4_vc8', 0.125, 4, 'min_adapt with 8 VCs under tornado'],
    // The dragonfly's ugal draws its intermediate after the cycle's random injection VCs, which the
    // engine therefore draws a step ahead; a packet to its own terminal ejects on VC 2, its phase
    // (251.84 at 0.45, seed 5, before both and 250.89 with the first alone, against 270.05).
    ['dragonflynew_k2_ugal_uniform_p4', 0.45, 4, "the dragonfly's ugal at BookSim's knee"],
    ['dragonflynew_k2_bad_dragon_ugal_p4', 0.1, 4, 'ugal under bad_dragon traffic'],
    // The fat tree's anca draws two up-ports at each switch the head climbs from, as it is re-routed there.
    ['fattree_k4n3_anca_bitcomp_p4', 0.7, 3, "anca at BookSim's knee"],
    // Lookahead routing decides an adaptive route as the source injects: the sources go by BookSim's
    // terminal ids (on this flatfly not the nodes' order) and read the credits in use as the routers
    // left them the cycle before (12.0150 at 0.05, seed 1, before either, against BookSim's 12.0141).
    ['flatfly_k4n2c4_adaptive_xyyx_lookahead_bitrev_p1', 0.5, 1, 'adaptive_xyyx decided at injection under lookahead routing'],
  ];
  for (const [name, rate, seed, covers] of cases) {
    it(`${name} at ${rate}, seed ${seed}: ${covers}`, () => {
      const [packetLatency, networkLatency, accepted, hops] = bookSimRow(name, rate, seed);
      const p = runExact(name, rate, seed);
      expect(p.saturated).toBe(false);
      expect(printed(p.packet_latency!)).toBe(packetLatency);
      expect(printed(p.network_latency!)).toBe(networkLatency);
      expect(printed(p.accepted_flit_rate!)).toBe(accepted);
      expect(printed(p.hops!)).toBe(hops);
    });
  }

  it('cmesh44_c4_dor_bitcomp_p4 at its knee, 0.1, seeds 1-10: every run BookSim\'s (a 33 % gap in means with Meshwork\'s own stream was the draw of packets)', () => {
    for (let seed = 1; seed <= 10; seed++) {
      const p = runExact('cmesh44_c4_dor_bitcomp_p4', 0.1, seed);
      expect(printed(p.packet_latency!), `seed ${seed}`).toBe(bookSimRow('cmesh44_c4_dor_bitcomp_p4', 0.1, seed)[0]);
    }
  });

  it("differs from BookSim's run without it (the default stream is Meshwork's own)", () => {
    const { run, topology } = loadBookSimCase('mesh88_lat_uniform_p4');
    const ours = simulateTraffic({ topology, pattern: run.pattern, rates: [0.4], preset: 'booksim', config: { ...run.config, seed: 5 }, measurementOptions: run.measurementOptions });
    expect(ours.randomStream).toBeUndefined();
    expect(printed((ours.points[0] as LoadPoint).packet_latency!)).not.toBe(bookSimRow('mesh88_lat_uniform_p4', 0.4, 5)[0]);
  });
});
