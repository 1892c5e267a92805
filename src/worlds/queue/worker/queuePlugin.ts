import { parseWorldScenario } from '../../../scenario/parse';
import { BoundedSeries } from '../../../worker/boundedSeries';
import type { LiveFrame } from '../../../worker/liveProtocol';
import type { FrameContext, TimeTravel, WorldPlugin } from '../../../worker/worldPlugin';
import type { SessionTypes } from '../../../kit/worldTypes';
import type { QueueLaneRun, QueueSummary } from '../engine/queueRun';
import type { QueueScenario } from '../schema';
import { queueLaneRun, queueWorld } from '../world';

/**
 * The queue world's plugin behind the kit's `LiveSession` (ARCHITECTURE §7b, step 3), and its
 * frame: what a third world writes to play, step and travel in time. Position: simulated ms;
 * one point per simulated second (the requests waiting then); back in time by replay from 0.
 */

/** Simulated ms per point of a lane's series (before the bounded series doubles it). */
const POINT_MS = 1000;

interface QueuePoint {
  readonly timeMs: number;
  readonly waiting: number;
}
/** New points of a lane's series, as columns. */
export interface QueueChunk {
  readonly timeMs: Float64Array;
  readonly waiting: Float64Array;
}
export interface QueueLaneLive {
  readonly waiting: number;
  readonly busy: number;
}
export interface QueueFrame extends LiveFrame<{ readonly points: QueueChunk; readonly live: QueueLaneLive }, QueueSummary> {
  readonly timeMs: number;
  readonly furthest: number;
}
export interface QueueLaneInfo {
  readonly index: number;
  readonly scheduler: string;
}
interface QueueLoaded {
  readonly scenario: QueueScenario;
  readonly lanes: readonly QueueLaneInfo[];
}

/** The queue world's types as its session reads them (`SessionTypes`): no live edits, no checkpoints (it replays). */
export interface QueueSessionTypes extends SessionTypes {
  readonly scenario: QueueScenario;
  readonly loaded: QueueLoaded;
  readonly frame: QueueFrame;
  readonly edit: never;
  readonly checkpoint: never;
}

/** The queue world's plugin: its lanes (`QueueLaneRun`), run a point at a time. */
export class QueuePlugin implements WorldPlugin<QueueSessionTypes> {
  readonly unitsPerSpeedSecond = 1000;
  readonly integral = false;
  readonly initialSpeed = 10;
  readonly speedLimits = { min: 0.1, max: 100_000 };
  readonly positionField = 'timeMs';
  readonly positionRule = 'a number of simulated ms';
  readonly buildErrorPath = 'queue.lanes';
  readonly timeTravel: TimeTravel<never> = { by: 'replay', rebuild: () => this.build() };
  private scenario: QueueScenario | null = null;
  private runs: QueueLaneRun[] = [];
  private series: BoundedSeries<QueuePoint>[] = [];
  private nextPointMs = POINT_MS;

  attach(): void {}
  parse(input: unknown) {
    return parseWorldScenario(queueWorld, input);
  }
  start(scenario: QueueScenario): void {
    this.scenario = scenario;
    this.build();
  }
  private build(): void {
    const lanes = this.current().queue.lanes;
    this.runs = lanes.map((_, k) => queueLaneRun(this.current(), k));
    this.series = lanes.map(() => new BoundedSeries<QueuePoint>((a, b) => ({ timeMs: b.timeMs, waiting: (a.waiting + b.waiting) / 2 })));
    this.nextPointMs = POINT_MS;
  }
  private current(): QueueScenario {
    if (this.scenario === null) throw new TypeError('no queue scenario is loaded');
    return this.scenario;
  }
  position(): number {
    return this.runs[0]?.timeMs ?? 0;
  }
  end(): number {
    return this.current().queue.durationS * 1000;
  }
  advanceToward(target: number): void {
    const next = Math.min(target, this.nextPointMs, this.end());
    for (const run of this.runs) run.advanceTo(next);
    if (next < this.nextPointMs) return;
    this.runs.forEach((run, k) => this.series[k]!.push({ timeMs: next, waiting: run.queue.waiting }));
    this.nextPointMs += POINT_MS * (this.series[0]?.stride ?? 1);
  }
  applyEdit(): void {}
  forgetAfter(): void {}
  jumped(): void {
    for (const s of this.series) s.resend();
  }
  stepped(): void {}
  loaded(): QueueLoaded {
    return { scenario: this.current(), lanes: this.current().queue.lanes.map((lane, index) => ({ index, scheduler: lane.scheduler })) };
  }
  currentScenario(): QueueScenario {
    return this.current();
  }
  frameLanes(context: FrameContext) {
    const taken = this.series.map((s) => s.take());
    const lanes = taken.map(({ points }, k) => {
      const chunk = { timeMs: Float64Array.from(points, (p) => p.timeMs), waiting: Float64Array.from(points, (p) => p.waiting) };
      context.transfer.push(chunk.timeMs.buffer as ArrayBuffer, chunk.waiting.buffer as ArrayBuffer);
      return { points: chunk, live: this.runs[k]!.queue };
    });
    return { lanes, replace: taken.some((t) => t.replace), stride: POINT_MS * (this.series[0]?.stride ?? 1) };
  }
  summaries(): QueueSummary[] {
    return this.runs.map((run) => run.summary());
  }
  frameExtra(context: FrameContext) {
    return { timeMs: this.position(), furthest: context.furthest };
  }
}
