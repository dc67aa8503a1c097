/** simulateTraffic from JavaScript: a spec string or a missing rate list is one line naming the field (each was a TypeError). */
import { expect, it } from 'vitest';
import { buildTopology, simulateTraffic } from '../../../src/index.js';

it('refuses a topology that is not built, and rates that are not a list, naming the field', () => {
  expect(() => simulateTraffic({ topology: 'torus:4x4' as never, pattern: 'uniform', rates: [0.1] })).toThrow(/^topology: got "torus:4x4"; accepted: a Topology built by buildTopology \(a spec string goes in a RunRequest: runRequest\)$/);
  expect(() => simulateTraffic({ topology: buildTopology('torus:4x4'), pattern: 'uniform' } as never)).toThrow(/^rates: got \(nothing\); accepted: an array of injection rates, such as \[0\.1, 0\.2\]$/);
  expect(() => simulateTraffic(undefined as never)).toThrow(/^options: got \(nothing\); accepted: \{ topology, pattern, rates, \.\.\. \}/);
});
