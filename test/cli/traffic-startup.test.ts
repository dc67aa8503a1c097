import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * What `meshwork traffic` loads (issue 24's start-up regression): the built CLI's traffic chunk and
 * every chunk it imports statically, named by their source maps. A traffic run needs the topology,
 * routing, packet network and the RunRequest schema; the collectives, the flow engine, the packet
 * schedule runner, the schedule readers and zod's locales cost start-up CPU and must stay out.
 */
const chunkDir = fileURLToPath(new URL('../../dist/cli/chunks/', import.meta.url));

function sourcesLoadedBy(entry: string): string[] {
  const seen = new Set<string>();
  const stack = [entry];
  while (stack.length > 0) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(chunkDir + file, 'utf8');
    // Static imports only: a dynamic import() loads when a command asks for it.
    for (const m of text.matchAll(/(?:^|[;\n}])\s*import\s*(?:[\w$*{}\s,]+from\s*)?"\.\/([^"]+)"/g)) stack.push(m[1]);
  }
  return [...seen].flatMap((f) => (JSON.parse(readFileSync(`${chunkDir}${f}.map`, 'utf8')) as { sources: string[] }).sources.map((s) => s.replace(/^(\.\.\/)+/, '')));
}

const UNWANTED = /src\/collectives\/(registry|algorithms\/)|src\/sim\/flow\/engine|src\/sim\/packet\/schedule-run|src\/interop\/(schedule-text|msccl\/)|src\/sim\/simulate\.ts|zod\/v4\/locales\/(?!en\.js|index\.js)/;

describe('meshwork traffic start-up', () => {
  // The split build's traffic chunk (what `meshwork help traffic` and the program with every command
  // load) and chunks/traffic-program.cjs, the one file `meshwork traffic ...` loads (src/cli/main.ts).
  const entry = readdirSync(chunkDir).find((f) => /^traffic-\w+\.js$/.test(f) && !f.startsWith('traffic-program'));
  for (const [name, sources] of [
    ['the traffic chunk', sourcesLoadedBy(entry!)],
    ['traffic-program.cjs', sourcesLoadedBy('traffic-program.cjs')],
  ] as const) {
    it(`${name}: loads the traffic path`, () => {
      for (const needed of ['src/sim/packet/traffic-run.ts', 'src/sim/prepare-traffic.ts', 'src/sim/request.ts', 'node_modules/zod/v4/core/schemas.js']) {
        expect(sources).toContain(needed);
      }
    });

    // zod's locales/index.js is its re-export list, every locale but English shaken out of it.
    it(`${name}: loads no collective, flow engine, schedule runner or reader, nor zod locale beyond English`, () => {
      expect(sources.filter((s) => UNWANTED.test(s))).toEqual([]);
    });
  }

  it('traffic-program.cjs holds the program with the traffic command alone', () => {
    const commands = sourcesLoadedBy('traffic-program.cjs').filter((s) => s.startsWith('src/cli/commands/'));
    expect(commands.sort()).toEqual(['src/cli/commands/traffic-only.ts', 'src/cli/commands/traffic.ts']);
  });
});
