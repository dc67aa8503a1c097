/**
 * SMPI hostfiles as smpirun reads them: which hosts, in which order, rank r on the r-th. Apart from
 * the platform readers so that loading a topology with a hostfile does not load the XML readers.
 */
import { InputError } from '../util/errors.js';
import { appendAll } from '../util/arrays.js';

/** An SMPI hostfile given to the loader: its entries (host names, or host numbers in declaration order) and where it came from. */
export interface SimgridHostfile {
  readonly entries: readonly string[];
  readonly label: string;
}

/**
 * Each hostfile entry's host by `byEntry` (undefined: no such host, refused with `accepted`), in order;
 * a host listed twice is refused: Meshwork runs one rank per host, where smpirun would put several.
 */
export function resolveHostfile(hostfile: SimgridHostfile, byEntry: (entry: string) => number | undefined, accepted: string): number[] {
  const field = `hostfile(${hostfile.label})`;
  if (hostfile.entries.length < 1) throw new InputError(field, 'no host', 'at least one host name');
  const seen = new Set<number>();
  return hostfile.entries.map((entry, i) => {
    const host = byEntry(entry);
    if (host === undefined) throw new InputError(`${field}[${i}]`, entry, accepted);
    if (seen.has(host)) throw new InputError(`${field}[${i}]`, entry, 'a host not listed before (one rank per host: several ranks on one host, a repeated line or host:N, are not modelled)');
    seen.add(host);
    return host;
  });
}

/**
 * The entries of an SMPI hostfile's text as smpirun reads them (smpi_deployment.cpp: one host name
 * per non-empty line, the whole line, so names may hold spaces; smpirun.in unrolls `host:N` into N
 * lines). `host:1` is the host; `host:N` for N > 1 is refused (one rank per host). A line of
 * integers separated by spaces or commas lists hosts by number in declaration order.
 */
export function hostfileEntries(text: string, label: string): string[] {
  const entries: string[] = [];
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (line === '') continue;
    if (/^\d+([\s,]+\d+)*$/.test(line)) {
      appendAll(entries, line.split(/[\s,]+/));
      continue;
    }
    const ranks = /^(.*):\s*(\d+)$/.exec(line);
    if (ranks && Number(ranks[2]) !== 1) throw new InputError(`hostfile(${label}) line ${i + 1}`, line, 'one rank per host (host or host:1; several ranks on one host are not modelled)');
    entries.push(ranks ? ranks[1].trim() : line);
  }
  return entries;
}
