import { useCallback } from 'react';
import { DEFAULT_SERVING_ASSUMPTIONS } from '../engine/assumptions';
import type { ServingStore } from '../store/servingStore';
import { useLabKeys } from '../../../ui/shell/labKeys';
import type { Shortcut } from '../../../ui/HelpOverlay';

/** The serving lab's keys, for the help overlay: the shell's lab keys with ← → a scheduling slot. */
export const SERVING_KEYS: readonly Shortcut[] = [
  { keys: 'Space', does: 'play / pause' },
  { keys: '← / →', does: 'one scheduling slot back / forward (the scenario’s slot, 1 s by default)' },
  { keys: 'Shift + ← / →', does: 'previous / next marker on the time line' },
  { keys: '+ / −', does: 'faster / slower' },
  { keys: '?', does: 'show or hide this help' },
  { keys: 'Esc', does: 'close this help' },
];

/**
 * The serving lab's keys (the pipeline lab's, `labKeys.ts`): ← → move the run one scheduling slot
 * (`serving.assumptions.slotMs`; with Eq. 1's per-model slots the paper gives no one slot for all
 * models, BCEdge §III-A2, so the fixed slot's length is the step), back by time travel.
 */
export function useServingKeys(store: ServingStore | null): void {
  const step = useCallback(
    (direction: 1 | -1) => {
      if (store === null) return;
      const state = store.getState();
      const slotMs = state.scenario?.serving.assumptions?.slotMs ?? DEFAULT_SERVING_ASSUMPTIONS.slotMs;
      if (direction === 1) void state.step(slotMs);
      else void state.pause().then(() => state.seek(Math.max(0, store.getState().position - slotMs)));
    },
    [store],
  );
  useLabKeys(store, step);
}
