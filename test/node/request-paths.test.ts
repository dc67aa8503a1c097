/** The file paths of a RunRequest (node/request-paths.ts): which fields name files, mapped with their prefixes and options kept. */
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp.js';
import { absoluteRequestPaths, mapRequestPaths, readRequestFile } from '../../src/node/request-paths.js';
import type { RunRequest } from '../../src/sim/request.js';

const up = (path: string): string => `<${path}>`;
const collective = { kind: 'collective', collective: 'alltoall', algorithm: 'pairwise', size: 8 } as const;

describe('mapRequestPaths', () => {
  it.each([
    ['torus:4x4,bw=25Gbps', 'torus:4x4,bw=25Gbps'],
    ['file:g.json', 'file:<g.json>'],
    ['net.yaml', '<net.yaml>'],
    ['anynet:a.anynet,bw=10Gbps,lat=5ns', 'anynet:<a.anynet>,bw=10Gbps,lat=5ns'],
    ['simgrid:p.xml', 'simgrid:<p.xml>'],
  ])('topology %s -> %s', (topology, expected) => {
    expect(mapRequestPaths({ topology, workload: collective }, up).topology).toBe(expected);
  });

  it('maps the schedule file, the Chakra traces and comm groups; leaves names, generators and fail specs', () => {
    const schedule = mapRequestPaths({ topology: 'ring:4', fail: 'cut=0-1', mapping: 'random:seed=3', workload: { kind: 'schedule', file: 's.json' } }, up);
    expect(schedule).toEqual({ topology: 'ring:4', fail: 'cut=0-1', mapping: 'random:seed=3', workload: { kind: 'schedule', file: '<s.json>' } });
    const chakra = mapRequestPaths({ topology: 'ring:4', workload: { kind: 'workload', trace: ['a.0.et', 'a.1.et'], commGroups: 'g.json' } }, up);
    expect(chakra.workload).toEqual({ kind: 'workload', trace: ['<a.0.et>', '<a.1.et>'], commGroups: '<g.json>' });
    const generator: RunRequest = { topology: 'ring:4', workload: { kind: 'collective', collective: 'alltoallv', algorithm: 'linear', sizes: 'uniform:size=8' } };
    expect(mapRequestPaths(generator, up)).toEqual(generator);
    const traffic: RunRequest = { topology: 'mesh:4x4', workload: { kind: 'traffic', pattern: 'uniform', rates: [0.1] } };
    expect(mapRequestPaths(traffic, up)).toEqual(traffic);
  });

  it('a mapping or sizes value that names no file stays as typed (a mistyped order is refused as typed)', () => {
    const dir = realpathSync(tempDir('paths'));
    writeFileSync(join(dir, 'perm.txt'), '1 0');
    writeFileSync(join(dir, 'm.txt'), '0 1 1 0');
    const request = absoluteRequestPaths({ topology: 'ring:2', mapping: 'perm.txt', workload: { kind: 'collective', collective: 'alltoallv', algorithm: 'linear', sizes: 'm.txt' } }, dir);
    expect(request).toMatchObject({ mapping: join(dir, 'perm.txt'), workload: { sizes: join(dir, 'm.txt') } });
    expect(absoluteRequestPaths({ topology: 'ring:2', mapping: 'revrse', workload: collective }, dir).mapping).toBe('revrse');
    expect(absoluteRequestPaths({ topology: 'ring:2', mapping: 'file:p', workload: collective }, dir).mapping).toBe(`file:${join(dir, 'p')}`);
  });
});

describe('readRequestFile', () => {
  const dir = realpathSync(tempDir('paths'));

  it("resolves relative paths against the file's directory, absolute ones as they are", () => {
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'sub', 'r.yaml'), `topology: file:g.json\nworkload: {kind: workload, trace: [t, /abs/t2]}\n`);
    expect(readRequestFile(join(dir, 'sub', 'r.yaml'))).toEqual({ topology: `file:${join(dir, 'sub', 'g.json')}`, workload: { kind: 'workload', trace: [join(dir, 'sub', 't'), '/abs/t2'] } });
  });
});
