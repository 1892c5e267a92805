import { useCallback } from 'react';
import type { PipelineLabStore } from '../store/pipelineStore';
import { useLabKeys } from '../../../ui/shell/labKeys';

/**
 * Teaching-mode shortcuts of the pipeline lab (ARCHITECTURE §7a′, keys): the shell's lab keys
 * (`labKeys.ts`: Space, Shift+← → markers, + −, ?, Esc) with ← → one algorithm line (or one
 * query where no rebalancing runs). `null`: the pipeline lab is not shown, its keys are off.
 */
export function useTeachingKeys(store: PipelineLabStore | null): void {
  const step = useCallback((direction: 1 | -1) => void store?.getState().stepAlgorithm(direction), [store]);
  useLabKeys(store, step);
}
