/**
 * The page's side of the core worker: one request at a time per view, progress callbacks, and
 * cancellation by terminating the worker (a run in the core has no yield points to poll a flag;
 * a fresh worker starts in milliseconds).
 */
import type { Reply, Request } from './protocol.js';

export class UserError extends Error {}

export interface Job<T> {
  readonly promise: Promise<T>;
  cancel(): void;
}

let worker: Worker | undefined;
let nextId = 1;
/** Files the user opened: a worker started after a cancel gets them again, before any request. */
const uploads = new Map<string, string>();
const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void; progress?: (f: number, note?: string) => void }>();

function ensureWorker(): Worker {
  if (worker) return worker;
  worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });
  worker.onmessage = (event: MessageEvent<Reply>) => {
    const reply = event.data;
    const p = pending.get(reply.id);
    if (!p) return;
    if (reply.type === 'progress') p.progress?.(reply.fraction, reply.note);
    else {
      pending.delete(reply.id);
      if (reply.type === 'result') p.resolve(reply.value);
      else p.reject(reply.input ? new UserError(reply.message) : new Error(reply.message));
    }
  };
  for (const [name, text] of uploads) worker.postMessage({ id: 0, request: { kind: 'upload', name, text } satisfies Request });
  worker.onerror = (event) => {
    const error = new Error(`meshwork: internal error: ${event.message}`);
    for (const p of pending.values()) p.reject(error);
    pending.clear();
  };
  return worker;
}

export function run<T>(request: Request, progress?: (fraction: number, note?: string) => void): Job<T> {
  const id = nextId++;
  const promise = new Promise<T>((resolve, reject) => {
    pending.set(id, { resolve: resolve as (v: unknown) => void, reject, progress });
    ensureWorker().postMessage({ id, request });
  });
  return {
    promise,
    cancel: () => {
      if (!pending.has(id)) return;
      worker?.terminate();
      worker = undefined;
      // Every request in flight dies with the worker.
      for (const p of pending.values()) p.reject(new CancelledError('cancelled'));
      pending.clear();
    },
  };
}

export class CancelledError extends Error {}

/** Opens a file in the core: specs such as `graphml:NAME` then read it, in every view. */
export function upload(name: string, text: string): Job<string> {
  uploads.set(name, text);
  return run<string>({ kind: 'upload', name, text });
}

/** The spec naming an opened topology file, as the CLI names a file: the format from content and name. */
export { detectTopologyFile as fileSpec } from '../../src/interop/file-detect.js';
