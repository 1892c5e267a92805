import { DEFAULT_PIPELINE_ASSUMPTIONS } from '../worlds/pipeline/engine/assumptions';
import type { LayerTimeDatabase, ModeId } from '../worlds/pipeline/engine/profiles/types';
import { SCENARIO_VERSION } from './limits';
import type { PipelineSpec, PipelineScenario, ServingScenario } from './schema';

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

/** One narrated step of a serving lesson: what to say, and where the run should be when it is said. */
export interface ServingLessonStep {
  readonly text: string;
  /** Jump to this simulated time, ms (time travel: replayed from time 0, learning lanes included). */
  readonly timeMs: number;
  /** Lane to select (the device board and the learning panel follow it). */
  readonly lane?: number;
}

export interface ServingLesson {
  readonly id: string;
  readonly title: string;
  readonly summary: string;
  readonly scenario: ServingScenario;
  readonly steps: readonly ServingLessonStep[];
}

/**
 * The serving world's lessons (ARCHITECTURE §7a′), built on its presets: the scenario of
 * `bcedge-fig1-yolo` (YOLO alone on Xavier NX) with four Triton settings side by side, and
 * that of `bcedge-fig14-slo` (BCEdge with and without the interference predictor) learning
 * from scratch. Numbers in the texts are checked against the engine in lessons.test.ts.
 */
export function servingLessons(presets: { readonly fig1: ServingScenario; readonly fig14: ServingScenario }): readonly ServingLesson[] {
  const { sweep: _sweep, ...fig1 } = presets.fig1;
  void _sweep;
  // The lesson sends requests at a rate (Fig. 1's preset keeps a closed loop in flight).
  const { closedLoop: _closedLoop, ...fig1Serving } = fig1.serving;
  void _closedLoop;
  return [
    {
      id: 'lesson-batching',
      title: 'Why batch size and concurrency interact',
      summary: 'BCEdge Fig. 1 live: YOLO alone at 600 requests/s under four fixed (b, m_c) settings.',
      scenario: {
        ...fig1,
        title: 'Lesson: batch size × concurrent instances (YOLO, 600 rps)',
        serving: {
          ...fig1Serving,
          // Late requests kept: the lesson shows what each (b, m_c) does to the queue, which a
          // server that rejects late requests (the default reading) would hide.
          assumptions: { ...fig1Serving.assumptions, lateRequests: 'keep' },
          rateRps: 600,
          durationS: 60,
          lanes: [
            { scheduler: 'fixed', params: { batchSize: 1, instances: 1 } },
            { scheduler: 'fixed', params: { batchSize: 8, instances: 2 } },
            { scheduler: 'fixed', params: { batchSize: 64, instances: 8 } },
            { scheduler: 'fixed', params: { batchSize: 128, instances: 1 } },
          ],
        },
      },
      steps: [
        {
          timeMs: 0,
          lane: 0,
          text: 'YOLO alone on Xavier NX receives 600 requests/s. Four Triton lanes serve the same requests, each with a fixed batch size b and number of concurrent instances m_c. A batch forms: a free instance waits for b requests, or leaves with fewer when waiting longer would make the oldest miss its SLO. The Fig. 1 heatmaps show every (b, m_c) cell of YOLO at load: throughput and latency both change with b and m_c — the two knobs interact.',
        },
        {
          timeMs: 20_000,
          lane: 0,
          text: 'b = 1, one instance: every request is a batch of one and the GPU runs one small job at a time. It serves about 260 of the 600 requests per second; the queue grows without end and almost every request misses its SLO.',
        },
        {
          timeMs: 30_000,
          lane: 3,
          text: 'b = 128, one instance: 128 requests take 213 ms to arrive at 600 rps, longer than YOLO’s 138 ms SLO, so each batch leaves at its oldest request’s deadline with about 47 requests. One instance runs them back to back; it keeps up, but a third of the requests are late.',
        },
        {
          timeMs: 40_000,
          lane: 2,
          text: 'b = 64 on 8 instances: its batches also leave at the deadline, with about 40 requests, but the instances run them side by side: about 5 % are late, and it has the highest utility of the four, because Eq. 3 grows with the requests a batch holds.',
        },
        {
          timeMs: 60_000,
          lane: 1,
          text: 'b = 8 on 2 instances keeps up at the lowest latency, about 30 ms, with no request late; its utility is a little below that of b = 64, whose larger batches Eq. 3 rewards. The best pair depends on the model, the rate and what else runs: that is what BCEdge learns to choose for each model, slot by slot.',
        },
      ],
    },
    {
      id: 'lesson-sac',
      title: 'How the SAC scheduler learns, and what the predictor masks',
      summary: 'BCEdge learning from scratch for 5 minutes on the six models at 30 rps, with and without its interference predictor (Fig. 14).',
      scenario: {
        ...presets.fig14,
        title: 'Lesson: BCEdge learns from scratch, with and without the predictor',
        serving: {
          ...presets.fig14.serving,
          durationS: 300,
          lanes: [
            { scheduler: 'bcedge', params: { pretrained: 0, predictor: 1 } },
            { scheduler: 'bcedge', params: { pretrained: 0, predictor: 0 } },
          ],
        },
      },
      steps: [
        {
          timeMs: 0,
          lane: 0,
          text: 'Two BCEdge lanes start from untrained networks. Each model decides at the end of its own scheduling slot, which lasts the SLOs of the b requests its batch takes over its m_c instances (Eq. 1): b = 1 on 4 instances holds for a quarter of the SLO, b = 128 on one instance for 128 SLOs. There the actor reads the model\u2019s state (§IV-B1: its queue, its requests\u2019 SLOs, the device) and samples a batch size and instance count from its policy π; the learning panel shows π as a grid of 8 × 8 actions.',
        },
        {
          timeMs: 20_000,
          lane: 0,
          text: 'The first seconds only collect experience, with random actions: a model keeps the action it chose for a second (its decisions at the ends of its slots in that second repeat it), and that second becomes a transition (state, action, reward = utility of Eq. 3 over the requests its decisions governed, next state) in the replay buffer. The six models give four to six transitions a second; until the buffer holds 256 (after about a minute) no update runs and the actions stay uniformly random.',
        },
        {
          timeMs: 90_000,
          lane: 0,
          text: 'Now the soft actor-critic updates run, two every simulated second (the lane\u2019s training cadence, trainEveryMs = 1000, rather than one per decision: that keeps the cost of learning what it is with one fixed slot): the two critics learn Q(s, a) from minibatches of the buffer, the actor moves π toward actions the critics rate high, and the temperature α trades reward for entropy, so the agent keeps exploring while it improves (Eq. 9–12).',
        },
        {
          timeMs: 240_000,
          lane: 0,
          text: 'The interference predictor learns too, from every batch it sees run (their latency beside what else ran on the GPU); it is trusted after 256 batches and 200 updates of its own, here after about three and a half minutes. Since then, before each decision it estimates the latency of every action, and the actions it expects to break the SLO are masked (their probability set to 0): the learning panel counts them at the last decision.',
        },
        {
          timeMs: 300_000,
          lane: 1,
          text: 'The second lane learns without the predictor: nothing is masked, so it also tries — and is punished for — actions that overload the device. Compare the two lanes\u2019 SLO violations and utility: Fig. 14 of BCEdge makes the same comparison over 3000 s, from trained agents.',
        },
      ],
    },
  ];
}
