/**
 * The resolved request prepare() returns (and `--print-request` prints) has its fields in the
 * RunRequest schema's order whatever order they were given in, so a saved request prints byte for
 * byte as the first. Since issue 30 this is `inSchemaOrder` (src/sim/request.ts), not a second zod
 * parse of the whole request.
 */
import { describe, expect, it } from 'vitest';
import { prepareTraffic } from '../../../src/sim/prepare-traffic.js';
import { prepare } from '../../../src/sim/prepare.js';
import { RunRequestSchema } from '../../../src/sim/request.js';

const schemaKeys = Object.keys(RunRequestSchema.shape);
const inOrder = (keys: string[]): string[] => schemaKeys.filter((k) => keys.includes(k));

describe('the resolved request is in the schema order', () => {
  it('traffic: fields given last first come out as the schema orders them, engine and routing added in place', () => {
    const given = {
      packet: { config: { vcs: 2 }, preset: 'booksim' },
      workload: { rates: [0.1], pattern: 'uniform', kind: 'traffic', seed: 7 },
      topology: 'torus:4x4',
    };
    const { request } = prepareTraffic(given);
    expect(Object.keys(request)).toEqual(['topology', 'workload', 'engine', 'routing', 'packet']);
    expect(Object.keys(request)).toEqual(inOrder(Object.keys(request)));
    // Nested objects keep the order the first parse gave them: the schema's too.
    expect(Object.keys(request.workload)).toEqual(['kind', 'pattern', 'rates', 'seed']);
    expect(Object.keys(request.packet!)).toEqual(['preset', 'config']);
    expect(request.routing).toEqual({ seed: 7 });
    // The same request given in the schema's order prints byte for byte alike.
    expect(JSON.stringify(prepareTraffic(JSON.parse(JSON.stringify(request))).request)).toBe(JSON.stringify(request));
  });

  it('collective: a named routing is resolved in the routing schema order (name, tie, seed)', () => {
    const { request } = prepare({ routing: { seed: 3, name: 'dor' }, workload: { size: 1024, algorithm: 'ring', collective: 'allgather', kind: 'collective' }, topology: 'torus:4x4' });
    expect(Object.keys(request)).toEqual(['topology', 'workload', 'engine', 'routing']);
    expect(Object.keys(request.routing)).toEqual(['name', 'seed']);
    expect(request.routing).toEqual({ name: 'dor', seed: 3 });
  });
});
