/**
 * Writes dist/cli/chunks/traffic-program.cjs.cache (run by scripts/bundle-cli.mjs after it bundles
 * the script): loads the script as `meshwork traffic` does, runs two small traffic runs that call
 * what a run calls (a BookSim file, as issue 30's benchmark does, and the flags), then writes V8's
 * code cache of every function compiled so far. Their output is not needed (the build ignores it).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadTrafficProgram } from '../dist/cli/traffic-program.js';

const dir = mkdtempSync(join(tmpdir(), 'meshwork-code-cache-'));
try {
  const config = join(dir, 'torus44.cfg');
  writeFileSync(config, 'topology = torus;\nk = 4;\nn = 2;\nrouting_function = dim_order;\nnum_vcs = 2;\ntraffic = uniform;\ninjection_rate = 0.1;\nsample_period = 500;\n');
  const program = loadTrafficProgram();
  await program.exports.runProgram(['traffic', '--booksim-config', config]);
  await program.exports.runProgram(['traffic', '--topology', 'mesh:4x4', '--pattern', 'uniform', '--rates', '0.1', '--horizon', '500']);
  if (process.exitCode) throw new Error(`a warm-up run failed (exit ${process.exitCode})`);
  program.writeCache();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
