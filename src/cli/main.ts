#!/usr/bin/env node
/**
 * The `meshwork` bin. The build bundles the CLI (scripts/bundle-cli.mjs), so stack traces name
 * chunks; under MESHWORK_DEBUG, Node maps them back to src/ through the bundle's source maps, which
 * must be switched on before the chunks load. The program itself is src/cli/program.ts.
 */
if (process.env.MESHWORK_DEBUG) process.setSourceMapsEnabled(true);
await import('./program.js');
