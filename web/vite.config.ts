/**
 * Meshwork Studio's build: the app in web/, the core imported from ../src and run in a Web Worker.
 * Relative asset paths (`base: './'`) so the same files work under `meshwork ui` and on any static
 * host, GitHub Pages sub-paths included.
 */
import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';

const here = fileURLToPath(new URL('.', import.meta.url));
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  root: here,
  base: './',
  plugins: [svelte()],
  // Recorded in the Seeds view's results, as `meshwork reproduce` records its own version.
  define: { MESHWORK_VERSION: JSON.stringify(pkg.version) },
  worker: { format: 'es' },
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    reportCompressedSize: false,
    chunkSizeWarningLimit: 2000,
    // The build's per-plugin timing report is noise in `npm run build` output.
    rolldownOptions: { checks: { pluginTimings: false } },
  },
});
