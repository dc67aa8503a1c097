/**
 * SMPI hostfiles as smpirun reads them: which hosts, in which order, rank r on the r-th. Apart from
 * the platform readers so that loading a topology with a hostfile does not load the XML readers.
 */
import { InputError, LimitError } from '../util/errors.js';
import { appendAll } from '../util/arrays.js';

/** Ranks a hostfile may give (after `host:N` is unrolled): refused beyond, before the list is built. */
export const MAX_HOSTFILE_RANKS = 1_048_576;

/** An SMPI hostfile given to the loader: its entries (host names, or host numbers in declaration order) and where it came from. */
export interface SimgridHostfile {
  readonly entries: readonly string[];
  readonly label: string;
}

/**
 * Each hostfile entry's host by `byEntry` (undefined: no such host, refused with `accepted`), in order:
 * rank r runs on the r-th; a host listed several times runs several ranks, as under smpirun.
 */
export function resolveHostfile(hostfile: SimgridHostfile, byEntry: (entry: string) => number | undefined, accepted: string): number[] {
  const field = `hostfile(${hostfile.label})`;
  if (hostfile.entries.length < 1) throw new InputError(field, 'no host', 'at least one host name');
  const cache = new Map<string, number>();
  return hostfile.entries.map((entry, i) => {
    const host = cache.get(entry) ?? byEntry(entry);
    if (host === undefined) throw new InputError(`${field}[${i}]`, entry, accepted);
    cache.set(entry, host);
    return host;
  });
}

/**
 * The entries of an SMPI hostfile's text as smpirun reads them (smpi_deployment.cpp: one host name
 * per non-empty line, the whole line, so names may hold spaces; smpirun.in unrolls `host:N` into N
 * lines of the host, its text before the last colon). A line of integers separated by spaces or
 * commas lists hosts by number in declaration order.
 */
export function hostfileEntries(text: string, label: string): string[] {
  const entries: string[] = [];
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (line === '') continue;
    if (/^\d+([\s,]+\d+)*$/.test(line)) {
      appendAll(entries, line.split(/[\s,]+/));
      if (entries.length > MAX_HOSTFILE_RANKS) throw new LimitError(`hostfile(${label}) line ${i + 1}`, `${entries.length} hosts so far`, `${MAX_HOSTFILE_RANKS} ranks in all (MAX_HOSTFILE_RANKS)`);
      continue;
    }
    const ranks = /^(.*):\s*(\d+)$/.exec(line);
    const count = ranks ? Number(ranks[2]) : 1;
    if (entries.length + count > MAX_HOSTFILE_RANKS) throw new LimitError(`hostfile(${label}) line ${i + 1}`, line, `${MAX_HOSTFILE_RANKS} ranks in all (MAX_HOSTFILE_RANKS)`);
    for (let k = 0; k < count; k++) entries.push(ranks ? ranks[1].trim() : line);
  }
  return entries;
}
