/**
 * The core (the package's main entry) bundles for a browser as it is: no Node built-in module, and
 * no optional package it cannot resolve (esbuild failed on Vega's dynamic import until plot.ts named
 * it through a variable; a library-user audit found it). The Studio's Vite build is the other check.
 */
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

it('src/index.ts bundles with platform=browser, pulling in no node: module', async () => {
  const out = await build({
    entryPoints: [fileURLToPath(new URL('../../src/index.ts', import.meta.url))],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  expect(out.errors).toEqual([]);
  const text = out.outputFiles[0].text;
  expect(text.length).toBeGreaterThan(100_000);
  expect(text).not.toMatch(/(from|import\(|require\()\s*["']node:/);
  // The optional plot packages stay out (a user's project without them would fail to resolve them).
  expect(Object.keys(out.metafile.inputs).filter((f) => /node_modules\/vega/.test(f))).toEqual([]);
}, 120_000);
