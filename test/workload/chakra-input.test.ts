/**
 * Bad Chakra input: every refusal is one line naming the file, the node id and the field, exit 2
 * at the CLI. The traces are written by the real encoder (write.ts) and then broken on purpose.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeChakraRank } from '../../src/workload/chakra/read.js';
import { encodeChakraRank } from '../../src/workload/chakra/write.js';
import { InputError } from '../../src/util/errors.js';
import { expectOneLineError, runCli } from '../helpers/cli.js';
import { comp, traceOf, writeTraceDir } from './chakra-helpers.js';
import { tempDir } from '../helpers/temp.js';

const allreduce = (id: number, bytes: number, deps: number[] = []) => ({ id, name: `ar${id}`, kind: 'coll' as const, collective: 'allreduce' as const, commSize: bytes, dataDeps: deps });

function refusal(f: () => unknown): string {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(InputError);
    return (err as Error).message;
  }
  throw new Error('expected a refusal');
}

describe('Chakra reader: what it reads', () => {
  it('reads back every node field the writer wrote', () => {
    const nodes = [
      { id: 7, name: 'gemm', kind: 'comp' as const, durationMicros: 12, numOps: 1e9, tensorSize: 4096, dataDeps: [], ctrlDeps: [] },
      { id: 8, name: 'send', kind: 'send' as const, commSrc: 0, commDst: 1, commSize: 64, commTag: 5, dataDeps: [7] },
      { id: 9, name: 'a2a', kind: 'coll' as const, collective: 'alltoall' as const, commSize: 1 << 20, pgName: 'tp', ctrlDeps: [8] },
      { id: 10, name: 'ld', kind: 'load' as const, tensorSize: 1000, isCpu: false },
    ];
    const rank = decodeChakraRank(encodeChakraRank(nodes), 'x.0.et', 0);
    expect(rank.version).toBe('0.0.4');
    expect(rank.nodes.map((n) => [n.id, n.kind, n.durationMicros])).toEqual([[7, 'comp', 12], [8, 'send', 0], [9, 'coll', 0], [10, 'load', 0]]);
    expect(rank.nodes[0]).toMatchObject({ numOps: 1e9, tensorSize: 4096 });
    expect(rank.nodes[1]).toMatchObject({ commSrc: 0, commDst: 1, commSize: 64, commTag: 5, dataDeps: [7] });
    expect(rank.nodes[2]).toMatchObject({ collective: 'alltoall', commSize: 1 << 20, pgName: 'tp', ctrlDeps: [8] });
  });

  it('reads the shared ASTRA-sim microbenchmark all_reduce 8 NPUs: one ALL_REDUCE of 1 MiB per rank', () => {
    const dir = '../shared/reference/chakra/astra-sim/et_microbenchmarks/all_reduce/8npus_1MB';
    const rank = decodeChakraRank(readFileSync(join(dir, 'all_reduce.3.et')), 'all_reduce.3.et', 3);
    expect(rank.nodes).toHaveLength(1);
    expect(rank.nodes[0]).toMatchObject({ kind: 'coll', collective: 'allreduce', commSize: 1_048_576, isCpu: false });
  });
});

describe('Chakra reader: bad input', () => {
  const good = encodeChakraRank([comp(1, 5), comp(2, 5, [1])]);

  it('a truncated file names the file and the message', () => {
    const msg = refusal(() => decodeChakraRank(good.subarray(0, good.length - 3), 't.0.et', 0));
    expect(msg).toMatch(/^t\.0\.et: message 2: got .*file ends at/);
    expect(msg).toContain('truncated');
  });

  it('an empty file is refused', () => {
    expect(refusal(() => decodeChakraRank(new Uint8Array(0), 'e.0.et', 0))).toMatch(/^e\.0\.et: GlobalMetadata: got "an empty file"/);
  });

  it('a malformed message (invalid wire data) names the message', () => {
    // A length of 2 followed by a field with wire type 7 (no such wire type).
    const bad = new Uint8Array([...good, 2, 0x0f, 0x00]);
    expect(refusal(() => decodeChakraRank(bad, 'm.0.et', 0))).toMatch(/^m\.0\.et: message 3: got .*accepted: a valid Node protobuf message/);
  });

  it('an unknown node type names the node id and the field', () => {
    // Node {id: 4, type: 42}: field 1 varint 4, field 3 varint 42.
    const bad = new Uint8Array([...good, 4, 0x08, 0x04, 0x18, 0x2a]);
    expect(refusal(() => decodeChakraRank(bad, 'u.0.et', 0))).toMatch(/^u\.0\.et: node 4: type: got 42; accepted: a NodeType/);
  });

  it('a dependency cycle names a node on it', () => {
    expect(refusal(() => traceOf([[comp(1, 1, [3]), comp(2, 1, [1]), comp(3, 1, [2])]]))).toMatch(/^w\.0\.et: node 1: data_deps\/ctrl_deps: got "a dependency cycle"/);
  });

  it('ranks disagreeing on a collective size name the file, node and comm_size', () => {
    const msg = refusal(() => traceOf([[allreduce(1, 1024)], [allreduce(5, 2048)]]));
    expect(msg).toMatch(/^w\.1\.et: node 5: comm_size: got 2048; accepted: 1024, as node 1 of w\.0\.et/);
  });

  it('a collective one member never issues is refused', () => {
    const msg = refusal(() => traceOf([[allreduce(1, 1024), allreduce(2, 1024, [1])], [allreduce(1, 1024)]]));
    expect(msg).toMatch(/^w\.1\.et: collective 2 of group world: got "missing"/);
  });

  it('a send without its receive is refused', () => {
    const msg = refusal(() => traceOf([[{ id: 1, name: 's', kind: 'send', commSrc: 0, commDst: 1, commSize: 8, commTag: 0 }], [comp(1, 1)]]));
    expect(msg).toMatch(/^w\.0\.et: node 1: comm_dst: got 1; accepted: a rank that posts a matching COMM_RECV/);
  });
});

describe('meshwork workload run: bad input at the CLI', () => {
  const topo = ['--topology', 'ring:4'];

  it('a missing rank file: one line, exit 2', () => {
    const dir = writeTraceDir([[allreduce(1, 1024)], [allreduce(1, 1024)], [allreduce(1, 1024)]]);
    rmSync(join(dir, 'w.1.et'));
    const line = expectOneLineError(runCli(['workload', 'run', '--trace', dir, ...topo]));
    expect(line).toMatch(/trace: got "w\.1\.et missing"/);
  });

  it('a truncated file: one line naming it, exit 2', () => {
    const dir = writeTraceDir([[allreduce(1, 1024)], [allreduce(1, 1024)]]);
    const f = join(dir, 'w.1.et');
    const bytes = readFileSync(f);
    writeFileSync(f, bytes.subarray(0, bytes.length - 2));
    expect(expectOneLineError(runCli(['workload', 'run', '--trace', dir, ...topo]))).toContain('w.1.et: message 1');
  });

  it('a cycle and a size disagreement: one line each, exit 2', () => {
    const cyc = writeTraceDir([[comp(1, 1, [2]), comp(2, 1, [1])]]);
    expect(expectOneLineError(runCli(['workload', 'run', '--trace', cyc, ...topo]))).toContain('node 1: data_deps/ctrl_deps');
    const dis = writeTraceDir([[allreduce(1, 1024)], [allreduce(1, 4096)]]);
    expect(expectOneLineError(runCli(['workload', 'run', '--trace', dis, ...topo]))).toContain('w.1.et: node 1: comm_size: got 4096');
  });

  it('too few endpoints and an unknown collective in --algorithm are refused', () => {
    const dir = writeTraceDir([[allreduce(1, 1024)], [allreduce(1, 1024)], [allreduce(1, 1024)]]);
    expect(expectOneLineError(runCli(['workload', 'run', '--trace', dir, '--topology', 'ring:2']))).toContain('at least 3 endpoints');
    expect(expectOneLineError(runCli(['workload', 'run', '--trace', dir, ...topo, '--algorithm', 'allsum=ring']))).toContain('algorithm: got "allsum=ring"');
  });

  it('a directory without rank files and a file not named name.<rank>.et are refused', () => {
    const empty = tempDir('chakra-empty');
    expect(expectOneLineError(runCli(['workload', 'run', '--trace', empty, ...topo]))).toContain('name.<rank>.et');
    const odd = join(empty, 'trace.et');
    writeFileSync(odd, encodeChakraRank([comp(1, 1)]));
    expect(expectOneLineError(runCli(['workload', 'run', '--trace', odd, ...topo]))).toContain('name.<rank>.et');
  });
});
