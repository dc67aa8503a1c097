/**
 * registerAlgorithm, registerRouting, registerFamily and registerPattern check what a JavaScript
 * caller hands them (a library-user audit registered an algorithm of collective "bogus" and one
 * without build, both accepted; "default" as a routing name threw a plain Error).
 */
import { describe, expect, it } from 'vitest';
import { registerAlgorithm, registerFamily, registerPattern, registerRouting } from '../../src/index.js';

describe('registry entries are checked when registered', () => {
  it('an algorithm: its collective, its build, its name', () => {
    const base = { name: 'test-entry', collective: 'alltoall', description: '', supportsText: '', source: 'user', params: [], supports: () => undefined, build: () => null };
    expect(() => registerAlgorithm({ ...base, collective: 'bogus' } as never)).toThrow(/^algorithm\.collective: got "bogus"; accepted: one of alltoall/);
    expect(() => registerAlgorithm({ ...base, build: undefined } as never)).toThrow(/^algorithm\.build: got \(nothing\); accepted: a function$/);
    expect(() => registerAlgorithm({ ...base, name: 'ring:fast' } as never)).toThrow(/^algorithm\.name: got "ring:fast"; accepted: a name of letters/);
    expect(() => registerAlgorithm(undefined as never)).toThrow(/^algorithm: got \(nothing\); accepted: an object \{ name, build, supports, \.\.\. \}$/);
  });

  it('a routing, a family, a pattern: a name and their function; the reserved names refused in one line', () => {
    expect(() => registerRouting({ name: 'default', description: '', create: () => undefined } as never)).toThrow(/^routing\.name: got "default"; accepted: another name/);
    expect(() => registerRouting({ name: 'mine', description: '' } as never)).toThrow(/^routing\.create: got \(nothing\); accepted: a function$/);
    expect(() => registerFamily({ name: 'my family', usage: '', description: '', build: () => undefined } as never)).toThrow(/^family\.name: got "my family"/);
    expect(() => registerPattern({ name: 'meshemu', description: '', create: () => undefined } as never)).toThrow(/^pattern\.name: got "meshemu"; accepted: another name/);
  });
});
