/**
 * Bundles the `meshwork` CLI into dist/cli/main.js plus lazy chunks (run by `npm run build` after
 * tsc). Node 20 has no module compile cache, and resolving and compiling ~80 separate ES modules
 * was most of `meshwork topo`'s start-up CPU; one bundle with code splitting loads a handful of
 * files, and each command still arrives as its own chunk on first use.
 *
 * The library entries (`meshwork`, `meshwork/node`) stay tsc's unbundled dist/ tree, and so do the
 * worker files (BFS workers, the sweep pool), which the bundle starts by URL. Packages in
 * node_modules stay external: they load as before, only when a command imports them.
 */
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { chmod, readFile, rm } from 'node:fs/promises';
import { dirname, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const src = `${root}src${sep}`;
const outdir = `${root}dist${sep}cli`;
const entry = `${src}cli${sep}main.ts`;
/** Where every module but the entry lands: the entry only imports src/cli/program.ts dynamically. */
const chunkDir = `${outdir}${sep}chunks`;

/**
 * `import.meta.url` in a bundled module would name the chunk, not the module: workers, the UI's
 * assets and package.json are found relative to it. Each module gets back the URL of its own
 * tsc-built file in dist/ (every module but the entry sits in dist/cli/chunks/, so one relative
 * path fits all its chunks), resolved against `chunkUrl`: import.meta.url in an ES module chunk,
 * the variable src/cli/cached-script.ts gives a CommonJS script.
 * With `hostImport`, a package imported by a name in a variable (`import(/* @vite-ignore *\/ name)`,
 * the only import() a bundle keeps) is imported by that function instead: src/cli/cached-script.ts
 * gives the script one, as Node 20 loses a script's import() callback when the script comes from a
 * code cache ("A dynamic import callback was not specified").
 */
const rewriteModules = ({ chunkUrl, hostImport }) => ({
  name: 'rewrite-modules',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async (args) => {
      let text = await readFile(args.path, 'utf8');
      const urls = text.includes('import.meta.url');
      const imports = hostImport !== undefined && text.includes(VARIABLE_IMPORT);
      if (!urls && !imports) return undefined;
      if (urls) {
        if (args.path === entry) throw new Error('src/cli/main.ts must not use import.meta.url: it is bundled outside dist/cli/chunks/');
        const builtFile = relative(src, args.path).replace(/\.ts$/, '.js');
        const fromChunk = relative(chunkDir, `${root}dist${sep}${dirname(builtFile)}`).split(sep).join('/');
        text = text.replaceAll('import.meta.url', `new URL(${JSON.stringify(`${fromChunk}/${builtFile.split(sep).pop()}`)}, ${chunkUrl}).href`);
      }
      if (imports) text = text.replaceAll(VARIABLE_IMPORT, `${hostImport}(`);
      return { contents: text, loader: 'ts' };
    });
  },
});
const VARIABLE_IMPORT = 'import(/* @vite-ignore */ ';

/**
 * Packages bundled into the chunks, because the start-up path loads them: as CommonJS from
 * node_modules, saxes alone cost more CPU than the rest of `meshwork topo` (Node's CommonJS loader
 * and export lexer). zod too: every run validates its RunRequest, and as ~90 ES modules from
 * node_modules it cost `meshwork traffic` a third of a small run's CPU in resolving and reading files
 * (bundled, its locales are shaken out, as src imports it as a namespace: `import * as z`).
 * Every other package stays external and loads only when a command needs it.
 */
const BUNDLED_PACKAGES = new Set(['commander', 'saxes', 'xmlchars', 'zod']);

const externalPackages = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      const name = args.path.startsWith('@') ? args.path.split('/').slice(0, 2).join('/') : args.path.split('/')[0];
      return BUNDLED_PACKAGES.has(name) ? undefined : { path: args.path, external: true };
    });
  },
};

// Chunk names carry content hashes: drop the last build's before writing this one's.
await rm(chunkDir, { recursive: true, force: true });
/** What both builds below share. */
const common = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // The bundled CommonJS packages require Node's built-in modules.
  banner: { js: "import { createRequire as __meshworkRequire } from 'node:module'; const require = __meshworkRequire(import.meta.url);" },
  // For a checkout's MESHWORK_DEBUG stack traces (they carry their sources); the package leaves
  // them out (package.json "files"), as it leaves out tsc's.
  // Whitespace and syntax only (names stay, for stack traces and profiles): V8 scans every byte of
  // a chunk when Node compiles it, and `meshwork traffic` compiles 0.7 MB of them on each start
  // (issue 30: 0.72 -> 0.50 MB, 1.2-1.8 ms less CPU importing them).
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: true,
  sourcesContent: true,
  logLevel: 'warning',
};
await build({
  ...common,
  entryPoints: { main: entry },
  outdir,
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  plugins: [rewriteModules({ chunkUrl: 'import.meta.url' }), externalPackages],
});

/**
 * `meshwork traffic` as one file, chunks/traffic-program.cjs: the program (src/cli/program.ts) with
 * the traffic command alone (commands/traffic-only.ts in place of the command table) and everything
 * it imports, no splitting. src/cli/main.ts loads it when the first word is `traffic`. The split
 * build above made that command load 26 chunks, and resolving and linking them cost ~11 ms of CPU
 * (importing the command: 41 ms split, 30 ms as one file, medians of 9; issue 30's whole-process
 * target on an 8x8 BookSim file is a 0.3 s run). Every module in it is a single instance, as in
 * the split build (one InputError class, one registry per kind). Its dynamic imports (plots, the
 * progress bar, graph-file readers) are in the file but still evaluated only when imported;
 * splitting them out again gave 9 files and no measurable gain over one.
 * It is CommonJS, not an ES module, so that it can run through V8's code cache
 * (src/cli/cached-script.ts), written below from a warm-up run.
 */
const trafficOnly = {
  name: 'traffic-only-command-table',
  setup(b) {
    b.onResolve({ filter: /^\.\/commands\/index\.js$/ }, (args) => (args.importer === `${src}cli${sep}program.ts` ? { path: `${src}cli${sep}commands${sep}traffic-only.ts` } : undefined));
  },
};
await build({
  ...common,
  format: 'cjs',
  // CommonJS has its own require; the script is handed it (src/cli/cached-script.ts).
  banner: {},
  outExtension: { '.js': '.cjs' },
  entryPoints: { 'traffic-program': `${src}cli${sep}program.ts` },
  outdir: chunkDir,
  plugins: [trafficOnly, rewriteModules({ chunkUrl: '__meshworkChunkUrl', hostImport: '__meshworkImport' }), externalPackages],
});
// Any import() left in the script would fail at run time once its code comes from the cache.
const leftImport = /\bimport\((?!\s*\))/.exec(await readFile(`${chunkDir}${sep}traffic-program.cjs`, 'utf8'));
if (leftImport) throw new Error(`chunks/traffic-program.cjs keeps an import() (at ${leftImport.index}): import packages by a variable with ${VARIABLE_IMPORT}name) so that rewriteModules routes them through the script's host`);

/**
 * The code cache of chunks/traffic-program.cjs, from a warm-up run in a fresh process (the cache
 * then holds the bytecode of every function a traffic run calls, not only the top level), run by
 * the Node that builds: another Node refuses it and compiles the script as before.
 */
const warmUp = spawnSync(process.execPath, [`${root}scripts${sep}traffic-code-cache.mjs`], { stdio: ['ignore', 'ignore', 'inherit'] });
if (warmUp.status !== 0) throw new Error(`scripts/traffic-code-cache.mjs failed (exit ${warmUp.status ?? warmUp.signal})`);

// esbuild writes files 0644; the bin must stay executable after a rebuild, or `npx meshwork` in a
// checkout fails with "Permission denied" (npm sets the bit only when it installs the package).
await chmod(`${outdir}${sep}main.js`, 0o755);
