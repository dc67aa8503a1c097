/**
 * What `npm pack` ships is enough for a project that installs the package (issue 17: `import
 * ('meshwork/node')` from an installed project): every target of the `exports` map and `bin`, and
 * every module those import, is in the tarball. families.test.ts imports the entry from a fresh
 * project; this checks the tarball's file list, which a symlinked install cannot see.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The files `npm pack` would put in the tarball (no build: dist/ is what `npm test` built first). */
function packedFiles(): Set<string> {
  const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 26 });
  expect(r.status, r.stderr).toBe(0);
  const [pack] = JSON.parse(r.stdout) as Array<{ files: Array<{ path: string }> }>;
  return new Set(pack.files.map((f) => f.path));
}

/**
 * The files an ES module needs beside it: relative imports, static and dynamic; files it opens by
 * URL (`new URL('../node/bfs-worker.js', import.meta.url)`: the bundled CLI starts workers from
 * tsc's unbundled tree, and `meshwork traffic` runs chunks/traffic-program.cjs, where the bundle
 * names its chunk's URL `__meshworkChunkUrl`).
 */
function relativeImports(source: string): string[] {
  const imports = [...source.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g)];
  // The bundle gives each module its own file's URL back: new URL('./bfs-worker.js', new URL('../../node/metrics-workers.js', import.meta.url).href).
  const byUrl = [...source.matchAll(/\bnew URL\(\s*['"](\.{1,2}\/[^'"]+\.c?js)['"]\s*,\s*(?:new URL\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*,\s*)?(?:import\.meta\.url|__meshworkChunkUrl)/g)];
  return [...imports.map((m) => m[1]), ...byUrl.map((m) => (m[2] === undefined ? m[1] : `./${join(dirname(m[2]), m[1])}`))];
}

describe('the published package', () => {
  it('ships every export, the CLI and every module they import', () => {
    const files = packedFiles();
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, Record<string, string>>; bin: Record<string, string> };
    const entries = [...Object.values(pkg.exports).flatMap((e) => Object.values(e)), ...Object.values(pkg.bin)].map((p) => normalize(p));
    for (const entry of entries) expect(files.has(entry), entry).toBe(true);
    // Follow the import graph from the entries through the packed files.
    const seen = new Set<string>();
    const todo = entries.filter((e) => e.endsWith('.js'));
    while (todo.length > 0) {
      const file = todo.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      for (const spec of relativeImports(readFileSync(join(root, file), 'utf8'))) {
        const target = normalize(join(dirname(file), spec));
        expect(files.has(target), `${file} imports ${spec}`).toBe(true);
        todo.push(target);
      }
    }
    expect(seen.has('dist/node/load-topology.js')).toBe(true);
    expect(seen.has('dist/topology/builtin-families.js')).toBe(true);
    // The bin is the bundle (scripts/bundle-cli.mjs): its command chunks and the workers it starts by URL.
    const seenList = [...seen];
    expect(seenList.some((f) => /^dist\/cli\/chunks\/topo-\w+\.js$/.test(f))).toBe(true);
    expect(seen.has('dist/node/bfs-worker.js')).toBe(true);
    expect(seen.has('dist/sweep/pool-worker.js')).toBe(true);
    // `meshwork traffic`'s one script (src/cli/traffic-program.ts) and its code cache.
    expect(seen.has('dist/cli/chunks/traffic-program.cjs')).toBe(true);
    expect(files.has('dist/cli/chunks/traffic-program.cjs.cache')).toBe(true);
  });
});
