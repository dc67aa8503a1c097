/**
 * BookSim 2.0 configuration files (booksim/booksim2 @ 28f43299: src/config.l, src/config.y for the
 * grammar, src/booksim_config.cpp for the defaults of absent keys): parsing, one test per supported
 * key, and refusal of what Meshwork cannot honour.
 */
import { describe, expect, it } from 'vitest';
import { bookSimRun, InputError, parseBookSimConfig, simulateTraffic, type BookSimRun } from '../../../src/index.js';
import { buildTopology, familyOf } from '../../../src/topology/registry.js';

const run = (text: string): BookSimRun => bookSimRun(parseBookSimConfig(text));
/** A minimal valid file plus `extra` commands (later commands override earlier ones, as in BookSim). */
const withKeys = (extra: string): BookSimRun => run(`topology = torus; k = 4; n = 2; routing_function = dim_order; num_vcs = 2;\n${extra}`);
/** BookSim's examples/flatflyconfig network (k = 4, n = 2, c = 4 as 2×2 tiles), every channel 1 cycle. */
const FLATFLY = 'topology = flatfly; k = 4; n = 2; c = 4; x = 4; y = 4; xr = 2; yr = 2; use_noc_latency = 0; num_vcs = 2;';
/** BookSim's cmesh as its assertions require: n = 2, c = 4, x = y, xr = yr = 2. */
const CMESH = 'topology = cmesh; k = 4; n = 2; c = 4; x = 4; y = 4; xr = 2; yr = 2; num_vcs = 2;';
const refusal = (text: string): string => {
  try {
    run(text);
  } catch (err) {
    expect(err).toBeInstanceOf(InputError);
    return (err as Error).message;
  }
  throw new Error('not refused');
};

describe('BookSim config grammar', () => {
  it('reads a file written as BookSim examples/ are: // comments, blank lines, ; and mixed spacing', () => {
    // Shaped like examples/torus88 (header comment lines, one command a line, comments between).
    const text = [
      '// $Id$',
      '',
      '//simple 8X8 torus under injection mode',
      '',
      '// Topology',
      'topology = torus;',
      'k = 8;',
      'n = 2;',
      '// Routing',
      'routing_function = dim_order;',
      '// Flow control',
      'num_vcs = 2;',
      '// Traffic',
      'traffic = uniform;',
      'injection_rate = 0.15;',
    ].join('\n');
    expect(parseBookSimConfig(text)).toEqual([
      { key: 'topology', value: 'torus', line: 6, kind: 'str' },
      { key: 'k', value: 8, line: 7, kind: 'int' },
      { key: 'n', value: 2, line: 8, kind: 'int' },
      { key: 'routing_function', value: 'dim_order', line: 10, kind: 'str' },
      { key: 'num_vcs', value: 2, line: 12, kind: 'int' },
      { key: 'traffic', value: 'uniform', line: 14, kind: 'str' },
      { key: 'injection_rate', value: 0.15, line: 15, kind: 'float' },
    ]);
    const r = bookSimRun(parseBookSimConfig(text));
    expect(r.topologySpec).toBe('torus:8x8');
    // injection_rate_uses_flits defaults to 0 in BookSim: 0.15 packets of 1 flit.
    expect(r.rates).toEqual([0.15]);
  });

  it('tokenizes like flex: nested {} values, floats with exponents, several commands a line, -1 a number, - a name', () => {
    const e = parseBookSimConfig('injection_rate = {0.1,{0.2,0.3}}; x=1e-2;y = -1 ; watch_out=-;z=.5;');
    expect(e.map((x) => x.value)).toEqual(['{0.1,{0.2,0.3}}', 0.01, -1, '-', 0.5]);
  });

  it('refuses a malformed command with its line number', () => {
    expect(() => parseBookSimConfig('k = 8\nn = 2;')).toThrow(/line 2.*";" after k = 8/);
    expect(() => parseBookSimConfig('k 8;')).toThrow(/"=" after k/);
    expect(() => parseBookSimConfig('k = ;')).toThrow(/a number or name as the value of k/);
  });
});

describe('BookSim config keys', () => {
  it('topology, k, n: torus, mesh, fattree, dragonflynew, flatfly, cmesh', () => {
    expect(withKeys('k = 8; n = 3;').topologySpec).toBe('torus:8x8x8');
    expect(withKeys('topology = mesh; routing_function = dor;').topologySpec).toBe('mesh:4x4');
    expect(run('topology = fattree; k = 4; n = 3; routing_function = nca;').topologySpec).toBe('fattree:k=4,levels=3');
    expect(run('topology = dragonflynew; k = 2; n = 1; routing_function = min; num_vcs = 2;').topologySpec).toBe('dragonfly:h=2,wiring=booksim');
    expect(run(`${FLATFLY} routing_function = ran_min;`).topologySpec).toBe('flatfly:k=4,n=2,c=4,x=4,xr=2,yr=2,numbering=tiles');
    expect(run(`${CMESH} routing_function = dor_no_express;`).topologySpec).toBe('cmesh:k=4');
    expect(run('topology = fly; k = 4; n = 3; routing_function = dest_tag;')).toMatchObject({ topologySpec: 'fly:k=4,n=3', routing: 'fly-dest-tag' });
    expect(refusal('topology = qtree;')).toMatch(/booksim-config: topology: got "qtree"/);
    // anynet: its network file as BookSim reads it, min routing; the patterns that read only the node count.
    const anynet = run('topology = anynet; network_file = nets/a.anynet; routing_function = min;');
    expect(anynet.topologySpec).toBe('anynet:nets/a.anynet,model=booksim');
    expect(anynet.routingName).toBe('anynet-min');
    expect(refusal('topology = anynet; routing_function = min;')).toMatch(/network_file: got ""; accepted: the path of an anynet file \(BookSim exits with "No network file name provided"\)/);
    // BookSim's bit permutations, randperm and hotspot need only the node count (traffic.cpp), and
    // anynet node ids are Meshwork's ranks; tornado and neighbor read digits of k and n (BookSim's
    // defaults 8 and 2 here), which anynet node ids do not follow.
    for (const p of ['transpose', 'bitcomp', 'bitrev', 'shuffle', 'randperm', 'hotspot(3)']) {
      expect(run(`topology = anynet; network_file = a.anynet; routing_function = min; traffic = ${p};`).pattern).toBe(p.replace(/\(.*/, ''));
    }
    expect(refusal('topology = anynet; network_file = a.anynet; routing_function = min; traffic = tornado;')).toMatch(/traffic: got "tornado"; accepted: uniform, bitcomp, bitrev, transpose, shuffle, randperm or hotspot with anynet \(tornado and neighbor compute destinations from the digits of k and n/);
    expect(refusal('topology = anynet; network_file = a.anynet; routing_function = min; traffic = neighbor({2,2,1});')).toMatch(/traffic: got "neighbor\(\{2,2,1\}\)"; accepted: uniform, bitcomp/);
    expect(refusal('topology = dragonflynew; k = 2; n = 2; routing_function = min; num_vcs = 2;')).toMatch(/n: got 2/);
  });

  it('routing_function: the one BookSim routing per topology that Meshwork reproduces', () => {
    expect(withKeys('').routing).toBe('dor');
    expect(run('topology = fattree; k = 2; n = 2; routing_function = nca;').routing).toBe('nca');
    expect(run('topology = dragonflynew; k = 2; n = 1; routing_function = min; num_vcs = 2;').routing).toBe('group-direct');
    expect(run('topology = dragonflynew; k = 2; n = 1; routing_function = ugal; num_vcs = 3;').routing).toBe('ugal-booksim');
    expect(refusal('topology = dragonflynew; k = 2; n = 1; routing_function = ugal; num_vcs = 2;')).toMatch(/num_vcs: got 2; accepted: 3/);
    expect(run(`${FLATFLY} routing_function = ran_min;`).routing).toBe('shortest');
    expect(run(`${FLATFLY} routing_function = ugal;`)).toMatchObject({ routing: 'ugal-flatfly', routingName: 'ugal-flatfly' });
    expect(run(`${FLATFLY} routing_function = xyyx;`)).toMatchObject({ routing: 'xyyx-flatfly', routingName: 'xyyx-flatfly' });
    expect(run(`${FLATFLY} routing_function = adaptive_xyyx;`)).toMatchObject({ routing: 'adaptive-xyyx-flatfly', routingName: 'adaptive-xyyx-flatfly' });
    expect(run(`${FLATFLY} routing_function = valiant;`)).toMatchObject({ routing: 'valiant-flatfly', routingName: 'valiant-flatfly' });
    expect(refusal(`${FLATFLY} routing_function = min_adapt;`)).toMatch(/routing_function: got "min_adapt"; accepted: ran_min \| ugal \| xyyx \| adaptive_xyyx \| valiant with flatfly \(min_adapt: .*min_adapt_mesh and min_adapt_torus only/);
    // min_adapt_torus routes adaptive packets on VC 3 (routefunc.cpp): BookSim asserts with fewer VCs.
    expect(refusal('topology = torus; k = 4; n = 2; routing_function = min_adapt; num_vcs = 2;')).toMatch(/num_vcs: got 2; accepted: at least 4 with torus min_adapt/);
    expect(run('topology = torus; k = 4; n = 2; routing_function = min_adapt; num_vcs = 4;')).toMatchObject({ routing: 'min-adapt', routingName: 'min-adapt' });
    expect(run('topology = torus; k = 4; n = 2; routing_function = dim_order_bal; num_vcs = 2;')).toMatchObject({ routing: 'dor-bal', routingName: 'dor-bal' });
    expect(refusal('topology = mesh; k = 4; n = 2; routing_function = dim_order_bal;')).toMatch(/dim_order_bal: balanced dimension order \(Meshwork models dim_order_bal_torus only\)/);
    // BookSim's default is "none", which BookSim itself rejects.
    expect(refusal('topology = torus;')).toMatch(/routing_function: got "none"/);
  });

  it('num_vcs (BookSim default 16), vc_buf_size (8), packet_size (1), vct', () => {
    expect(withKeys('').config.vcs).toBe(2);
    expect(run('topology = torus; routing_function = dim_order;').config.vcs).toBe(16);
    expect(withKeys('vc_buf_size = 3;').config.vcBuf).toBe(3);
    expect(withKeys('packet_size = 5;').config.packetSize).toBe(5);
    // BookSim's iq router never reads vct (only router = event does): wormhole, with the warning.
    expect(withKeys('vct = 1;').config.switching).toBe('wormhole');
    expect(withKeys('vct = 1;').warnings).toEqual([expect.stringMatching(/^booksim-config: vct = 1 has no effect with router = iq/)]);
    expect(withKeys('vct = 0;').warnings).toEqual([]);
    // randperm is BookSim's own permutation (perm_seed, default 0): nothing to warn about.
    expect(withKeys('traffic = randperm;').warnings).toEqual([]);
    // buf_size under the private buffer policy: each VC buf_size / num_vcs flits (BookSim 2.0 on a mesh
    // 8×8 at 0.35: buf_size = 9 with vc_buf_size = 100 and 2 VCs, and vc_buf_size = 4, both 508.847 cycles).
    expect(run('topology = torus; k = 4; n = 2; routing_function = dim_order; num_vcs = 2; buf_size = 9; vc_buf_size = 100;').config.vcBuf).toBe(4);
    expect(run('topology = torus; k = 4; n = 2; routing_function = dim_order; num_vcs = 2; buf_size = -1; vc_buf_size = 6;').config.vcBuf).toBe(6);
    expect(refusal('topology = torus; k = 4; n = 2; routing_function = dim_order; num_vcs = 4; buf_size = 3;')).toMatch(/buf_size: got 3; accepted: at least num_vcs \(4\) flits/);
    // Keys BookSim reads only under a setting Meshwork refuses change nothing without it, as in BookSim.
    expect(run('topology = torus; k = 4; n = 2; routing_function = dim_order; num_vcs = 2; spec_sw_allocator = prio; spec_check_elig = 1; spec_check_cred = 1; spec_mask_by_reqs = 1; fail_seed = 3; write_fraction = 0.5; read_request_subnet = 0;').config.vcs).toBe(2);
    // dragonflynew min runs with any num_vcs ≥ 2, as BookSim does (it asserts only for ugal): one VC per phase.
    expect(run('topology = dragonflynew; k = 2; n = 1; routing_function = min; num_vcs = 4;')).toMatchObject({ config: { vcs: 4 }, vcsPerClass: 1 });
    expect(refusal('topology = dragonflynew; k = 2; n = 1; routing_function = min; num_vcs = 1;')).toMatch(/num_vcs: got 1; accepted: at least 2/);
  });

  it('packet-size lists as BookSim reads them: one list per class, weights from packet_size_rate (issue 30)', () => {
    // {{1,8}}: class 0 sends 1- and 8-flit packets; with packet_size_rate = {{3,1}} three in four are 1 flit.
    const mixed = withKeys('packet_size = {{1,8}}; packet_size_rate = {{3,1}}; injection_rate = 0.1;');
    expect(mixed.packetSizes).toEqual({ sizes: [1, 8], weights: [3, 1] });
    expect(mixed.config.packetSize).toBe(8);
    // Packet rates become flit rates by the mean size, (3·1 + 1·8) / 4 = 2.75 (BookSim _GetAveragePacketSize).
    expect(mixed.rates[0]).toBeCloseTo(0.275, 12);
    // One integer weight is every size's; a short weight list repeats its last value.
    expect(withKeys('packet_size = {{2,4,6}}; packet_size_rate = 2;').packetSizes).toEqual({ sizes: [2, 4, 6], weights: [2, 2, 2] });
    expect(withKeys('packet_size = {{2,4,6}}; packet_size_rate = {{5,1}};').packetSizes).toEqual({ sizes: [2, 4, 6], weights: [5, 1, 1] });
    // {1,8} is one list per class: class 0 sends 1-flit packets (8 would be class 1's), as BookSim cuts the lists to its classes.
    const flat = withKeys('packet_size = {1,8};');
    expect(flat.packetSizes).toBeUndefined();
    expect(flat.config.packetSize).toBe(1);
    expect(refusal('topology = torus; routing_function = dim_order; packet_size = {{1,0}};')).toMatch(/packet_size: got "\{\{1,0\}\}"; accepted: an integer in \[1, 65536\], or a list/);
    expect(refusal('topology = torus; routing_function = dim_order; packet_size = {{1,8}}; packet_size_rate = {{0,0}};')).toMatch(/packet_size_rate: got "\{\{0,0\}\}"; accepted: integer weights/);
  });

  it('traffic: BookSim pattern names', () => {
    for (const p of ['uniform', 'bitrev', 'bitcomp', 'transpose', 'shuffle', 'tornado', 'neighbor', 'randperm']) expect(withKeys(`traffic = ${p};`).pattern).toBe(p);
    // Parameters as BookSim's tokenize_str reads them: `tornado(8,2,1)` is ONE parameter "8,2,1" (atoi: k = 8).
    expect(run('topology = torus; k = 8; n = 2; routing_function = dim_order; num_vcs = 2; traffic = tornado(8,2,1);').pattern).toBe('tornado');
    expect(run('topology = torus; k = 8; n = 2; routing_function = dim_order; num_vcs = 2; traffic = tornado({8,2,1});').pattern).toBe('tornado');
    // The digits are BookSim's parameters, whatever the network: n digits of radix xr·k.
    expect(run('topology = torus; k = 8; n = 2; routing_function = dim_order; num_vcs = 2; traffic = tornado({4,2,1});').patternOptions).toEqual({ digits: { k: 4, n: 2, xr: 1 } });
    // On a torus of 64 nodes (2·8)^2 destinations do not exist (BookSim would send to them).
    expect(refusal('topology = torus; k = 8; n = 2; routing_function = dim_order; num_vcs = 2; traffic = tornado({8,2,2});')).toMatch(/traffic: got "tornado\(\{8,2,2\}\)"; accepted: tornado with k >= 2, n >= 1, xr >= 1 and \(xr·k\)\^n <= 64/);
    expect(withKeys('traffic = bitcomp;').pattern).toBe('bitcomp');
    // One hot spot: every packet to it (BookSim's HotSpotTrafficPattern with one node).
    expect(withKeys('traffic = hotspot({{5},{1}});')).toMatchObject({ pattern: 'hotspot', patternOptions: { hotRank: 5, hotFraction: 1 } });
    expect(withKeys('traffic = hotspot(3);')).toMatchObject({ pattern: 'hotspot', patternOptions: { hotRank: 3 } });
    // Several hot spots, drawn by weight; a weight list shorter than the nodes repeats its last (rates.resize).
    expect(withKeys('traffic = hotspot({{0,9},{3,1}});').patternOptions).toEqual({ hotRanks: [0, 9], hotWeights: [3, 1], hotFraction: 1 });
    expect(withKeys('traffic = hotspot({{0,9,5},{2}});').patternOptions).toEqual({ hotRanks: [0, 9, 5], hotWeights: [2, 2, 2], hotFraction: 1 });
    // `hotspot({0,9})` is two parameters to BookSim (tokenize_str): hot node 0 at rate 9.
    expect(withKeys('traffic = hotspot({0,9});').patternOptions).toEqual({ hotRank: 0, hotFraction: 1 });
    expect(refusal('topology = torus; k = 4; routing_function = dim_order; traffic = hotspot;')).toMatch(/-1, a node BookSim draws at random, is not modelled/);
    expect(refusal('topology = torus; k = 4; routing_function = dim_order; traffic = hotspot({{0,16}});')).toMatch(/hotspot with nodes in \[0, 15\]/);
    // BookSim's other random patterns; bad_dragon and badperm_yarc read k, n, xr as tornado does.
    for (const p of ['diagonal', 'asymmetric', 'taper64']) expect(withKeys(`traffic = ${p};`).pattern).toBe(p);
    expect(withKeys('traffic = background({{1,2}});')).toMatchObject({ pattern: 'background', patternOptions: { exclude: [1, 2] } });
    expect(refusal('topology = torus; k = 4; routing_function = dim_order; traffic = background;')).toMatch(/background\(\{nodes\}\)/);
    expect(run('topology = dragonflynew; k = 2; n = 1; routing_function = min; num_vcs = 2; traffic = bad_dragon;')).toMatchObject({ pattern: 'bad-dragon', patternOptions: { digits: { k: 2, n: 1, xr: 1 } } });
    expect(run('topology = mesh; k = 8; n = 2; routing_function = dim_order; num_vcs = 2; traffic = badperm_yarc;')).toMatchObject({ pattern: 'badperm-yarc', patternOptions: { digits: { k: 8, n: 2, xr: 1 } } });
    // randperm: BookSim's permutation of perm_seed (default 0), or of randperm(s)'s parameter (atoi, as BookSim).
    expect(withKeys('traffic = randperm;').patternOptions).toEqual({ permSeed: 0, permutation: 'booksim' });
    expect(withKeys('traffic = randperm; perm_seed = 5;').patternOptions).toEqual({ permSeed: 5, permutation: 'booksim' });
    expect(withKeys('traffic = randperm(3); perm_seed = 5;').patternOptions).toEqual({ permSeed: 3, permutation: 'booksim' });
    // perm_seed is read only for randperm (traffic.cpp): elsewhere it has no effect, as in BookSim.
    expect(withKeys('traffic = uniform; perm_seed = 5;').patternOptions).toBeUndefined();
    expect(refusal('topology = torus; k = 4; routing_function = dim_order; traffic = randperm; perm_seed = time;')).toMatch(/perm_seed: got "time"; accepted: a non-negative integer permutation seed/);
  });

  it('sim_type, convergence thresholds, wait_for_tail_credit, mesh routings: accepted or refused with the reason', () => {
    expect(withKeys('sim_type = throughput; acc_warmup_thres = 0.02; acc_stopping_thres = -1.0; latency_thres = -1.0;').measurementOptions).toMatchObject({
      simType: 'throughput',
      accWarmupThreshold: 0.02,
      accStoppingThreshold: -1,
      latencyThreshold: -1,
    });
    // Batch mode: its three keys (BookSim's defaults 1000, 1, 0; a negative outstanding limit is none, as BookSim's `<= 0`),
    // no measurement options, no injection process (on/off is not read), any rate in (0, 1] in the file's unit.
    expect(withKeys('sim_type = batch; injection_process = on_off; packet_size = 4; injection_rate = 1.0;')).toMatchObject({ batch: { size: 1000, count: 1, maxOutstanding: 0 }, measurementOptions: {}, onOff: undefined, fileRates: [1] });
    expect(withKeys('sim_type = batch; batch_size = 16; batch_count = 3; max_outstanding_requests = -1;').batch).toEqual({ size: 16, count: 3, maxOutstanding: 0 });
    expect(withKeys('sim_type = batch; max_outstanding_requests = 4;').batch?.maxOutstanding).toBe(4);
    // Outside batch mode BookSim reads none of them: accepted, no effect.
    expect(withKeys('batch_size = 16; batch_count = 3; max_outstanding_requests = 2;').batch).toBeUndefined();
    expect(refusal('topology = torus; routing_function = dim_order; sim_type = batch; batch_size = 0;')).toMatch(/batch_size: got 0; accepted: an integer in \[1, /);
    expect(refusal('topology = torus; routing_function = dim_order; sim_type = batch; injection_rate = 0.0;')).toMatch(/injection_rate: got 0; accepted: a rate in \(0, 1\] with sim_type = batch/);
    expect(refusal('topology = torus; routing_function = dim_order; sim_type = event;')).toMatch(/sim_type: got "event"; accepted: latency \| throughput \| batch/);
    expect(withKeys('wait_for_tail_credit = 1;').config.vcAllocCheck).toBe('empty');
    for (const [name, routing] of [['romm', 'romm'], ['valiant', 'valiant-dor'], ['xy_yx', 'xy-yx'], ['adaptive_xy_yx', 'adaptive-xy-yx']]) {
      expect(run(`topology = mesh; k = 4; n = 2; num_vcs = 4; routing_function = ${name};`)).toMatchObject({ routing, routingName: routing });
    }
    expect(run('topology = mesh; k = 4; n = 2; num_vcs = 2; routing_function = min_adapt;')).toMatchObject({ routing: 'min-adapt', routingName: 'min-adapt' });
    expect(refusal('topology = torus; routing_function = valiant;')).toMatch(/valiant_mesh and valiant_flatfly only; BookSim's valiant_torus fails its own assertion ring_part == 1/);
    expect(run('topology = fattree; k = 4; n = 3; routing_function = anca;')).toMatchObject({ routing: 'anca', routingName: 'anca' });
    expect(refusal('topology = torus; routing_function = dim_order; seed = time;')).toMatch(/seed: got "time"; accepted: a non-negative integer \(BookSim "time" is not reproducible\)/);
  });

  it('injection_rate and injection_rate_uses_flits: rates become flits/node/cycle; a {list} is one run per rate', () => {
    expect(withKeys('packet_size = 4; injection_rate = 0.05;').rates).toEqual([0.2]);
    expect(withKeys('packet_size = 4; injection_rate = 0.05; injection_rate_uses_flits = 1;').rates).toEqual([0.05]);
    expect(withKeys('injection_rate_uses_flits = 1; injection_rate = {0.1,0.2};').rates).toEqual([0.1, 0.2]);
    expect(refusal('topology = torus; routing_function = dim_order; packet_size = 4; injection_rate = 0.5;')).toMatch(/injection_rate: got 0.5/);
    // The unit the file means travels with the run: --rates beside it are read in the same unit.
    expect(withKeys('packet_size = 4; injection_rate = 0.05;')).toMatchObject({ fileRates: [0.05], rateUnit: 'packets' });
    expect(withKeys('packet_size = 4; injection_rate = 0.05; injection_rate_uses_flits = 1;')).toMatchObject({ fileRates: [0.05], rateUnit: 'flits' });
  });

  it("refuses what BookSim's parser refuses, with its message: an integer token for a double key and the reverse", () => {
    // config.y assigns NUM to integer keys and FNUM to double ones (config_utils.cpp Configuration::Assign).
    expect(refusal('warmup_thres = 1000000;')).toMatch(/booksim-config line 1: warmup_thres: got 1000000; accepted: a number with a decimal point such as 1000000.0 or a name or a \{...\} list \(BookSim stops with "Unknown integer field: warmup_thres"\)/);
    expect(refusal('latency_thres = 500;')).toMatch(/Unknown integer field: latency_thres/);
    expect(refusal('num_vcs = 2.0;')).toMatch(/num_vcs: got 2; accepted: an integer such as 4 \(BookSim stops with "Unknown double field: num_vcs"\)/);
    expect(refusal('topology = 3;')).toMatch(/Unknown integer field: topology/);
    expect(withKeys('warmup_thres = 1000000.0; latency_thres = 500.0;').measurementOptions).toMatchObject({ warmupThreshold: 1e6, latencyThreshold: 500 });
  });

  it("refuses a torus with k = 2: BookSim's has two parallel channels each way", () => {
    expect(refusal('topology = torus; k = 2; n = 2; routing_function = dim_order; num_vcs = 2;')).toMatch(/k: got 2; accepted: at least 3 with torus/);
    expect(run('topology = mesh; k = 2; n = 2; routing_function = dim_order; num_vcs = 2;').topologySpec).toBe('mesh:2x2');
  });

  it('sim_type, warmup_periods, sample_period, max_samples, latency_thres, warmup_thres, stopping_thres', () => {
    const r = withKeys('sim_type = latency; warmup_periods = 2; sample_period = 500; max_samples = 7; latency_thres = 300.5; warmup_thres = 0.1; stopping_thres = 0.02;');
    // The accepted-rate thresholds default to BookSim's 0.05 (acc_warmup_thres, acc_stopping_thres).
    expect(r.measurementOptions).toEqual({ warmupPeriods: 2, samplePeriod: 500, maxSamples: 7, latencyThreshold: 300.5, warmupThreshold: 0.1, stoppingThreshold: 0.02, accWarmupThreshold: 0.05, accStoppingThreshold: 0.05, simType: 'latency' });
  });

  it('seed: an integer; "time" is refused (not reproducible)', () => {
    expect(withKeys('seed = 7;').config.seed).toBe(7);
    expect(withKeys('').config.seed).toBe(0);
    expect(refusal('topology = torus; routing_function = dim_order; seed = time;')).toMatch(/seed: got "time"/);
  });

  it('allocator and arbiter keys: vc_allocator, sw_allocator, alloc_iters, arb_type, priority', () => {
    // BookSim's iq router builds its allocators without the configuration: alloc_iters and arb_type
    // never reach them (BookSim 2.0 @ 28f43299, fattree bitcomp at 0.7 with 16 VCs: 68.3307 cycles
    // with alloc_iters 1, 2 and 4 alike), so they are read, warned about and have no effect.
    const r = withKeys('vc_allocator = islip; sw_allocator = islip; alloc_iters = 2; arb_type = matrix; priority = age;');
    expect(r.config.allocIters).toBe(1);
    expect(r.warnings.join('\n')).toMatch(/alloc_iters = 2 has no effect with router = iq .*write islip\(2\)/);
    expect(r.warnings.join('\n')).toMatch(/arb_type = matrix has no effect with router = iq/);
    expect(r.config.arbitration).toBe('age');
    // The iterations BookSim does run: islip(N), per allocator.
    expect(withKeys('vc_allocator = islip(2); sw_allocator = islip(2);').config).toMatchObject({ allocIters: 2 });
    // x, y, xr, yr are read by flatfly and cmesh; elsewhere xr only by the digit patterns (BookSim's runfiles/ftreeconfig sets xr = yr = 2 on a fat tree).
    expect(run('topology = fattree; k = 4; n = 3; routing_function = nca; x = 4; y = 4; xr = 2; yr = 2; traffic = bitcomp;').pattern).toBe('bitcomp');
    expect(run('topology = torus; k = 4; n = 2; routing_function = dim_order; num_vcs = 2; xr = 2; traffic = tornado({2,2});').patternOptions).toEqual({ digits: { k: 2, n: 2, xr: 2 } });
    // dragonflynew min on 3 VCs (runfiles/dragonflyconfig): BookSim asserts the count only for ugal; VC 2 serves injection alone.
    expect(run('topology = dragonflynew; k = 2; n = 1; routing_function = min; num_vcs = 3;')).toMatchObject({ vcsPerClass: 1, config: { vcs: 3 } });
    expect(withKeys('vc_allocator = islip; sw_allocator = islip(3);').config).toMatchObject({ allocIters: 1, swAllocIters: 3 });
    expect(withKeys('vc_allocator = islip(); sw_allocator = islip();').config.allocIters).toBe(1);
    expect(withKeys('vc_allocator = separable_input_first(round_robin);').config.allocator).toBe('separable-input-first');
    expect(refusal('topology = torus; routing_function = dim_order; vc_allocator = separable_input_first(matrix);')).toMatch(/other arbiter types are not modelled/);
    expect(refusal('topology = torus; routing_function = dim_order; sw_allocator = islip(0);')).toMatch(/islip\(N\) with N iterations in \[1, 64\]/);
    expect(withKeys('priority = none;').config.arbitration).toBe('round-robin');
    expect(withKeys('priority = class;').config.arbitration).toBe('round-robin');
    // BookSim's other priorities: the age arbiter's order on another value of the front flit (allocators/age.ts).
    const byName = { network_age: 'network-age', local_age: 'local-age', hop_count: 'hop-count', queue_length: 'queue-length', sequence: 'sequence' };
    for (const [bookSim, ours] of Object.entries(byName)) expect(withKeys(`priority = ${bookSim};`).config.arbitration).toBe(ours);
    expect(refusal('topology = torus; routing_function = dim_order; priority = oldest;')).toMatch(/priority: got "oldest"; accepted: none \| class \| age \| network_age \| local_age \| hop_count \| queue_length \| sequence/);
    expect(refusal('topology = torus; routing_function = dim_order; sw_allocator = wavefront; priority = hop_count;')).toMatch(/sw_allocator: got "wavefront"; accepted: islip or a separable allocator with priority = hop_count/);
    expect(withKeys('vc_allocator = separable_input_first; sw_allocator = separable_input_first;').config.allocator).toBe('separable-input-first');
    expect(withKeys('vc_allocator = separable_output_first; sw_allocator = separable_output_first;').config.allocator).toBe('separable-output-first');
    expect(withKeys('vc_allocator = wavefront; sw_allocator = rr_wavefront;').config).toMatchObject({ allocator: 'wavefront', swAllocator: 'rr-wavefront' });
    expect(refusal('topology = torus; routing_function = dim_order; vc_allocator = maxsize;')).toMatch(/vc_allocator: got "maxsize"; accepted: islip \| select \| separable_input_first \| separable_output_first \| wavefront \| rr_wavefront \| pim \| max_size \| loa/);
    expect(withKeys('vc_allocator = pim(2); sw_allocator = max_size;').config).toMatchObject({ allocator: 'pim', swAllocator: 'max-size', allocIters: 2 });
    expect(withKeys('vc_allocator = loa; sw_allocator = select(3);').config).toMatchObject({ allocator: 'loa', swAllocator: 'select', swAllocIters: 3 });
    expect(refusal('topology = torus; routing_function = dim_order; sw_allocator = select; priority = age;')).toMatch(/sw_allocator: got "select"; accepted: islip or a separable allocator with priority = age \(select's inputs accepting by packet priority is not modelled\)/);
    // BookSim's wavefront sweeps one level per request priority (age: per packet age): not modelled with priority = age.
    expect(refusal('topology = torus; routing_function = dim_order; sw_allocator = wavefront; priority = age;')).toMatch(/sw_allocator: got "wavefront"; accepted: islip or a separable allocator with priority = age/);
    // Separate allocators, as BookSim's iq router builds one of each kind.
    expect(withKeys('vc_allocator = islip; sw_allocator = separable_input_first;').config).toMatchObject({ allocator: 'islip-rr', swAllocator: 'separable-input-first' });
    expect(withKeys('vc_allocator = islip; sw_allocator = islip;').config.swAllocator).toBeUndefined();
  });

  it('pipeline delays: routing_delay (0 allowed), st_final_delay, st_prepare_delay, credit_delay; vc_alloc_delay and sw_alloc_delay only 1', () => {
    const r = withKeys('routing_delay = 0; vc_alloc_delay = 1; sw_alloc_delay = 1; st_final_delay = 2; credit_delay = 2;');
    expect([r.config.routingDelay, r.config.vcAllocDelay, r.config.swAllocDelay, r.config.stDelay, r.config.creditDelay]).toEqual([0, 1, 1, 2, 2]);
    // Lookahead routing: an adaptive routing reads the first router's credits as the source sends
    // the head (trafficmanager.cpp), not at a route stage; with a route stage, there.
    expect(r.config.adaptiveDecision).toBe('injection');
    expect(withKeys('routing_delay = 1;').config.adaptiveDecision).toBeUndefined(); // the default, first-router
    // BookSim's crossbar delay is their sum (router.cpp): on mesh44_st_final_delay2_p4 with
    // st_prepare_delay = 1 and st_final_delay = 1 BookSim prints 27.6603 and 67.3511 cycles at 0.05
    // and 0.7, the CSV's st_final_delay = 2 figures digit for digit.
    expect(withKeys('st_prepare_delay = 1; st_final_delay = 1;').config.stDelay).toBe(2);
    expect(withKeys('st_prepare_delay = 2;').config.stDelay).toBe(3);
    expect(refusal('topology = torus; routing_function = dim_order; st_prepare_delay = -1;')).toMatch(/st_prepare_delay: got -1; accepted: an integer in \[0, 1000\]/);
    // include_queuing = 0 stamps packets when generated (trafficmanager.cpp _Inject), in batch mode too.
    expect(withKeys('include_queuing = 0;').measurementOptions.includeQueuing).toBe(false);
    expect(withKeys('include_queuing = 1;').measurementOptions.includeQueuing).toBeUndefined();
    expect(withKeys('sim_type = batch; include_queuing = 0;').measurementOptions).toEqual({ includeQueuing: false });
    expect(refusal('topology = torus; routing_function = dim_order; include_queuing = 2;')).toMatch(/include_queuing: got 2; accepted: an integer in \[0, 1\]/);
    // vc_prioritize_empty: empty output VCs first at the input side of VC allocation.
    expect(withKeys('vc_prioritize_empty = 1; vc_allocator = separable_input_first;').config.vcPrioritizeEmpty).toBe(true);
    expect(withKeys('vc_prioritize_empty = 0;').config.vcPrioritizeEmpty).toBeUndefined();
    expect(withKeys('vc_shuffle_requests = 1; vc_priority_donation = 1; priority = age;').config).toMatchObject({ vcShuffleRequests: true, vcPriorityDonation: true, arbitration: 'age' });
    // output_delay is declared in booksim_config.cpp and read nowhere.
    expect(withKeys('output_delay = 3;').config).toEqual(withKeys('').config);
    // BookSim 2.0 @ 28f43299 on torus88 with each (issue 30): "... cannot have zero delay." for 0, and
    // Assertion `time >= 0' failed in _VCAllocEvaluate / _SWAllocEvaluate for 2 or 3, with lookahead routing or not.
    for (const [key, value, text] of [['vc_alloc_delay', 0, 'VC allocator cannot have zero delay'], ['vc_alloc_delay', 2, '_VCAllocEvaluate'], ['sw_alloc_delay', 0, 'Switch allocator cannot have zero delay'], ['sw_alloc_delay', 3, '_SWAllocEvaluate']] as const) {
      const line = refusal(`topology = torus; routing_function = dim_order; ${key} = ${value};`);
      expect(line).toContain(`booksim-config: ${key}: got ${value}; accepted: 1 (BookSim 2.0 stops`);
      expect(line).toContain(text);
    }
  });

  it('internal_speedup (BookSim examples/dragonflyconfig: 2.0) sets the router speedup; 1 by default', () => {
    expect(withKeys('').config.internalSpeedup).toBe(1);
    expect(withKeys('internal_speedup = 2.0;').config.internalSpeedup).toBe(2);
    expect(withKeys('internal_speedup = 1.5;').config.internalSpeedup).toBe(1.5);
  });

  it('read/write request keys (BookSim examples/flatflyconfig) are accepted only while use_read_write = 0, where they do nothing', () => {
    expect(withKeys('read_request_size = 1; write_reply_begin_vc = 4; read_reply_end_vc = 7;').topologySpec).toBe('torus:4x4');
    expect(refusal('topology = torus; routing_function = dim_order; use_read_write = 1; read_request_size = 1;')).toMatch(/use_read_write: got 1/);
  });

  it('flatfly: c, x, y, xr, yr with BookSim\'s assertions; use_noc_latency 1 gives each channel its wire length; with c > 1 terminals numbered across the tiles', () => {
    // BookSim flatfly_onchip.cpp asserts x = y, xr = yr and c = xr·yr; defaults x = 8, xr = 1, c = 1.
    expect(run('topology = flatfly; k = 8; n = 2; use_noc_latency = 0; routing_function = ran_min; traffic = transpose;')).toMatchObject({ topologySpec: 'flatfly:k=8,n=2,c=1', pattern: 'transpose' });
    expect(run(`${FLATFLY} routing_function = ran_min;`).config.channelLatency).toBe(1);
    expect(refusal(`${FLATFLY} routing_function = ran_min; y = 2;`)).toMatch(/booksim-config: y: got 4; accepted: x \(4; BookSim asserts x = y\)/);
    expect(refusal(`${FLATFLY} routing_function = ran_min; yr = 1;`)).toMatch(/booksim-config: yr: got 2/);
    expect(refusal(`${FLATFLY} routing_function = ran_min; c = 2;`)).toMatch(/booksim-config: c: got 2; accepted: xr·yr = 4/);
    // use_noc_latency = 1: the layout goes into the spec, and the booksim preset gives each channel xr·|dx| + yr·|dy| cycles.
    const noc = run(`${FLATFLY} routing_function = ran_min; use_noc_latency = 1;`);
    expect(noc.topologySpec).toBe('flatfly:k=4,n=2,c=4,x=4,xr=2,yr=2,numbering=tiles');
    expect(noc.config.channelLatency).toBeUndefined();
    const cycles = familyOf(buildTopology(noc.topologySpec))!.booksimChannelCycles!(buildTopology(noc.topologySpec))!;
    const t = buildTopology(noc.topologySpec);
    const between = (a: number, b: number): number => cycles[t.channelBetween(t.numEndpoints + a, t.numEndpoints + b)];
    // Routers 0 and 3 are 3 tiles apart in a row (6 cycles), 0 and 12 three rows apart (6), 5 and 6 neighbours (2); terminal channels 1.
    expect([between(0, 3), between(0, 12), between(5, 6), between(6, 5)]).toEqual([6, 6, 2, 2]);
    expect(cycles[t.outChannels[t.outStart[0]]]).toBe(1);
    expect(refusal(`${FLATFLY.replace('c = 4;', 'c = 16;').replace('xr = 2;', 'xr = 4;').replace('yr = 2;', 'yr = 4;')} routing_function = ran_min; use_noc_latency = 1;`)).toMatch(/booksim-config: xr: got 4; accepted: at most 3 with use_noc_latency = 1/);
    // c > 1: BookSim's terminal ids (flatfly_transformation) are the ranks, so every pattern runs; tornado reads xr = 2.
    expect(run(`${FLATFLY} routing_function = ran_min; traffic = transpose;`)).toMatchObject({ topologySpec: 'flatfly:k=4,n=2,c=4,x=4,xr=2,yr=2,numbering=tiles', pattern: 'transpose', patternOptions: undefined });
    expect(run(`${FLATFLY} routing_function = ran_min; traffic = tornado;`)).toMatchObject({ pattern: 'tornado', patternOptions: { digits: { k: 4, n: 2, xr: 2 } } });
    expect(run(`${FLATFLY} routing_function = ran_min; traffic = tornado({4,2,1});`).patternOptions).toEqual({ digits: { k: 4, n: 2, xr: 1 } });
    // The tiles must fill whole rows of x routers, or BookSim's ids name routers that do not exist.
    expect(refusal(`${FLATFLY.replace('x = 4;', 'x = 3;').replace('y = 4;', 'y = 3;')} routing_function = ran_min;`)).toMatch(/booksim-config: x: got 3; accepted: a divisor of the 16 routers with c > 1/);
    expect(refusal(`${FLATFLY} routing_function = ran_min; n = 5;`)).toMatch(/booksim-config: n: got 5/);
    expect(refusal('topology = torus; routing_function = dim_order; c = 4;')).toMatch(/booksim-config: c: got 4; accepted: 1/);
  });

  it("cmesh: BookSim's four routing functions, its assertions (n = 2, c = 4, x = y, xr = yr = 2), even k >= 4, its channel latencies", () => {
    expect(run(`${CMESH} routing_function = dor;`)).toMatchObject({ topologySpec: 'cmesh:k=4', routing: 'cmesh-dor', routingName: undefined });
    expect(run(`${CMESH} routing_function = dor_no_express;`)).toMatchObject({ routing: 'cmesh-dor-no-express', routingName: 'cmesh-dor-no-express' });
    expect(run(`${CMESH} routing_function = xy_yx;`)).toMatchObject({ routing: 'cmesh-xy-yx', routingName: 'cmesh-xy-yx' });
    expect(run(`${CMESH} routing_function = xy_yx_no_express;`)).toMatchObject({ routing: 'cmesh-xy-yx-no-express', routingName: 'cmesh-xy-yx-no-express' });
    // BookSim's bit patterns name the same terminals (ranks are BookSim's terminal ids); use_noc_latency = 0 makes every channel 1 cycle.
    expect(run(`${CMESH} routing_function = dor; traffic = transpose; use_noc_latency = 0;`)).toMatchObject({ pattern: 'transpose', config: { channelLatency: 1 } });
    expect(run(`${CMESH} routing_function = dor;`).config.channelLatency).toBeUndefined();
    expect(refusal(`${CMESH} routing_function = dim_order;`)).toMatch(/booksim-config: routing_function: got "dim_order"; accepted: dor \| dor_no_express \| xy_yx \| xy_yx_no_express/);
    expect(refusal(`${CMESH} routing_function = dor; n = 1;`)).toMatch(/booksim-config: n: got 1; accepted: 2 with cmesh/);
    expect(refusal(`${CMESH} routing_function = dor; k = 5;`)).toMatch(/booksim-config: k: got 5; accepted: an even integer of at least 4 with cmesh/);
    expect(refusal(`${CMESH} routing_function = dor; c = 1;`)).toMatch(/booksim-config: c: got 1; accepted: 4 with cmesh \(BookSim asserts c == 4\)/);
    expect(refusal(`${CMESH} routing_function = dor; y = 8;`)).toMatch(/booksim-config: y: got 8; accepted: x \(4; BookSim asserts x = y\)/);
    expect(refusal(`${CMESH} routing_function = dor; yr = 1;`)).toMatch(/booksim-config: yr: got 1; accepted: xr \(2; BookSim asserts xr = yr\)/);
    expect(refusal(`${CMESH} routing_function = dor; xr = 1; yr = 1;`)).toMatch(/booksim-config: xr: got 1; accepted: 2 with cmesh/);
    // tornado on 64 cmesh terminals reads xr = 2 as BookSim does: 8-ary digits of the terminal ids.
    expect(run(`${CMESH} routing_function = dor; traffic = tornado;`)).toMatchObject({ pattern: 'tornado', patternOptions: { digits: { k: 4, n: 2, xr: 2 } } });
  });

  it('vc_busy_when_full and use_noc_latency', () => {
    expect(withKeys('').config.vcAllocCheck).toBe('free');
    expect(withKeys('vc_busy_when_full = 1;').config.vcAllocCheck).toBe('free-with-credit');
    expect(withKeys('use_noc_latency = 0;').config.channelLatency).toBe(1);
    expect(withKeys('').config.channelLatency).toBeUndefined();
  });

  it('refuses every key or value Meshwork cannot honour, naming the key, and ignores only output-only keys', () => {
    // input_speedup: crossbar inputs per input port (iq_router.cpp expanded inputs), up to num_vcs,
    // with lookahead routing too (BookSim's examples/mesh88_lat, booksim-ref.test.ts).
    expect(withKeys('input_speedup = 2;').config.inputSpeedup).toBe(2);
    expect(withKeys('routing_delay = 0; input_speedup = 2;').config).toMatchObject({ routingDelay: 0, inputSpeedup: 2 });
    expect(withKeys('input_speedup = 1;').config.inputSpeedup).toBeUndefined();
    expect(refusal('topology = torus; routing_function = dim_order; num_vcs = 2; input_speedup = 3;')).toMatch(/input_speedup: got 3; accepted: an integer in \[1, 2\]/);
    // output_speedup: an integer number of crossbar lanes per output (iq_router.cpp expanded outputs).
    expect(withKeys('output_speedup = 2;').config.outputSpeedup).toBe(2);
    expect(withKeys('output_speedup = 1;').config.outputSpeedup).toBeUndefined();
    expect(refusal('topology = torus; routing_function = dim_order; output_speedup = 0;')).toMatch(/output_speedup: got 0; accepted: an integer in \[1, 16\]/);
    expect(refusal('topology = torus; routing_function = dim_order; internal_speedup = 0.5;')).toMatch(/internal_speedup: got 0.5; accepted: a number in \[1, 16\]/);
    // hold_switch_for_packet: modelled at speedup 1 (iq_router.cpp _SWHoldUpdate); with one-flit
    // packets it never holds (BookSim's own fat-tree example sets it), so nothing is switched on.
    expect(withKeys('packet_size = 4; hold_switch_for_packet = 1;').config.holdSwitchForPacket).toBe(true);
    expect(withKeys('hold_switch_for_packet = 1;').config.holdSwitchForPacket).toBeUndefined();
    expect(refusal('topology = torus; routing_function = dim_order; packet_size = 4; hold_switch_for_packet = 1; internal_speedup = 2.0;')).toMatch(/hold_switch_for_packet: got 1; accepted: 0 with internal_speedup, input_speedup or output_speedup above 1/);
    expect(() => simulateTraffic({ topology: buildTopology('mesh:4x4'), pattern: 'uniform', rates: [0.1], preset: 'booksim', config: { packetSize: 4, holdSwitchForPacket: true, outputSpeedup: 2 }, horizon: 10, measurement: 'horizon' })).toThrow(
      /^hold-switch-for-packet: got "true"; accepted: false with an internal, input or output speedup/,
    );
    expect(refusal('topology = torus; routing_function = dim_order; frobnicate = 3;')).toMatch(/booksim-config line 1: frobnicate: got 3; accepted: a key BookSim 2.0 declares \(BookSim stops with "Unknown integer field: frobnicate"\)/);
    expect(withKeys('watch_out = -; print_csv_results = 0;').topologySpec).toBe('torus:4x4');
  });
});
