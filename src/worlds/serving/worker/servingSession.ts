import type { ServingSummary } from '../engine/metrics';
import type { ServingRunSpec } from '../engine/spec';
import type { LaneRun } from '../scenario/deviceCopies';
import { parseWorldScenario } from '../../../scenario/parse';
import { servingWorld } from '../world';
import type { FieldError } from '../../../scenario/schema';
import type { ServingScenario } from '../schema';
import { buildLaneRun, buildServingSpec, deviceCopiesOf } from '../scenario/servingRunner';
import type { AgentFile } from '../agents/learner';
import { DiscreteSac, type SacUpdateExplained } from '../agents/sac';
import { isLearningScheduler, type LearningFactory } from '../schedulers/registry';
import { createFixed } from '../schedulers/fixed';
import type { SessionHost } from '../../../worker/liveLoop';
import type { Answer } from '../../../worker/liveProtocol';
import { describeValue, indexProblem, LiveSession, refuse } from '../../../worker/liveSession';
import type { BackgroundView, ServingFrame, ServingLaneFrame, ServingLaneInfo, ServingLoaded } from './servingProtocol';
import { SERVING_SPEED_LIMITS } from './servingProtocol';
import type { SearchWorkerPort } from './referenceLanes';
import type { ReferenceResult } from '../schedulers/reference';
import { laneCheckpoint, restoreLane, servingTimeTravel, type ServingCheckpoint, type ServingCheckpointPolicy } from './servingCheckpoints';
import { allBackgrounds, applyEditToLane, scenarioWithEdits, scriptedBackgrounds, timelineMarkers, type ServingEdit } from './servingEdits';
import { runningLaneFrame, servingLaneSummary, waitingFrame } from './servingFrames';
import { buildLane, recordSlot, servingLaneInfo, type Lane } from './servingLanes';
import { disposeLane, LateLanes, waitingFor, type AnyLane, type WaitingLane } from './servingLateLanes';
import type { FrameContext, FrameExtra, SessionContext, TimeTravel, WorldPlugin } from '../../../worker/worldPlugin';
import type { ServingTypes } from '../types';

/**
 * The serving world (BCEdge) as a plugin of the live session: every lane of a serving
 * scenario on one arrival trace (same seed), advanced in lock step slot by slot; its position
 * is the simulated time, ms.
 *
 * Time travel goes through checkpoints of the whole run (ARCHITECTURE §7a), one every
 * SERVING_CHECKPOINT_EVERY_MS of simulated time at first, at most SERVING_CHECKPOINTS_MAX and
 * SERVING_CHECKPOINT_BUDGET_BYTES of them (the spacing fitted to the run, and doubled past either): each lane's engine
 * (`LaneRun.snapshot`), its schedulers — learners included, with their networks as one
 * Float32Array each, Adam's moments, replay buffer (in chunks shared between checkpoints),
 * random stream, counters and temperature, and the interference predictor's network, optimizer
 * and records — and the session's own state (time, slot, overrides, action in force, decision
 * counters, series, learning curves). A seek restores the latest checkpoint before its target
 * and replays from there with the live edits at their times, bit for bit what the run gave the
 * first time. A lane whose scheduler cannot copy its state (`ServingScheduler.snapshot` absent or
 * undefined) is built afresh and replayed from time 0 to the checkpoint instead, as every lane
 * was before checkpoints.
 *
 * A reference lane (`fixed-hindsight`, `fixed-per-phase`) searches by re-running its trace
 * tens to hundreds of times: minutes on the 3000 s presets. The other lanes do not wait for
 * it. Its search runs in slices between the live run's ticks (as the sweeps do); meanwhile the
 * lane waits, without points. Once its plan is known the lane is built, run from time 0 up to
 * the others with the live edits at their times — so that it is the very lane a run that had
 * searched first would have had, bit for bit — and joins them. A checkpoint taken while it
 * waited keeps it waiting: restored, it waits again, or catches up from time 0 if its plan is
 * known by then. Plans are kept per scenario and lane (`ReferenceSearches` in `LateLanes`, for
 * as long as the worker lives): a rebuild (a replay from 0, a reload of the same scenario)
 * takes the plan and does not search again.
 */
export class ServingPlugin implements WorldPlugin<ServingTypes> {
  readonly unitsPerSpeedSecond = 1000;
  readonly integral = false;
  readonly timeTravel: TimeTravel<ServingCheckpoint>;
  readonly initialSpeed = 10;
  readonly speedLimits = SERVING_SPEED_LIMITS;
  readonly positionField = 'timeMs';
  readonly positionRule = 'a number of simulated ms';
  readonly buildErrorPath = 'serving.lanes';

  /** The scenario the lanes were built from (at load, reset, rate change; a scripted tenant ended live changes it). */
  base: ServingScenario | null = null;
  /** Backgrounds scripted by `base`, with ids. */
  scripted: BackgroundView[] = [];
  lanes: AnyLane[] = [];
  timeMs = 0;
  durationMs = 0;
  private slotMs = 1000;
  private slot = 0;
  nextBackgroundId = 1;
  private replaceDue = false;
  /** The engine's spec of `base` (the command line's: the reference lanes' plans are found on it). */
  private spec: ServingRunSpec | null = null;
  /** The specs of its device copies when `base` serves its models apart (worlds/serving/scenario/deviceCopies.ts), else null. */
  private copies: ServingRunSpec[] | null = null;
  /** The lanes built late: the reference lanes' searches (their plans kept across loads) and the lanes catching up. */
  private readonly late: LateLanes;
  /** The time line's markers changed (a live edit): the next frame carries them. */
  timelineDue = true;
  /** Builds the learning lanes; set by the worker once TensorFlow.js is loaded. */
  learningFactory: LearningFactory | null = null;
  /**
   * TensorFlow.js (or a shipped agent) for the learning lanes is on its way: they wait for it
   * while the other lanes run (`ServingSession.learningLoading`).
   */
  learningLoading = false;
  /** Why the learners could not start (the load of TensorFlow.js or an agent failed): their lanes say so and stay out. */
  learningError: string | null = null;
  private session!: SessionContext<ServingTypes>;

  /**
   * `checkpoints`: the spacing, count and memory budget of the checkpoints (tests and the bench change them).
   * `searchPort`: a worker of its own for the reference searches (the page's); without one they run here in slices.
   */
  constructor(checkpoints: Partial<ServingCheckpointPolicy> = {}, searchPort: SearchWorkerPort | null = null) {
    this.late = new LateLanes(
      {
        lanes: () => this.lanes,
        at: () => ({ timeMs: this.timeMs, slot: this.slot }),
        learningFactory: () => this.learningFactory,
        session: () => this.session,
        buildLane: (info, plans) => this.buildLane(info, plans),
        // A lane joined: the page takes every lane's points afresh, as after a jump.
        joined: () => this.jumped(),
        slotEnd: (slot) => this.slotEnd(slot),
        stretch: (lanes, slot, target) => this.stretch(lanes, slot, target),
        edits: () => this.session.edits(),
        applyEditTo: (lane, edit) => applyEditToLane(lane, edit, this.base!.serving.models),
      },
      searchPort,
    );
    this.timeTravel = servingTimeTravel(checkpoints, { snapshot: () => this.snapshot(), restore: (c) => this.restore(c) });
  }

  attach(session: SessionContext<ServingTypes>): void {
    this.session = session;
  }

  parse(input: unknown) {
    const parsed = parseWorldScenario(servingWorld, input);
    if (!parsed.ok) return parsed;
    return this.learningProblem(parsed.scenario) ?? { ok: true as const, scenario: parsed.scenario };
  }

  /** A valid scenario's learning lane that cannot run (TensorFlow.js not loaded), as a refusal; null when it can run. */
  learningProblem(scenario: ServingScenario): { readonly ok: false; readonly errors: readonly FieldError[] } | null {
    const learningLane = scenario.serving.lanes.findIndex((l) => isLearningScheduler(l.scheduler));
    if (learningLane >= 0 && this.learningFactory === null && !this.learningLoading) {
      return { ok: false as const, errors: [{ path: `serving.lanes[${learningLane}].scheduler`, message: 'is a learning scheduler and TensorFlow.js could not be loaded' }] };
    }
    return null;
  }

  position(): number {
    return this.timeMs;
  }

  end(): number {
    return this.durationMs;
  }

  start(scenario: ServingScenario): void {
    this.base = scenario;
    this.timelineDue = true;
    this.rebuild();
    this.scripted = scriptedBackgrounds(scenario);
    this.nextBackgroundId = this.scripted.length + 1;
  }

  /**
   * Fresh lanes at time 0 from `base`. A reference lane whose plan is known is built with it;
   * the others wait for their search, which goes on where it was if it was under way.
   */
  private rebuild(): void {
    const scenario = this.base!;
    this.disposeLanes();
    const spec = buildServingSpec(scenario);
    this.spec = spec;
    this.copies = deviceCopiesOf(scenario, spec);
    this.timeMs = 0;
    this.slot = 0;
    this.durationMs = spec.durationMs;
    this.slotMs = spec.assumptions.slotMs;
    this.lanes = this.late.start(
      scenario.serving.lanes.map((_, index) => servingLaneInfo(scenario, index)),
      this.copies ?? [spec],
    );
    this.replaceDue = true;
    this.late.sliceLater();
  }

  /** Lanes at time 0 afresh from `base`, for a change of what they start from (a scripted tenant ended live). */
  rebuildLanes(): void {
    this.rebuild();
  }

  /** A checkpoint now (ARCHITECTURE §7a): the time, the slot under way and every lane (`laneCheckpoint`). */
  private snapshot(): ServingCheckpoint {
    return { timeMs: this.timeMs, slot: this.slot, lanes: this.lanes.map((lane) => laneCheckpoint(lane)) };
  }

  /**
   * Back to a checkpoint: each lane that ran then is that very lane, put back as it was; one
   * whose scheduler could not be copied is built afresh and replayed from time 0 to the
   * checkpoint with the live edits before it (`LateLanes.replayTo`). A reference lane that waited
   * for its plan waits again, or, its plan known by now, catches up from time 0 as it does
   * when its search ends (`LateLanes`).
   */
  private restore(c: ServingCheckpoint): void {
    this.timeMs = c.timeMs;
    this.slot = c.slot;
    this.lanes = c.lanes.map(({ lane, state }, index): AnyLane => {
      if (state === null || lane.kind === 'waiting') {
        const waiting = lane as WaitingLane;
        const again: WaitingLane = { ...waiting, chase: null };
        return again;
      }
      if (state.schedulers === null) {
        // Its scheduler's state could not be copied: the lane as it stands is dropped, and one built afresh replays to the checkpoint.
        disposeLane(this.lanes[index]);
        return this.late.replayTo(this.buildLane(servingLaneInfo(this.base!, index)), c.timeMs, c.slot);
      }
      return restoreLane(lane, state, state.schedulers);
    });
    this.late.restored();
    this.replaceDue = true;
    this.late.sliceLater();
  }

  /** Builds a lane at time 0 (a reference lane with its plans, found before: one per device copy). */
  private buildLane(info: ServingLaneInfo, referenceResults?: readonly ReferenceResult[]): Lane {
    const build = { spec: this.spec!, copies: this.copies, seed: this.base!.seed, learningFactory: this.learningFactory, now: () => this.session.now() };
    return buildLane(info, build, referenceResults);
  }

  /** The lanes that run (a reference lane still waiting for its plan does not). */
  running(): Lane[] {
    return this.lanes.filter((l): l is Lane => l.kind === 'running');
  }

  /** Lane `index` if it runs. */
  runningLane(index: number): Lane | undefined {
    const lane = this.lanes[index];
    return lane?.kind === 'running' ? lane : undefined;
  }

  applyEdit(c: ServingEdit): void {
    for (const lane of this.running()) applyEditToLane(lane, c, this.base!.serving.models);
  }

  forgetAfter(): void {
    this.timelineDue = true;
  }

  jumped(): void {
    for (const lane of this.running()) lane.series.resend();
    this.replaceDue = true;
  }

  stepped(): void {}

  loaded(): ServingLoaded {
    const scenario = this.base!;
    // Every lane has the same models and device: any lane's first observation tells (a probe's when none runs yet).
    const probe = (): LaneRun => buildLaneRun({ ...this.spec!, seriesCap: 2 }, this.copies?.map((c) => ({ ...c, seriesCap: 2 })) ?? null, () => createFixed({ batchSize: 1, instances: 1 }), () => {});
    const first = (this.running()[0]?.run ?? probe()).observe();
    return {
      scenario,
      lanes: this.lanes.map((l) => l.info),
      models: scenario.serving.models.map((m, i) => ({ model: m.model, weight: m.weight, sloMs: first.models[i]!.sloMs })),
      platform: scenario.serving.platform,
      deviceCopies: this.copies?.length ?? 1,
      memoryMb: first.memoryMb,
      slotMs: this.slotMs,
      durationMs: this.durationMs,
      backgrounds: this.backgrounds(),
    };
  }

  /** The scenario as it stands (live backgrounds and per-model settings included). */
  currentScenario(): ServingScenario {
    return scenarioWithEdits(this.base!, this.session.edits());
  }

  /** Every background: the scenario's and those dropped live. */
  backgrounds(): BackgroundView[] {
    return allBackgrounds(this.scripted, this.session.edits());
  }

  /** One stretch: to the next slot boundary or `target`, whichever comes first. */
  advanceToward(target: number): void {
    const next = Math.min(this.slotEnd(this.slot), target);
    this.slot = this.stretch(this.running(), this.slot, target);
    this.timeMs = next;
  }

  /**
   * One stretch of `lanes` in slot `slot`: to the slot's end or `target`, whichever comes
   * first, and the slot's point when it ends. Gives the slot under way after it. The lanes
   * that run and a lane catching up with them (`LateLanes`) take the same stretches.
   */
  private stretch(lanes: readonly Lane[], slot: number, target: number): number {
    const end = this.slotEnd(slot);
    const next = Math.min(end, target);
    for (const lane of lanes) lane.run.advanceTo(next);
    if (next < end) return slot;
    const slotStart = slot * this.slotMs;
    for (const lane of lanes) recordSlot(lane, slot, slotStart, end, end >= this.durationMs);
    return slot + 1;
  }

  private slotEnd(slot: number): number {
    return Math.min((slot + 1) * this.slotMs, this.durationMs);
  }

  frameLanes(context: FrameContext) {
    let replace = this.replaceDue;
    this.replaceDue = false;
    const lanes = this.lanes.map((lane): ServingLaneFrame => {
      if (lane.kind === 'waiting') return waitingFrame(lane, this.late.searches, this.learningError);
      const { frame, replace: r } = runningLaneFrame(lane, context);
      replace ||= r;
      return frame;
    });
    // Every lane's series holds the same slots, so all lanes compact together: a replace
    // frame carries every point of every lane (after a rebuild every series is new).
    return { lanes, replace, stride: this.running()[0]?.series.stride ?? 1 };
  }

  summaries(): (ServingSummary | null)[] {
    return this.lanes.map((l) => (l.kind === 'waiting' ? null : servingLaneSummary(l)));
  }

  frameExtra(context: FrameContext): FrameExtra<ServingFrame> {
    let timeline: ServingFrame['timeline'];
    if (this.timelineDue || context.force) {
      timeline = { markers: timelineMarkers(this.backgrounds(), this.session.edits(), this.base?.serving.models ?? []) };
      this.timelineDue = false;
    }
    return {
      timeMs: this.timeMs,
      durationMs: this.durationMs,
      models: this.base?.serving.models.length ?? 0,
      backgrounds: this.backgrounds(),
      furthestMs: context.furthest,
      ...(timeline ? { timeline } : {}),
    };
  }

  /** TensorFlow.js is here: the learning lanes that waited for it are built and start catching up. */
  learnersReady(): void {
    this.late.learnersReady();
  }

  /** Frees the lanes' learners (tensors are not garbage-collected). */
  private disposeLanes(): void {
    for (const lane of this.lanes) disposeLane(lane);
    this.lanes = [];
  }
}

/**
 * The live serving lab (BCEdge) behind the serving page: the generic live session over the
 * serving world, paced in simulated seconds per wall second, with the serving world's live
 * edits, agents and the SAC walkthrough.
 *
 * Live edits and how they are made:
 * - `setModelConfig`: the fixed lane's scheduler is wrapped with per-model overrides; the
 *   engine asks for a decision at every slot boundary, so the change applies from the next
 *   slot on, without a rebuild.
 * - `addBackground`: `ServingRun.addBackground` at the current simulated time on every lane.
 * - `removeBackground`: the engine cannot end a background it was given (no end hook, and
 *   negative intensities are refused), so the lanes are replayed to the current time with
 *   every live edit at its time and the removed background ending now (exact, deterministic):
 *   a tenant dropped live from the checkpoint before it was dropped (the later ones are
 *   forgotten), a tenant of the scenario from time 0 (the lanes are built again; it costs the
 *   simulated time so far, synchronously).
 * - `setArrivalRate`: the Poisson trace is drawn from the rate, so a new rate restarts the run
 *   from time 0 (with the live edits folded into the scenario, as `reset`).
 */
export class ServingSession extends LiveSession<ServingTypes> {
  /** `searchPort`: where the reference lanes search (the page's search worker; none: in this worker's slices). */
  constructor(host: SessionHost<ServingFrame>, checkpoints: Partial<ServingCheckpointPolicy> = {}, searchPort: SearchWorkerPort | null = null) {
    super(host, new ServingPlugin(checkpoints, searchPort));
  }

  private get serving(): ServingPlugin {
    return this.world as ServingPlugin;
  }

  /** The learners' builder for the next load (null: no learning lane), at hand: its lanes are built with the others. */
  setLearning(factory: LearningFactory | null): void {
    this.setLearningState({ factory, loading: false, error: null });
  }

  /**
   * TensorFlow.js (and the agents) for the next load's learning lanes is on its way (ARCHITECTURE
   * §3): the load goes on, its learning lanes wait while the others run, and `learningLoaded`
   * or `learningFailed` says how it ended.
   */
  learningLoading(): void {
    this.setLearningState({ factory: null, loading: true, error: null });
  }

  /** The learners' state as it stands (builder, loading, failure), to put back when a load is refused (`setLearningState`). */
  learningState(): { readonly factory: LearningFactory | null; readonly loading: boolean; readonly error: string | null } {
    const w = this.serving;
    return { factory: w.learningFactory, loading: w.learningLoading, error: w.learningError };
  }

  setLearningState(state: ReturnType<ServingSession['learningState']>): void {
    const w = this.serving;
    w.learningFactory = state.factory;
    w.learningLoading = state.loading;
    w.learningError = state.error;
  }

  /** The learners' builder has come: the learning lanes that waited for it run from time 0 up to the others, then join them. */
  learningLoaded(factory: LearningFactory): void {
    this.setLearning(factory);
    this.serving.learnersReady();
    this.report(true);
  }

  /** The learners could not start (`message` says why): their lanes say so and stay out of the run; the other lanes go on. */
  learningFailed(message: string): void {
    this.setLearningState({ factory: null, loading: false, error: message });
    this.report(true);
  }

  /**
   * Loads a scenario the serving door has just validated (`servingApi`'s load validates first,
   * to start the learners it needs): a scenario is validated once per load.
   */
  loadValidated(scenario: ServingScenario): ReturnType<ServingSession['load']> {
    return this.serving.learningProblem(scenario) ?? this.loadValid(scenario);
  }

  /** A learning lane's agent as a file; refused for other lanes. */
  exportAgent(lane: unknown): Answer<{ readonly agent: AgentFile }> {
    const w = this.serving;
    const bad = indexProblem('lane', lane, w.lanes.length, 'a lane');
    if (bad !== null) return bad;
    const l = w.runningLane(lane as number);
    if (l === undefined) return refuse('lane', `${w.lanes[lane as number]!.info.label} ${waitingFor(w.lanes[lane as number]!)} (it has no agent yet)`);
    if (l.learning === null) return refuse('lane', `${l.info.label} does not learn (it has no agent)`);
    const title = w.base?.title ?? 'scenario';
    return { ok: true, agent: l.learning.exportAgent(`${title}, seed ${w.base?.seed ?? 0}, ${Math.round(w.timeMs / 1000)} s simulated in the page`) };
  }

  /**
   * Runs the next SAC update of a BCEdge/TAC lane step by step and returns its numbers (the
   * walkthrough); `update` is null before the lane has a transition to learn from.
   */
  explainUpdate(lane: unknown): Answer<{ readonly update: SacUpdateExplained | null }> {
    const w = this.serving;
    const bad = indexProblem('lane', lane, w.lanes.length, 'a lane');
    if (bad !== null) return bad;
    const learner = w.runningLane(lane as number)?.learning?.scheduler.learner;
    if (!(learner instanceof DiscreteSac)) return refuse('lane', `${w.lanes[lane as number]!.info.label} is not a BCEdge or TAC lane (no SAC update to explain)`);
    const update = learner.explainUpdate();
    if (update === null) return { ok: true, update };
    // The update changed the learner: a replay must apply it again at this time.
    this.edit({ kind: 'explain', atMs: w.timeMs, lane: lane as number }, true);
    w.timelineDue = true;
    return { ok: true, update };
  }

  /** Loads an agent into a learning lane now (it acts with it from the next slot); a bad file is refused by its field. */
  importAgent(lane: unknown, file: unknown): Answer {
    const w = this.serving;
    const bad = indexProblem('lane', lane, w.lanes.length, 'a lane');
    if (bad !== null) return bad;
    const l = w.runningLane(lane as number);
    if (l === undefined || l.learning === null) return refuse('lane', `${w.lanes[lane as number]!.info.label} does not learn (no agent to load)`);
    const result = l.learning.importAgent(file);
    if (!result.ok) return refuse('agent', result.error.replace(/^agent\.?/, '') || result.error);
    // The other device copies of the lane take it too (the first took it, so it is a good file).
    for (const other of l.learnings.slice(1)) other.importAgent(file);
    this.edit({ kind: 'agent', atMs: w.timeMs, lane: lane as number, file: structuredClone(file) }, true);
    w.timelineDue = true;
    return { ok: true };
  }

  /**
   * Sets the request rate. The arrival trace is drawn from the rate, so the run restarts
   * from time 0 with it (live edits folded into the scenario); playing goes on playing. The
   * rate is checked as a scenario file's is (its range, the requests a run may send).
   */
  setArrivalRate(rateRps: unknown): Answer {
    if (!this.isLoaded) return refuse('serving.rateRps', 'no scenario is loaded');
    const current = this.serving.currentScenario();
    const next = { ...current, serving: { ...current.serving, rateRps } };
    const refused = this.refusedEdit(next, ['serving.rateRps']);
    if (refused !== null) return refused;
    const playing = this.loop.status === 'playing';
    this.loop.status = 'paused';
    this.start(next as ServingScenario);
    if (playing) this.play();
    return { ok: true };
  }

  /**
   * Sets (b, m_c) of one model on a fixed lane from the next slot on: the lane's per-model
   * parameters (`batchSize.yolo`), checked as a scenario file's are.
   */
  setModelConfig(laneIndex: unknown, model: unknown, batchSize: unknown, instances: unknown): Answer<{ readonly lane: ServingLaneInfo }> {
    const w = this.serving;
    if (!this.isLoaded || w.base === null) return refuse('lane', 'no scenario is loaded');
    const bad = indexProblem('lane', laneIndex, w.lanes.length, 'a lane') ?? indexProblem('model', model, w.base.serving.models.length, 'a model');
    if (bad !== null) return bad;
    const lane = w.runningLane(laneIndex as number);
    if (lane === undefined) return refuse('lane', `${w.lanes[laneIndex as number]!.info.label} is still searching for its plan`);
    if (lane.hooks[0]!.overrides === null) return refuse('lane', `${lane.info.label} decides its own batch size and instances (only a fixed lane takes them from the page)`);
    if (this.loop.status === 'done' || w.timeMs >= w.durationMs) return refuse('timeMs', `the run is over (${w.durationMs} ms): a setting made now would never apply`);
    const current = w.currentScenario();
    const id = current.serving.models[model as number]!.model;
    const lanes = current.serving.lanes.map((l, i) => (i === laneIndex ? { ...l, params: { ...l.params, [`batchSize.${id}`]: batchSize, [`instances.${id}`]: instances } } : l));
    const refused = this.refusedEdit({ ...current, serving: { ...current.serving, lanes } }, [`serving.lanes[${laneIndex as number}].params`]);
    if (refused !== null) return refused;
    this.edit({ kind: 'config', atMs: w.timeMs, lane: laneIndex as number, model: model as number, action: { batchSize: batchSize as number, instances: instances as number } });
    w.timelineDue = true;
    this.report(true);
    return { ok: true, lane: lane.info };
  }

  /** Drops background interference onto the device of every lane from now on: a tenant of the scenario, checked as a file's are. */
  addBackground(intensity: unknown, memoryMb: unknown): Answer<{ readonly backgrounds: readonly BackgroundView[] }> {
    const w = this.serving;
    if (!this.isLoaded) return refuse('serving.background', 'no scenario is loaded');
    const current = w.currentScenario();
    const at = current.serving.background.length;
    if (w.timeMs >= w.durationMs) return refuse(`serving.background[${at}].fromS`, `the run is over (${w.durationMs / 1000} s): a tenant dropped now would never run`);
    const background = [...current.serving.background, { fromS: w.timeMs / 1000, toS: null, intensity, memoryMb }];
    const refused = this.refusedEdit({ ...current, serving: { ...current.serving, background } }, [`serving.background[${at}]`]);
    if (refused !== null) return refused;
    this.edit({ kind: 'background', atMs: w.timeMs, id: w.nextBackgroundId++, intensity: intensity as number, memoryMb: memoryMb as number, toMs: null });
    w.timelineDue = true;
    this.report(true);
    return { ok: true, backgrounds: w.backgrounds() };
  }

  /**
   * Ends a background now (or drops it if it has not started). The engine has no hook to
   * end one, so the lanes are replayed to the current time (see the class comment).
   */
  removeBackground(id: unknown): Answer<{ readonly backgrounds: readonly BackgroundView[] }> {
    const w = this.serving;
    if (!this.isLoaded || w.base === null) return refuse('id', 'no scenario is loaded');
    const now = w.timeMs;
    const ended = (b: { readonly toMs: number | null }) => b.toMs !== null && b.toMs <= now;
    // A tenant that has left already is gone, as asked (the page may show it a frame longer); an unknown id is refused.
    const gone = { ok: true as const, backgrounds: w.backgrounds() };
    const live = this.edits.all.find((c): c is Extract<ServingEdit, { kind: 'background' }> => c.kind === 'background' && c.id === id);
    if (live !== undefined) {
      if (ended(live)) return gone;
      if (live.atMs >= now) this.forgetEdit(live);
      else live.toMs = now;
      // The checkpoints since it was dropped hold it as it was: they go, the run replays from the one before.
      this.changedFrom(Math.min(live.atMs, now));
    } else {
      const i = w.scripted.findIndex((b) => b.id === id);
      const b = w.scripted[i];
      if (b === undefined) {
        const ids = w.backgrounds().map((x) => x.id);
        return refuse('id', `must be the id of a tenant (${ids.length === 0 ? 'there is none' : ids.join(', ')}), got ${describeValue(id)}`);
      }
      if (ended(b)) return gone;
      const list = [...w.base.serving.background];
      if (b.fromMs >= now) list.splice(i, 1);
      else list[i] = { ...list[i]!, toS: now / 1000 };
      w.base = { ...w.base, serving: { ...w.base.serving, background: list } };
      w.scripted = b.fromMs >= now ? w.scripted.filter((x) => x.id !== id) : w.scripted.map((x) => (x.id === id ? { ...x, toMs: now } : x));
      // The lanes start from the scenario's tenants: they are built again and replayed to now.
      w.timelineDue = true;
      w.rebuildLanes();
      this.replayRebuiltTo(now);
      return { ok: true, backgrounds: w.backgrounds() };
    }
    w.timelineDue = true;
    this.replayHere();
    return { ok: true, backgrounds: w.backgrounds() };
  }
}
