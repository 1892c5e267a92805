import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { AnyLabStore, SharedLabState } from '../../store/liveStore';

/**
 * What the page shell reads of a lab's store, whichever its world (ARCHITECTURE §7c): the
 * shared slices every lab's store is made of (`createLiveStore`), so the shell is typed
 * against "any lab's store" and each world keeps its own store type.
 */
export type ShellState = SharedLabState;

/** A lab's store as the shell uses it: read, subscribe (zustand's read-only store API). */
export type ShellStore = AnyLabStore;

export const ShellStoreContext = createContext<ShellStore | null>(null);

/** The store of the lab the shell is showing. */
export function useShellStore(): ShellStore {
  const store = useContext(ShellStoreContext);
  if (store === null) throw new Error('useShellStore outside <LabShell>');
  return store;
}

/** Selects one value of the shown lab's store; re-renders only when it changes. */
export function useShell<T>(selector: (state: ShellState) => T): T {
  return useStore(useShellStore(), selector);
}
