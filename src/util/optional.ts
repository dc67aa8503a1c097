/**
 * Optional packages, loaded on use: DuckDB (the sweep store), BullMQ (the sweep queue), Vega and
 * Vega-Lite (plots). They are optional peer dependencies (package.json), so installing Meshwork for
 * its library pulls in none of their ~130 MB; a feature that needs one says so in one line.
 */
import { MissingDependencyError } from './errors.js';

/** Whether `err` is the module loader saying that `pkg` itself (not something inside it) is missing. */
function isMissingPackage(err: unknown, pkg: string): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return false;
  const message = err instanceof Error ? err.message : '';
  return message.includes(`'${pkg}'`) || message.includes(`"${pkg}"`) || message.includes(`'${pkg}/`);
}

/** Runs `load` (a dynamic import); a missing `packages` entry becomes one MissingDependencyError. */
export async function importOptional<T>(load: () => Promise<T>, packages: readonly string[], feature: string): Promise<T> {
  try {
    return await load();
  } catch (err) {
    if (packages.some((pkg) => isMissingPackage(err, pkg))) throw new MissingDependencyError(packages, feature);
    throw err;
  }
}
