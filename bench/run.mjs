// Runs every bench/*.bench.mjs file in order and prints one table of their figures.
// Benchmarks import the built library from dist/ (npm run bench builds first).
import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join } from 'node:path';

const dir = fileURLToPath(new URL('.', import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.mjs'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();
const rows = [];
for (const file of files) {
  const mod = await import(pathToFileURL(join(dir, file)).href);
  process.stderr.write(`bench: ${file}\n`);
  for (const row of await mod.default()) rows.push({ bench: file.replace('.bench.mjs', ''), ...row });
}
const cols = ['bench', 'name', 'value', 'unit', 'target', 'note'];
const widths = cols.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c] ?? '').length)));
const line = (r) => cols.map((c, i) => String(r[c] ?? '').padEnd(widths[i])).join('  ');
console.log(line(Object.fromEntries(cols.map((c) => [c, c]))));
console.log(widths.map((w) => '-'.repeat(w)).join('  '));
for (const r of rows) console.log(line(r));
