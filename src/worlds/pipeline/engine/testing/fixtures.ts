import type { LayerTimeDatabase } from '../profiles/types';
import { DEFAULT_PIPELINE_ASSUMPTIONS, type PipelineAssumptions } from '../assumptions';
import type { PipelineRun, PipelineRunSpec, QueryRecord } from '../simulation';
import { compileDatabase, type CompiledDatabase } from '../stageTimes';

/**
 * A small hand-checkable database: 8 units of 1–4 ms alone; mode B doubles every unit,
 * mode C triples the even ones.
 */
export const TOY_DATABASE: LayerTimeDatabase = {
  model: 'toy',
  layers: ['u0', 'u1', 'u2', 'u3', 'u4', 'u5', 'u6', 'u7'],
  modes: {
    A: [1, 2, 3, 4, 4, 3, 2, 1],
    B: [2, 4, 6, 8, 8, 6, 4, 2],
    C: [3, 2, 9, 4, 12, 3, 6, 1],
  },
};

export function toyDatabase(): CompiledDatabase {
  return compileDatabase(TOY_DATABASE);
}

/** A run spec on the toy database with no interference and the default assumptions. */
export function toySpec(overrides: Partial<PipelineRunSpec> = {}, assumptions: Partial<PipelineAssumptions> = {}): PipelineRunSpec {
  return {
    database: toyDatabase(),
    executionPlaces: 4,
    queries: 200,
    seed: 1,
    events: [],
    random: null,
    assumptions: { ...DEFAULT_PIPELINE_ASSUMPTIONS, ...assumptions },
    ...overrides,
  };
}

/** Random interference on the toy database (modes B and C). */
export const TOY_RANDOM = { periodQueries: 7, durationQueries: 11, modes: [1, 2] } as const;

/** Runs to the end and keeps a copy of every query record. */
export function collect(run: PipelineRun): QueryRecord[] {
  const records: QueryRecord[] = [];
  run.advance(Number.MAX_SAFE_INTEGER, (r) =>
    records.push({ ...r, configuration: r.configuration.slice(), stageTimesMs: r.stageTimesMs.slice(), modes: r.modes.slice() }),
  );
  return records;
}
