import { useEffect } from 'react';
import type { StoreApi } from 'zustand';
import type { HistoryActions } from '../../store/history';

/** Fields where keys are typed, not shortcuts. */
export const TYPING = 'input, textarea, select, [contenteditable="true"]';

/** What the history keys need of a lab's store: its undo and redo. */
export type HistoryKeysStore = StoreApi<Pick<HistoryActions<unknown>, 'undo' | 'redo'>>;

/**
 * Ctrl+Z / Ctrl+Shift+Z (and Ctrl+Y) undo and redo scenario edits, except while typing; for
 * whichever lab is shown (both stores share `historyActions`). `null`: no lab takes the keys.
 */
export function useHistoryKeys(store: HistoryKeysStore | null): void {
  useEffect(() => {
    if (store === null) return;
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      if (target?.closest(TYPING)) return;
      if (!(e.ctrlKey || e.metaKey) || e.altKey) return;
      const key = e.key.toLowerCase();
      if (key === 'z' && !e.shiftKey) {
        e.preventDefault();
        void store.getState().undo();
      } else if ((key === 'z' && e.shiftKey) || key === 'y') {
        e.preventDefault();
        void store.getState().redo();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [store]);
}
