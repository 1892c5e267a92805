import { DEFAULT_PIPELINE_ASSUMPTIONS } from './engine/assumptions';
import type { LayerTimeDatabase, ModeId } from './engine/profiles/types';
import { SCENARIO_VERSION } from '../../scenario/limits';
import type { PipelineSpec, PipelineScenario } from './schema';

/** How much slower every layer gets in each co-location mode of the teaching database. */
const TEACHING_SLOWDOWN: Readonly<Record<Exclude<ModeId, 'A'>, number>> = {
  B: 1.25,
  C: 1.5,
  D: 1.75,
  E: 2,
  F: 1.1,
  G: 1.2,
  H: 1.4,
  I: 1.6,
  J: 2,
  K: 2.25,
  L: 2.5,
};

/**
 * A database small enough to check by hand on a blackboard: 12 identical layers of 2 ms
 * each, every one slowed down by the same factor in a mode (E, the memory-bandwidth hog on
 * all cores, doubles it: 4 ms). Real databases (`npm run sim -- profile vgg16`) hit layers
 * unevenly; this one keeps the arithmetic of a lesson to sums of 2s and 4s.
 */
export const TEACHING_DATABASE: LayerTimeDatabase = {
  model: 'teaching',
  layers: Array.from({ length: 12 }, (_, i) => `L${i + 1}`),
  modes: {
    A: Array.from({ length: 12 }, () => 2),
    ...Object.fromEntries(Object.entries(TEACHING_SLOWDOWN).map(([mode, factor]) => [mode, Array.from({ length: 12 }, () => 2 * factor)])),
  },
};

function teachingScenario(title: string, overrides: Partial<PipelineSpec>): PipelineScenario {
  return {
    version: SCENARIO_VERSION,
    world: 'pipeline',
    title,
    seed: 1,
    pipeline: {
      model: 'vgg16',
      database: TEACHING_DATABASE,
      executionPlaces: 4,
      queries: 120,
      interference: { random: { enabled: false, periodQueries: 10, durationQueries: 10 }, events: [{ executionPlace: 1, mode: 'E', fromQuery: 20, toQuery: 80 }] },
      // The monitor watches every stage, so the departure of the hog is seen too (see the default preset).
      assumptions: { ...DEFAULT_PIPELINE_ASSUMPTIONS, detectionSignal: 'anyStage' },
      lanes: [{ scheduler: 'odin', params: { alpha: 2 } }, { scheduler: 'optimal' }],
      ...overrides,
    },
  };
}

/** One narrated step of a lesson: what to say, and where the run should be when it is said. */
export interface PipelineLessonStep {
  readonly text: string;
  /** Jump to this many queries served (time travel: replayed from a checkpoint). */
  readonly query: number;
  /** Within that query's rebalancing, show this algorithm step (index into its trace). */
  readonly algorithmStep?: number;
  /** Lane to select (its layers on the board, its algorithm in the panel). */
  readonly lane?: number;
}

export interface PipelineLesson {
  readonly id: string;
  readonly title: string;
  readonly summary: string;
  readonly scenario: PipelineScenario;
  readonly steps: readonly PipelineLessonStep[];
}

/**
 * The guided lessons (ARCHITECTURE §7a′). Numbers in the texts are checked against the
 * engine in lessons.test.ts.
 */
export const PIPELINE_LESSONS: readonly PipelineLesson[] = [
  {
    id: 'lesson-interference',
    title: 'What interference does to a pipeline',
    summary: 'A memory-bandwidth hog lands on one execution place; the slowest stage sets the pace of the whole pipeline.',
    scenario: teachingScenario('Lesson 1: what interference does to a pipeline', {
      lanes: [{ scheduler: 'static' }, { scheduler: 'optimal' }],
    }),
    steps: [
      {
        query: 10,
        lane: 0,
        text: 'Twelve layers of 2 ms are split over four execution places, three layers each: every stage takes 6 ms, so the pipeline finishes a query every 6 ms (167 queries/s).',
      },
      {
        query: 21,
        lane: 0,
        text: 'At query 20 a memory-bandwidth hog lands on EP 2. Its layers now take 4 ms each, so stage 2 takes 12 ms — and because every query must pass through it, the whole pipeline drops to 83 queries/s.',
      },
      {
        query: 40,
        lane: 1,
        text: 'The optimum (select its lane) moves layers off EP 2: it keeps one layer there (4 ms) and gives the other stages three or four (8 ms at most), so the pipeline runs at 125 queries/s. The static lane keeps its layers and stays at 83.',
      },
      {
        query: 81,
        lane: 0,
        text: 'At query 80 the hog leaves: stage 2 is back to 6 ms and so is the pipeline. Interference costs throughput only while it lasts — if the layers are where they should be.',
      },
    ],
  },
  {
    id: 'lesson-odin',
    title: 'How ODIN rebalances',
    summary: 'Step through Algorithm 1 as ODIN (α = 2) takes layers off the slowed-down stage, one trial query at a time.',
    scenario: teachingScenario('Lesson 2: how ODIN rebalances', {}),
    steps: [
      {
        query: 20,
        lane: 0,
        text: 'ODIN watches the time of the slowest stage after every query. So far every stage takes 6 ms. Next, the hog arrives on EP 2.',
      },
      {
        query: 21,
        lane: 0,
        algorithmStep: 0,
        text: 'Query 20 ran with stage 2 at 12 ms: the monitor fires and ODIN starts Algorithm 1. Press → (or Step ▸) to execute it line by line; the watch list shows its variables.',
      },
      {
        query: 21,
        lane: 0,
        algorithmStep: 4,
        text: 'Line 6: stage 2 is the slowest, so it is PS_affected. With γ = 0 ODIN first takes one layer off each end of it (lines 8–10).',
      },
      {
        query: 21,
        lane: 0,
        algorithmStep: 15,
        text: 'Lines 12–21: S_left = 6 ms is lighter than S_right = 12 ms, so direction = left and the lightest stage on the left (stage 1) gets one more layer: the trial is C = [5, 0, 4, 3]. The board shows it.',
      },
      {
        query: 40,
        lane: 0,
        text: 'Four trial queries later ODIN settles on [3, 2, 4, 3]: 8 ms for the slowest stage, the same as the optimum. α = 2 unsuccessful trials in a row ended the search.',
      },
    ],
  },
  {
    id: 'lesson-odin-vs-lls',
    title: 'ODIN against LLS on an identical trace',
    summary: 'VGG16 on 4 EPs: the same memory-bandwidth hog for ODIN and LLS, and what each costs in trial queries.',
    scenario: {
      version: SCENARIO_VERSION,
      world: 'pipeline',
      title: 'Lesson 3: ODIN against LLS on an identical trace',
      seed: 1,
      pipeline: {
        model: 'vgg16',
        executionPlaces: 4,
        queries: 400,
        interference: { random: { enabled: false, periodQueries: 10, durationQueries: 10 }, events: [{ executionPlace: 1, mode: 'E', fromQuery: 50, toQuery: 250 }] },
        assumptions: { ...DEFAULT_PIPELINE_ASSUMPTIONS, detectionSignal: 'anyStage' },
        lanes: [{ scheduler: 'odin', params: { alpha: 10 } }, { scheduler: 'lls' }, { scheduler: 'optimal' }, { scheduler: 'static' }],
      },
    },
    steps: [
      {
        query: 50,
        lane: 0,
        text: 'VGG16 on four EPs, four lanes on the identical interference trace: ODIN (α = 10), LLS, the optimum and a static pipeline. At query 50 a memory-bandwidth hog lands on EP 2.',
      },
      {
        query: 51,
        lane: 1,
        algorithmStep: 0,
        text: 'Query 50 was slow: LLS starts. It computes each stage’s utilization from the formula of ODIN §3.3 and moves a layer from the most to the least utilized stage while the throughput does not fall. Step through it with →.',
      },
      {
        query: 51,
        lane: 0,
        algorithmStep: 0,
        text: 'ODIN reacts to the same query with Algorithm 1. It explores more (until α = 10 trials fail in a row), so it spends more trial queries.',
      },
      {
        query: 150,
        lane: 0,
        text: 'Compare the lanes: the configuration throughput of each against the optimum, and the trial queries each spent (in Lanes). Which one would you deploy, and under which assumptions?',
      },
    ],
  },
];

/** The lesson with this id. */
export function findPipelineLesson(id: string): PipelineLesson | undefined {
  return PIPELINE_LESSONS.find((l) => l.id === id);
}
