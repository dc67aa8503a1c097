/**
 * Runs a CommonJS bundle through V8's code cache: what Node 22's `module.enableCompileCache()` does
 * for every module, written by hand because Node 20 has no compile cache and ES modules offer no
 * way to pass one. `meshwork traffic` loads its program this way (scripts/bundle-cli.mjs writes
 * chunks/traffic-program.cjs and, from a warm-up run, its cache): compiling the 0.7 MB bundle and
 * each function it calls was about 75 ms of CPU of an 8x8 BookSim-file run (issue 30).
 *
 * The cache is an optimisation only. Missing, written from another source, or refused by V8 (another
 * Node version or V8 flags), the script compiles from its text as it would have anyway, and the
 * program runs the same; `status` says which happened.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

/**
 * What became of the cache: used; refused by V8 (its version, flags or the source's length differ);
 * written from another text of the script (the key below differs); no cache file; or not read, as
 * source maps are on (MESHWORK_DEBUG) and Node's require loaded the script.
 */
export type CodeCacheStatus = 'accepted' | 'rejected' | 'stale' | 'absent' | 'source-maps';

export interface CachedScript<Exports> {
  exports: Exports;
  status: CodeCacheStatus;
  /** Writes the cache of everything compiled so far: call it after a warm-up run, so the cache holds the functions the run needed. */
  writeCache(): void;
}

/**
 * The cache file starts with this key line. V8 checks a cache against its source's length only, so
 * a cache from an edited script of the same length would run the old bytecode: the key is the
 * SHA-256 of the text, which costs about a millisecond for the 0.7 MB bundle.
 */
const sourceKey = (source: string): string => `meshwork-code-cache sha256:${createHash('sha256').update(source).digest('hex')}\n`;

/** The cache beside a script: `traffic-program.cjs` -> `traffic-program.cjs.cache`. */
export const codeCachePath = (scriptPath: string): string => `${scriptPath}.cache`;

function readCache(cachePath: string, key: string): { data?: Buffer; status: CodeCacheStatus } {
  let file: Buffer;
  try {
    file = readFileSync(cachePath);
  } catch {
    return { status: 'absent' };
  }
  const keyBytes = Buffer.from(key);
  return file.subarray(0, keyBytes.length).equals(keyBytes) ? { data: file.subarray(keyBytes.length), status: 'accepted' } : { status: 'stale' };
}

/**
 * Compiles and runs the CommonJS script at scriptUrl (a file: URL), with the cache beside it when
 * it is good. The script sees `__meshworkChunkUrl`, its own URL, where a bundled ES module would
 * have read import.meta.url, and `__meshworkImport`, Node's ES module import, where it would have
 * called import() (scripts/bundle-cli.mjs): Node 20 drops a script's import() callback when its code
 * comes from a cache.
 */
export function loadCachedScript<Exports>(scriptUrl: URL): CachedScript<Exports> {
  const path = fileURLToPath(scriptUrl);
  const hostImport = (specifier: string) => import(specifier);
  if (process.sourceMapsEnabled) {
    // Node maps stack traces back through a source map for the modules it loads, never for a
    // vm.Script: under MESHWORK_DEBUG, require loads the script, its two names set on globalThis.
    Object.assign(globalThis, { __meshworkChunkUrl: scriptUrl.href, __meshworkImport: hostImport });
    return { exports: createRequire(path)(path) as Exports, status: 'source-maps', writeCache: () => {} };
  }
  const source = readFileSync(path, 'utf8');
  const key = sourceKey(source);
  const cachePath = codeCachePath(path);
  const cache = readCache(cachePath, key);
  // The wrapper ends its first line, so the script's lines keep their numbers (lineOffset) for stack
  // traces and source maps.
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname, __meshworkChunkUrl, __meshworkImport) {\n${source}\n})`, {
    filename: path,
    lineOffset: -1,
    cachedData: cache.data,
  });
  const status: CodeCacheStatus = cache.data !== undefined && script.cachedDataRejected === true ? 'rejected' : cache.status;
  const module = { exports: {} as Exports };
  const wrapped = script.runInThisContext() as (...args: unknown[]) => void;
  wrapped(module.exports, createRequire(path), module, path, dirname(path), scriptUrl.href, hostImport);
  return {
    exports: module.exports,
    status,
    writeCache: () => writeFileSync(cachePath, Buffer.concat([Buffer.from(key), script.createCachedData()])),
  };
}
