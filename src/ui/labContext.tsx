import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { LabState, LabStore } from '../store/labStore';

export const LabStoreContext = createContext<LabStore | null>(null);

/** The lab's store (for charts and imperative code). */
export function useLabStore(): LabStore {
  const store = useContext(LabStoreContext);
  if (store === null) throw new Error('useLabStore outside <LabStoreContext.Provider>');
  return store;
}

/** Selects one value of the store; re-renders only when it changes. */
export function useLab<T>(selector: (state: LabState) => T): T {
  return useStore(useLabStore(), selector);
}
