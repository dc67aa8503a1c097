// Shared by the *.bench.mjs files (bench/run.mjs loads only those, so this file is not a bench).
import { spawnSync } from 'node:child_process';

/**
 * Runs fn and returns its value with the wall seconds it took and this process's CPU seconds
 * (user + system; steadier than wall time on the shared machine).
 */
export function timed(fn) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const value = fn();
  const seconds = (performance.now() - t0) / 1000;
  const c = process.cpuUsage(c0);
  return { value, seconds, cpu: (c.user + c.system) / 1e6 };
}

/**
 * CPU seconds (user + system) of one fresh process, from /usr/bin/time: start-up counts as a user
 * sees it, and CPU is steadier than wall time on the shared machine.
 */
export function processCpu(cmd, args) {
  const out = spawnSync('/usr/bin/time', ['-f', 'MWCPU %U %S', cmd, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const m = /MWCPU ([\d.]+) ([\d.]+)/.exec(out.stderr ?? '');
  if (!m) throw new Error(`${cmd} ${args.join(' ')} failed: ${out.stderr}`);
  return { cpu: Number(m[1]) + Number(m[2]), stdout: out.stdout };
}

/** The median CPU of `runs` fresh processes (one run can be off by tens of percent here), all runs sorted. */
export function medianProcessCpu(cmd, args, runs) {
  const all = Array.from({ length: runs }, () => processCpu(cmd, args));
  const sorted = all.map((r) => r.cpu).sort((a, b) => a - b);
  return { cpu: sorted[(runs - 1) >> 1], all: sorted, stdout: all[0].stdout };
}

/**
 * CPU seconds (user + system) of one fresh process to the millisecond, and its stdout: bash's `times`
 * after the command reports its children's CPU, where /usr/bin/time rounds to 10 ms (a third of the
 * difference being measured when a whole process costs 0.3 s).
 */
export function processCpuMs(cmd, args) {
  const out = spawnSync('bash', ['-c', '"$@" >&3; status=$?; times; exit $status', '_', cmd, ...args], { encoding: 'utf8', maxBuffer: 1 << 26, stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
  const m = /\n(\d+)m([\d.]+)s (\d+)m([\d.]+)s\s*$/.exec(out.stdout ?? '');
  if (!m) throw new Error(`${cmd} ${args.join(' ')} failed: ${out.stderr}`);
  const cpu = Number(m[1]) * 60 + Number(m[2]) + Number(m[3]) * 60 + Number(m[4]);
  return { cpu, stdout: out.output[3] ?? '' };
}
