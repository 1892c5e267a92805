import type { ServingScenario } from './schema';

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
