/**
 * The page's state lives in the URL hash, so any view can be shared as a link that reproduces it:
 * `#view=collective&topology=torus:4x4&collective=alltoall&algorithm=pairwise&size=4KiB&engine=flow`.
 * A hash (not a path or query) keeps the static build working on any file host.
 */
export const VIEWS = ['topology', 'collective', 'compare', 'traffic', 'workload', 'perf', 'seeds', 'sweeps'] as const;
export type ViewName = (typeof VIEWS)[number];

export interface UrlState {
  readonly view: ViewName;
  readonly params: Record<string, string>;
}

export function readState(hash: string = location.hash): UrlState {
  const all = Object.fromEntries(new URLSearchParams(hash.replace(/^#/, '')));
  const { view, ...params } = all;
  return { view: (VIEWS as readonly string[]).includes(view) ? (view as ViewName) : 'topology', params };
}

export function stateHash(state: UrlState): string {
  return '#' + new URLSearchParams({ view: state.view, ...state.params }).toString();
}

/** Records the state without adding a history entry per keystroke. */
export function writeState(state: UrlState): void {
  const hash = stateHash(state);
  if (hash !== location.hash) history.replaceState(null, '', hash);
}
