#!/usr/bin/env node
/**
 * The `meshwork` bin. The build bundles the CLI (scripts/bundle-cli.mjs), so stack traces name
 * chunks; under MESHWORK_DEBUG, Node maps them back to src/ through the bundle's source maps, which
 * must be switched on before the chunks load. The program itself is src/cli/program.ts.
 */
if (process.env.MESHWORK_DEBUG) process.setSourceMapsEnabled(true);
// `--version` alone answers without loading the program (commander and the command table).
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${(await import('../sweep/version.js')).MESHWORK_VERSION}\n`);
} else if (args.find((a) => !a.startsWith('-')) === 'traffic') {
  // The program with the traffic command alone, in one script run through V8's code cache
  // (scripts/bundle-cli.mjs, ./cached-script.ts): resolving and linking the 26 chunks it otherwise
  // loads was ~11 ms, and compiling it ~75 ms, of an 8x8 BookSim-file run (issue 30).
  await (await import('./traffic-program.js')).runTrafficProgram(args);
} else {
  await (await import('./program.js')).runProgram(args);
}
