import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the built `meshwork` CLI end to end (npm test builds dist/ before vitest). */
export function runCli(args: string[], opts: { cwd?: string; timeoutMs?: number; env?: Record<string, string> } = {}): CliResult {
  const r = spawnSync(process.execPath, [MAIN, ...args], {
    cwd: opts.cwd,
    encoding: 'utf8',
    timeout: opts.timeoutMs ?? 120_000,
    // A run's --json over 10^5 ranks lists per-rank finishes (7 MB at 262,144 ranks); spawnSync's default is 1 MiB.
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, ...opts.env, FORCE_COLOR: '0' },
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** Asserts the project's bad-input contract: exit 2, one line on stderr, no stack trace. */
export function expectOneLineError(r: CliResult): string {
  const lines = r.stderr.trim().split('\n');
  if (r.code !== 2) throw new Error(`expected exit code 2, got ${r.code}; stderr: ${r.stderr}`);
  if (lines.length !== 1) throw new Error(`expected one line on stderr, got ${lines.length}: ${r.stderr}`);
  if (/\n\s+at /.test(r.stderr) || /internal error/.test(r.stderr)) throw new Error(`stack trace or internal error: ${r.stderr}`);
  return lines[0];
}
