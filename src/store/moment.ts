/**
 * A moment of a run, as a link carries it (`view.at` of either world's scenario, schema.ts):
 * where the run is, the algorithm step shown there, whether it plays, the selected lane and
 * the lesson under way. Copy link and the classroom link write it; a link that holds one
 * reopens there (`liveStore.ts`, ARCHITECTURE §4).
 */
export interface Moment {
  /** Queries served (pipeline) or simulated ms (serving). */
  readonly position: number;
  /** The algorithm step shown at `position` (the pipeline's teaching view), when one is. */
  readonly step?: number;
  readonly playing: boolean;
  readonly lane?: number;
  readonly lesson?: { readonly id: string; readonly step: number };
}

/** What the store knows of the moment it is at. */
export interface MomentSource {
  readonly position: number;
  readonly status: string;
  readonly starting: boolean;
  readonly selectedLane: number;
  readonly lesson: { readonly id: string; readonly step: number } | null;
}

/**
 * The moment `state` is at; `step` is the world's algorithm step there (undefined where it has
 * none). Lane 0 and no lesson are left out, so a link to the start of a plain run stays short.
 */
export function momentOf(state: MomentSource, step?: number): Moment {
  const playing = state.status === 'playing' || state.starting;
  return {
    position: state.position,
    // A step is a paused view: while playing the next frame moves it on.
    ...(step !== undefined && step >= 0 && !playing ? { step } : {}),
    playing,
    ...(state.selectedLane > 0 ? { lane: state.selectedLane } : {}),
    ...(state.lesson !== null ? { lesson: { id: state.lesson.id, step: state.lesson.step } } : {}),
  };
}

/** A scenario's view as both worlds write it, with the moment it may carry. */
interface ViewWithMoment {
  readonly mode: string;
  readonly hide: readonly string[];
  readonly at?: Moment;
}

/** The moment a scenario carries (`view.at`), if any. */
export function momentIn(scenario: { readonly view?: unknown }): Moment | undefined {
  const view = scenario.view as ViewWithMoment | undefined;
  return view?.at;
}

/** `scenario` carrying `moment` in its view (a view added when it had none). */
export function withMoment<S extends { readonly view?: unknown }>(scenario: S, moment: Moment): S {
  const view = (scenario.view as ViewWithMoment | undefined) ?? { mode: 'normal', hide: [] };
  return { ...scenario, view: { ...view, at: moment } };
}

/**
 * `scenario` without its moment: the lab holds the scenario, not where it was opened, so that
 * the address bar and undo history do not carry a stale position. A view left as the default
 * (normal, nothing hidden, nothing open) is dropped, as a scenario without one is written.
 */
export function withoutMoment<S extends { readonly view?: unknown }>(scenario: S): S {
  const view = scenario.view as (ViewWithMoment & Record<string, unknown>) | undefined;
  if (view?.at === undefined) return scenario;
  const { at: _at, ...rest } = view;
  void _at;
  const isDefault = rest.mode === 'normal' && rest.hide.length === 0 && rest['explore'] !== true && rest['claims'] !== true;
  const { view: _view, ...others } = scenario as S & { view?: unknown };
  void _view;
  return (isDefault ? others : { ...others, view: rest }) as S;
}
