/**
 * The database the Measure panel measured or imported last, for the real-run panel
 * (ARCHITECTURE §2, the real backend): a run uses it when it is the scenario's model at the
 * run's input size instead of measuring one again.
 */
import { createStore } from 'zustand/vanilla';
import type { LayerTimeDatabase } from '../engine/profiles/types';

export const measuredDatabase = createStore<{ readonly database: LayerTimeDatabase | null }>()(() => ({ database: null }));
