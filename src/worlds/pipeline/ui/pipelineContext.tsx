import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { PipelineLabState, PipelineLabStore } from '../store/pipelineStore';

export const PipelineStoreContext = createContext<PipelineLabStore | null>(null);

/** The lab's store (for charts and imperative code). */
export function usePipelineStore(): PipelineLabStore {
  const store = useContext(PipelineStoreContext);
  if (store === null) throw new Error('usePipelineStore outside <PipelineStoreContext.Provider>');
  return store;
}

/** Selects one value of the store; re-renders only when it changes. */
export function usePipelineLab<T>(selector: (state: PipelineLabState) => T): T {
  return useStore(usePipelineStore(), selector);
}
