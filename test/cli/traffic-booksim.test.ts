import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectOneLineError, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

describe('meshwork traffic: BookSim configs, seeds, per-class channel latency', () => {
  it('a packet-size list: the table names the sizes and weights, and packet rates count by the mean size (issue 30)', () => {
    const dir = tempDir('bsc');
    const cfg = join(dir, 'mesh44_mix');
    writeFileSync(cfg, 'topology = mesh; k = 4; n = 2; routing_function = dim_order; num_vcs = 2; packet_size = {{1,8}}; packet_size_rate = {{3,1}}; injection_rate = 0.04;\n');
    const r = runCli(['traffic', '--booksim-config', cfg]);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toMatch(/ P=\{1,8\}:weights\{3,1\} .*rate=packets\/node\/cycle \(x2\.75 flits on average; accepted in flits\)/);
    // 0.04 packets/node/cycle of 2.75 flits on average: 0.11 flits/node/cycle accepted, well below the knee.
    const accepted = Number(r.stdout.split('\n')[2].trim().split(/\s+/)[3]);
    expect(Math.abs(accepted / 0.11 - 1)).toBeLessThan(0.05);
  });

  it("--booksim-config runs BookSim's anynet example: its network file read as BookSim reads it, min routing by BookSim's Dijkstra", () => {
    const r = runCli(['traffic', '--booksim-config', 'test/sim/packet/booksim/anynet_example.cfg', '--rates', '0.05']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).toMatch(/^# anynet:.*anynet_example\.anynet,model=booksim uniform preset=booksim P=1 VCs=1 buf=3 .*routing=anynet-min/);
    // BookSim 2.0 on the same file, seed 1 (test/sim/packet/booksim/anynet_example.csv): 10.7459 cycles.
    const latency = Number(r.stdout.split('\n')[2].trim().split(/\s+/)[1]);
    expect(Math.abs(latency / 10.7459 - 1)).toBeLessThan(0.05);
  });

  it("a file's pattern parameters reach the run: background's excluded nodes, hotspot's weighted nodes; --hot and --exclude set them by hand", () => {
    const file = runCli(['traffic', '--booksim-config', 'test/sim/packet/booksim/mesh88_background_p4.cfg', '--rates', '0.05', '--json']);
    expect(file.code, file.stderr).toBe(0);
    expect(JSON.parse(file.stdout).patternParams).toEqual({ excluded: [27, 28, 35, 36] });
    const weighted = runCli(['traffic', '--booksim-config', 'test/sim/packet/booksim/mesh88_hotspot_weighted_p1.cfg', '--rates', '0.004', '--json']);
    expect(JSON.parse(weighted.stdout).patternParams).toEqual({ hotRanks: [0, 63], hotWeights: [3, 1], fraction: 1 });
    // --hot on the command line replaces the file's hot nodes.
    const one = runCli(['traffic', '--booksim-config', 'test/sim/packet/booksim/mesh88_hotspot_weighted_p1.cfg', '--rates', '0.004', '--hot', '9', '--json']);
    expect(JSON.parse(one.stdout).patternParams).toEqual({ hotRank: 9, fraction: 1 });
    const byHand = runCli(['traffic', '--topology', 'mesh:4x4', '--pattern', 'hotspot', '--hot', '0:3,15', '--rates', '0.05', '--horizon', '500', '--json']);
    expect(JSON.parse(byHand.stdout).patternParams).toEqual({ hotRanks: [0, 15], hotWeights: [3, 1], fraction: 0.05 });
    const background = runCli(['traffic', '--topology', 'mesh:4x4', '--pattern', 'background', '--exclude', '5,6', '--rates', '0.05', '--horizon', '500', '--json']);
    expect(JSON.parse(background.stdout).patternParams).toEqual({ excluded: [5, 6] });
    expect(expectOneLineError(runCli(['traffic', '--topology', 'mesh:4x4', '--pattern', 'uniform', '--exclude', '5', '--rates', '0.05']))).toMatch(/^meshwork: error: exclude: got "5"; accepted: nothing unless --pattern background/);
    expect(expectOneLineError(runCli(['traffic', '--topology', 'mesh:4x4', '--pattern', 'hotspot', '--hot', '0:0,3', '--rates', '0.05']))).toMatch(/^meshwork: error: hot: got "0:0,3"; accepted: rank\[:weight\] with integer weights of at least 1/);
    expect(expectOneLineError(runCli(['traffic', '--topology', 'mesh:4x4', '--pattern', 'hotspot', '--hot', 'x', '--rates', '0.05']))).toMatch(/^meshwork: error: hot: got "x"; accepted: an integer in/);
  });

  it('--booksim-config runs a config written like BookSim examples/torus88 and records its keys', () => {
    const dir = tempDir('bsc');
    const cfg = join(dir, 'torus44');
    writeFileSync(cfg, '// $Id$\n\n//simple 4X4 torus\n\n// Topology\ntopology = torus;\nk = 4;\nn = 2;\n// Routing\nrouting_function = dim_order;\n// Flow control\nnum_vcs = 2;\n// Traffic\ntraffic = uniform;\ninjection_rate = 0.05;\nseed = 3;\n');
    const r = runCli(['traffic', '--booksim-config', cfg, '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.topology).toBe('torus:4x4');
    expect(j.config.vcs).toBe(2);
    expect(j.config.seed).toBe(3);
    expect(j.points.map((p: { rate: number }) => p.rate)).toEqual([0.05]);
    expect(j.bookSimConfig.routing_function).toBe('dim_order');
    // --rates sweeps the same config.
    const sweep = runCli(['traffic', '--booksim-config', cfg, '--rates', '0.05,0.1', '--json']);
    expect(JSON.parse(sweep.stdout).points).toHaveLength(2);
  });

  it('--rates beside a file with injection_rate_uses_flits = 0 are packets/node/cycle; the table says so; vct warns', () => {
    const dir = tempDir('bsc');
    const cfg = join(dir, 'mesh44_p4');
    writeFileSync(cfg, 'topology = mesh; k = 4; n = 2; routing_function = dim_order; num_vcs = 2; packet_size = 4; injection_rate = 0.02; vct = 1;\n');
    const r = runCli(['traffic', '--booksim-config', cfg, '--rates', '0.05', '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.rateUnit).toBe('packets');
    expect(j.points[0].rate).toBe(0.05);
    // 0.05 packets of 4 flits: 0.2 flits/node/cycle offered and accepted (well below a 4×4 mesh's knee).
    expect(Math.abs(j.points[0].accepted_flit_rate / 0.2 - 1)).toBeLessThan(0.05);
    expect(j.config.switching).toBe('wormhole');
    expect(j.warnings).toHaveLength(1);
    expect(r.stderr).toMatch(/^meshwork: warning: booksim-config: vct = 1 has no effect with router = iq/m);
    const text = runCli(['traffic', '--booksim-config', cfg]);
    expect(text.stdout.split('\n')[0]).toMatch(/rate=packets\/node\/cycle \(x4 flits; accepted in flits\)$/);
  });

  it('include_queuing = 0: the table says packet latency starts at generation, and --json records it', () => {
    const file = 'test/sim/packet/booksim/mesh88_include_queuing0_p4.cfg';
    const text = runCli(['traffic', '--booksim-config', file, '--rates', '0.1']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout.split('\n')[0]).toMatch(/rate=flits\/node\/cycle latency=from generation \(include_queuing = 0\)$/);
    const json = JSON.parse(runCli(['traffic', '--booksim-config', file, '--rates', '0.1', '--json']).stdout);
    expect(json.measurementOptions.includeQueuing).toBe(false);
  });

  it("--booksim-output prints BookSim's end-of-run block line for line; its numbers are BookSim's within a seed's noise", () => {
    // test/sim/packet/booksim/mesh44_p4_packets.log: BookSim 2.0 @ 28f43299 on the same file (seed 1).
    const dir = 'test/sim/packet/booksim/';
    const theirs = readFileSync(`${dir}mesh44_p4_packets.log`, 'utf8').trim().split('\n');
    const r = runCli(['traffic', '--booksim-config', `${dir}mesh44_p4_packets.cfg`, '--booksim-output']);
    expect(r.code).toBe(0);
    const ours = r.stdout.trim().split('\n');
    expect(ours[0]).toBe('// meshwork: injection_rate = 0.05 (packets/node/cycle), mesh:4x4 uniform');
    expect(ours).toHaveLength(theirs.length + 1);
    const label = (line: string): string => line.replace(/-?[0-9][0-9.e+-]*/g, 'N');
    const value = (line: string): number => Number(/= (\S+)/.exec(line)![1]);
    const theirValue = (prefix: string): number => value(theirs.find((l) => l.startsWith(prefix))!);
    const ourValue = (prefix: string): number => value(ours.find((l) => l.startsWith(prefix))!);
    expect(ours.slice(1).map(label)).toEqual(theirs.map(label));
    expect(Number(/is (\d+)/.exec(ours[1])![1]) / Number(/is (\d+)/.exec(theirs[0])![1])).toBeCloseTo(1, 1);
    for (const prefix of ['Packet latency average', 'Network latency average', 'Flit latency average', 'Injected flit rate average', 'Accepted flit rate average', 'Accepted packet rate average']) {
      expect(Math.abs(ourValue(prefix) / theirValue(prefix) - 1), prefix).toBeLessThan(0.05);
    }
    expect(Math.abs(ourValue('Hops average') / theirValue('Hops average') - 1)).toBeLessThan(0.02);
    // Zero-load minima are exact: the shortest route's pipeline (packet, network) and one flit's.
    const minimumAfter = (lines: string[], prefix: string): number => value(lines[lines.findIndex((l) => l.startsWith(prefix)) + 1]);
    for (const prefix of ['Packet latency average', 'Network latency average', 'Flit latency average']) expect(minimumAfter(ours, prefix), prefix).toBe(minimumAfter(theirs, prefix));
    expect(expectOneLineError(runCli(['traffic', '--booksim-config', `${dir}mesh44_p4_packets.cfg`, '--booksim-output', '--seeds', '1:2']))).toMatch(/seeds: .*nothing with --booksim-output/);
  });

  it("a sim_type = batch file: the table gives each batch's duration; --booksim-output prints BookSim's batch and end-of-run lines as BookSim does", () => {
    // test/sim/packet/booksim/mesh88_batch_transpose_p4.log: BookSim 2.0 @ 28f43299 on the same file, from
    // its first batch on (transpose on a mesh draws nothing: every figure is deterministic).
    const dir = 'test/sim/packet/booksim/';
    const cfg = `${dir}mesh88_batch_transpose_p4.cfg`;
    const theirs = readFileSync(`${dir}mesh88_batch_transpose_p4.log`, 'utf8').trim().split('\n');
    const r = runCli(['traffic', '--booksim-config', cfg, '--booksim-output']);
    expect(r.code, r.stderr).toBe(0);
    const ours = r.stdout.trim().split('\n');
    expect(ours[0]).toBe('// meshwork: sim_type = batch, mesh:8x8 transpose');
    // Every line in BookSim's order; BookSim adds per-batch statistics blocks Meshwork leaves out.
    let at = 0;
    for (const line of ours.slice(1)) {
      while (at < theirs.length && theirs[at] !== line) at++;
      expect(at, `"${line}" in BookSim's log, in order`).toBeLessThan(theirs.length);
      at++;
    }
    // From "Time taken" on, the whole block is BookSim's.
    expect(ours.slice(ours.findIndex((l) => l.startsWith('Time taken')))).toEqual(theirs.slice(theirs.findIndex((l) => l.startsWith('Time taken'))));
    expect(ours.filter((l) => l.startsWith('Sending batch'))).toEqual(['Sending batch 1 (10 packets)...', 'Sending batch 2 (10 packets)...']);
    const table = runCli(['traffic', '--booksim-config', cfg]);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^batch mode: 2 × 10 packets per node, max outstanding unlimited \(injection rate not read\)$/m);
    expect(table.stdout).toMatch(/^batch duration: min 327, average 327, max 327 cycles$/m);
    const json = JSON.parse(runCli(['traffic', '--booksim-config', cfg, '--json']).stdout);
    expect(json.measurement).toBe('batch');
    expect(json.points[0].batch).toMatchObject({ size: 10, count: 2, durations: [327, 327], averageDuration: 327 });
    const seeds = runCli(['traffic', '--booksim-config', cfg, '--seeds', '1:2']);
    expect(seeds.stdout.split('\n')[1]).toMatch(/batch_duration_mean$/);
    expect(seeds.stdout.split('\n')[2]).toMatch(/\s327$/);
    expect(expectOneLineError(runCli(['traffic', '--booksim-config', cfg, '--rates', '0.1']))).toMatch(/^meshwork: error: rates: got "0.1"; accepted: nothing with a sim_type = batch file/);
  });

  it('refuses a key it cannot honour in one line, writing no output file', () => {
    const dir = tempDir('bsc');
    const cfg = join(dir, 'c.cfg');
    const csv = join(dir, 'out.csv');
    writeFileSync(cfg, 'topology = torus; routing_function = dim_order; num_vcs = 2; input_speedup = 3;\n');
    expect(expectOneLineError(runCli(['traffic', '--booksim-config', cfg, '--csv', csv]))).toMatch(/^meshwork: error: booksim-config: input_speedup: got 3; accepted: an integer in \[1, 2\]/);
    expect(existsSync(csv)).toBe(false);
    const valid = join(dir, 'ok.cfg');
    writeFileSync(valid, 'topology = torus; k = 4; routing_function = dim_order; num_vcs = 2;\n');
    expect(expectOneLineError(runCli(['traffic', '--booksim-config', valid, '--topology', 'torus:4x4']))).toMatch(/^meshwork: error: topology: .*--booksim-config/);
    expect(expectOneLineError(runCli(['traffic', '--booksim-config', join(dir, 'missing.cfg')]))).toMatch(/booksim-config/);
  });

  it('--seeds reports mean and spread per rate, byte-identical across runs', () => {
    const dir = tempDir('seeds');
    const csv = join(dir, 's.csv');
    const args = ['traffic', '--topology', 'torus:4x4', '--pattern', 'uniform', '--rates', '0.05,0.1', '--seeds', '1:3', '--csv', csv];
    const a = runCli(args);
    expect(a.code).toBe(0);
    const lines = readFileSync(csv, 'utf8').trim().split('\n');
    expect(lines[0]).toBe('rate,seeds,saturated_seeds,latency_mean,latency_min,latency_max,latency_sd,accepted_flit_rate_mean,network_latency_mean,hops_mean,cycles_mean');
    const [rate, seeds, saturated, mean, min, max] = lines[1].split(',').map(Number);
    expect([rate, seeds, saturated]).toEqual([0.05, 3, 0]);
    expect(min).toBeLessThanOrEqual(mean);
    expect(max).toBeGreaterThanOrEqual(mean);
    expect(max).toBeGreaterThan(min);
    // The mean is the mean of the three single-seed runs, each run with its own seed.
    const j = JSON.parse(runCli([...args.slice(0, -2), '--json']).stdout);
    expect(j.runs.map((run: { config: { seed: number } }) => run.config.seed)).toEqual([1, 2, 3]);
    const single = j.runs.map((run: { points: Array<{ packet_latency: number }> }) => run.points[0].packet_latency);
    expect(mean).toBeCloseTo((single[0] + single[1] + single[2]) / 3, 3);
    expect(j.points[0].packet_latency.mean).toBeCloseTo(mean, 3);
    // --seeds keeps every single-seed column: network latency, hops and cycles as means of the seeds.
    const column = (key: 'network_latency' | 'hops' | 'cycles'): number => j.runs.reduce((a: number, run: { points: Array<Record<string, number>> }) => a + run.points[0][key], 0) / 3;
    const [networkMean, hopsMean, cyclesMean] = lines[1].split(',').slice(8).map(Number);
    expect(networkMean).toBeCloseTo(column('network_latency'), 3);
    expect(hopsMean).toBeCloseTo(column('hops'), 3);
    expect(cyclesMean).toBeCloseTo(column('cycles'), 1);
    expect(cyclesMean).toBeGreaterThan(3000);
    const again = join(dir, 'again.csv');
    expect(runCli([...args.slice(0, -1), again]).code).toBe(0);
    expect(readFileSync(again, 'utf8')).toBe(readFileSync(csv, 'utf8'));
    expect(expectOneLineError(runCli(['traffic', '--topology', 'torus:4x4', '--pattern', 'uniform', '--rates', '0.05', '--seeds', '5:1']))).toMatch(/seeds/);
  });

  it('--channel-latency takes per-class values (local=10,global=100,terminal=1)', () => {
    const r = runCli(['traffic', '--topology', 'dragonfly:h=1', '--pattern', 'uniform', '--rates', '0.02', '--preset', 'default', '--vcs', '3', '--channel-latency', 'local=10,global=100,terminal=1', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).config.channelLatency).toEqual({ local: 10, global: 100, terminal: 1 });
    expect(expectOneLineError(runCli(['traffic', '--topology', 'torus:4x4', '--pattern', 'uniform', '--rates', '0.05', '--channel-latency', 'local=x']))).toMatch(/channel-latency/);
  });

  it('--channel-latency refuses a class the topology lacks and a class given twice (both ran, the value ignored or overwritten)', () => {
    const traffic = ['traffic', '--topology', 'dragonfly:h=1', '--pattern', 'uniform', '--rates', '0.02', '--preset', 'default', '--vcs', '3'];
    expect(expectOneLineError(runCli([...traffic, '--channel-latency', 'local=10,glboal=100']))).toBe(
      'meshwork: error: channel-latency: got "glboal"; accepted: a channel class of dragonfly:h=1: terminal, local, global, default',
    );
    expect(expectOneLineError(runCli([...traffic, '--channel-latency', 'local=3,local=4']))).toBe('meshwork: error: channel-latency: got "local=3,local=4"; accepted: each class at most once');
    const run = ['run', '--topology', 'ring:4', '--collective', 'allreduce', '--algorithm', 'ring', '--size', '1KiB', '--engine', 'packet', '--channel-latency', 'nope=3'];
    expect(expectOneLineError(runCli(run))).toMatch(/^meshwork: error: channel-latency: got "nope"; accepted: a channel class of ring:4: .*default$/);
  });

  it("--random-stream booksim: BookSim's own run, digit for digit, named in the header and kept in the request", () => {
    // test/sim/packet/booksim/mesh88_lat_uniform_p4.csv, BookSim 2.0 @ 28f43299 at 0.4, seed 5: packet
    // latency 53.8395, network latency 52.777 (this run is cycle-exact: test/sim/packet/booksim-exact.test.ts).
    const args = ['traffic', '--booksim-config', 'test/sim/packet/booksim/mesh88_lat_uniform_p4.cfg', '--rates', '0.4', '--seed', '5'];
    const r = runCli([...args, '--random-stream', 'booksim', '--booksim-output']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Packet latency average = 53\.8395 \(1 samples\)$/m);
    expect(r.stdout).toMatch(/^Network latency average = 52\.777 \(1 samples\)$/m);
    const table = runCli([...args, '--random-stream', 'booksim']);
    expect(table.stdout.split('\n')[0]).toMatch(/ random=booksim$/);
    const request = JSON.parse(runCli([...args, '--random-stream', 'booksim', '--print-request']).stdout);
    expect(request.workload.randomStream).toBe('booksim');
    expect(expectOneLineError(runCli([...args, '--random-stream', 'knuth']))).toBe('meshwork: error: random-stream: got "knuth"; accepted: meshwork | booksim');
    // BookSim's whole end-of-run block, every line (test/sim/packet/booksim/mesh44_p4_packets.log, seed 1):
    // the run's length, the latencies with their extremes, fragmentation, injected and accepted rates, hops.
    const dir = 'test/sim/packet/booksim/';
    const theirs = readFileSync(`${dir}mesh44_p4_packets.log`, 'utf8').trim().split('\n');
    const ours = runCli(['traffic', '--booksim-config', `${dir}mesh44_p4_packets.cfg`, '--booksim-output', '--random-stream', 'booksim']).stdout.trim().split('\n');
    expect(ours.slice(1)).toEqual(theirs);
  });
});
