import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { HideableControl } from '../../scenario/limits';
import type { LoadErrors } from '../../store/history';
import type { PlaybackStatus } from '../../worker/protocol';
import type { ClassroomView } from '../ClassroomPanel';

/**
 * What the page shell reads of a lab's store, whichever its world (ARCHITECTURE §7c): both
 * stores have these fields and actions under these names, so the shell is typed structurally
 * against "any lab's store" and each world keeps its own store type.
 */
export interface ShellState {
  readonly status: PlaybackStatus;
  readonly speed: number | 'max';
  readonly view: ClassroomView;
  readonly errors: LoadErrors | null;
  readonly past: readonly unknown[];
  readonly future: readonly unknown[];
  readonly lesson: { readonly id: string; readonly step: number } | null;
  /** The help overlay, where the store keeps it (the pipeline's `?` key); otherwise the shell does. */
  readonly helpOpen?: boolean;
  setHelpOpen?(open: boolean): void;
  play(): Promise<void>;
  pause(): Promise<void>;
  reset(): Promise<void>;
  // Method syntax (bivariant): each world's store takes its own speeds (queries/s, × real time).
  setSpeed(speed: number | 'max'): Promise<void>;
  undo(): Promise<void>;
  redo(): Promise<void>;
  setView(view: { mode: ClassroomView['mode']; hide: HideableControl[] }): void;
  dismissErrors(): void;
  startLesson(id: string): Promise<boolean>;
  lessonStep(step: number): Promise<void>;
  endLesson(): void;
}

/** A lab's store as the shell uses it: read, subscribe (zustand's read-only store API). */
export interface ShellStore {
  getState(): ShellState;
  getInitialState(): ShellState;
  subscribe(listener: (state: ShellState, previous: ShellState) => void): () => void;
}

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
