import type { FieldError } from '../scenario/schema';
import { HISTORY_LIMIT } from './constants';

/** Where a scenario came from: the rejected ones are reported by source. */
export type ScenarioSource = 'link' | 'file' | 'preset' | 'edit' | 'history' | 'worker';

export interface LoadErrors {
  readonly source: ScenarioSource;
  readonly errors: readonly FieldError[];
}

/** What a store with a scenario history holds. */
export interface HistoryState<S> {
  scenario: S | null;
  past: readonly S[];
  future: readonly S[];
  errors: LoadErrors | null;
}

/** The actions every lab's store shares: load, reject, edit, undo, redo. */
export interface HistoryActions<S> {
  /** Loads a scenario; `play` starts it once loaded (the cost guard asking first, `longRun.ts`). */
  load(scenario: unknown, source?: ScenarioSource, options?: { readonly play?: boolean }): Promise<boolean>;
  reject(source: ScenarioSource, errors: readonly FieldError[]): void;
  edit(change: (scenario: S) => S): Promise<boolean>;
  undo(): Promise<void>;
  redo(): Promise<void>;
}

/**
 * Scenario history for a store (both labs): `replace` loads a scenario in the worker (and
 * keeps playing), `remember` records the scenario before a change; a new change clears
 * redo, undo and redo reload the neighbour (restarting the run).
 */
export function historyActions<S>(
  get: () => HistoryState<S>,
  set: (partial: Partial<HistoryState<S>>) => void,
  replace: (scenario: unknown, source: ScenarioSource, play?: boolean) => Promise<boolean>,
): HistoryActions<S> & { remember(before: S | null): void } {
  const remember = (before: S | null): void => {
    if (before === null) return;
    set({ past: [...get().past, before].slice(-HISTORY_LIMIT), future: [] });
  };
  return {
    remember,
    load: async (scenario, source = 'edit', options = {}) => {
      const before = get().scenario;
      const ok = await replace(scenario, source, options.play === true);
      if (ok) remember(before);
      return ok;
    },
    reject: (source, errors) => set({ errors: { source, errors } }),
    edit: async (change) => {
      const current = get().scenario;
      if (current === null) return false;
      const ok = await replace(change(structuredClone(current)), 'edit');
      if (ok) remember(current);
      return ok;
    },
    undo: async () => {
      const { past, scenario } = get();
      const previous = past.at(-1);
      if (previous === undefined || scenario === null) return;
      if (await replace(previous, 'history')) set({ past: past.slice(0, -1), future: [...get().future, scenario] });
    },
    redo: async () => {
      const { future, scenario } = get();
      const next = future.at(-1);
      if (next === undefined || scenario === null) return;
      if (await replace(next, 'history')) set({ future: future.slice(0, -1), past: [...get().past, scenario].slice(-HISTORY_LIMIT) });
    },
  };
}

/** A view of either world's scenario (both share its shape). */
interface AnyView {
  readonly mode: string;
  readonly hide: readonly string[];
}

/**
 * A lesson's scenario as it is loaded: a copy, carrying the classroom view (presentation,
 * hidden parts) when one is on, so that it stays on for the lesson.
 */
export function lessonScenario<S extends object>(scenario: S, view: AnyView): S {
  const keepView = view.mode !== 'normal' || view.hide.length > 0;
  return structuredClone(keepView ? { ...scenario, view } : scenario);
}
