/**
 * A JavaScript caller (no type checker) who passes the wrong kind of value to a parser or an
 * options-taking entry point gets the one-line refusal naming the field, not a TypeError from
 * inside the parser (`parseCollective(undefined)` was "Cannot read properties of undefined").
 */
import { describe, expect, it } from 'vitest';
import * as api from '../../src/index.js';

const calls: Array<[string, () => unknown, string]> = [
  ['parseCollective', () => api.parseCollective(undefined as never), 'collective: got (nothing); accepted: a collective name (a string)'],
  ['parseAlltoallvSizes', () => api.parseAlltoallvSizes(42 as never, 2), 'sizes: got 42; accepted: n x n byte counts (a string)'],
  ['parseAnynet', () => api.parseAnynet(null as never), 'anynet: got null; accepted: the text of an anynet file (a string)'],
  ['parseBookSimAnynet', () => api.parseBookSimAnynet({} as never), 'anynet: got {}; accepted: the text of a BookSim anynet file (a string)'],
  ['parseBookSimConfig', () => api.parseBookSimConfig(undefined as never), 'booksim-config: got (nothing); accepted: the text of a BookSim configuration file (a string)'],
  ['parseMeasuredTable', () => api.parseMeasuredTable(7 as never), 'measured: got 7; accepted: a measured table (a string)'],
  ['parseSeedSelection', () => api.parseSeedSelection(undefined as never), 'seed: got (nothing); accepted: all or seed ids ('],
  ['scheduleFromText', () => api.scheduleFromText(undefined as never, 'x.json', {}), 'schedule: got (nothing); accepted: the text of a schedule file (a string)'],
  ['perfSweep', () => api.perfSweep(undefined as never), 'perf: got (nothing); accepted: a PerfRequest object'],
  ['generateTransformer', () => api.generateTransformer(null as never), 'generate: got null; accepted: an options object'],
];

describe('library entry points called with the wrong kind of value', () => {
  it.each(calls)('%s refuses in one line naming the field', (_name, call, message) => {
    let thrown: unknown;
    try {
      call();
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(api.InputError);
    expect((thrown as Error).message).toContain(message);
  });
});
