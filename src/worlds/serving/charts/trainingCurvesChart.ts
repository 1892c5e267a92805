import { laneColour } from '../../../charts/palette';
import { createSlotLines, type SlotLine } from './slotLinesChart';
import { plottable } from '../../../charts/pointSampling';
import { mountDataChart, type ChartOptions, type DataChart } from '../../../charts/runtime';

/**
 * What the BCEdge Figure 10 chart draws: each lane's reward (the utility, Eq. 6) per
 * scheduling slot. `slot[i]` is the slot index of point i (ascending; points may merge
 * several slots), `reward[i]` its mean reward (NaN: none). Learning lanes come from their
 * learning curve, the others (GA, fixed, DeepRT) from their utility series; `learning: false`
 * lanes are dashed. Lane `l` is coloured `laneColour(lanes[l].index ?? l)`.
 */
export interface TrainingCurvesData {
  readonly lanes: readonly {
    readonly label: string;
    readonly index?: number;
    readonly learning: boolean;
    readonly slot: ArrayLike<number>;
    readonly reward: ArrayLike<number>;
    /** What the legend adds after the label (default: "no learning" for a lane that does not learn). */
    readonly note?: string;
  }[];
  /** Width of the moving average, slots (default: `smoothingWindow` of the last slot). */
  readonly windowSlots?: number;
  /** Length of a slot, s (for the x axis label). */
  readonly slotSeconds?: number;
}

const NICE_WINDOWS = [1, 2, 5, 10, 20, 50, 100, 200, 500] as const;

/**
 * The moving average's width for a run that has reached `lastSlot`: about a thirtieth of the
 * run, rounded down to 1, 2, 5 × 10^k (at least 1, at most 500 slots), so that a learner's
 * trend shows through the slot-to-slot noise of the utility without hiding its convergence.
 */
export function smoothingWindow(lastSlot: number): number {
  if (!plottable(lastSlot) || lastSlot <= 0) return 1;
  const target = lastSlot / 30;
  let best: number = NICE_WINDOWS[0];
  for (const w of NICE_WINDOWS) if (w <= target) best = w;
  return best;
}

/**
 * Trailing moving average over slots: point i becomes the mean of the finite values of the
 * points whose slot lies in (slot[i] − windowSlots, slot[i]] — a window in slots, not in
 * points, so lines downsampled with different strides are smoothed alike. NaN where the
 * window holds no finite value. `slot` must be ascending.
 */
export function movingAverage(slot: ArrayLike<number>, value: ArrayLike<number>, windowSlots: number): Float64Array {
  const n = Math.min(slot.length, value.length);
  const out = new Float64Array(n);
  const w = Math.max(1, windowSlots);
  let start = 0;
  let sum = 0;
  let count = 0;
  for (let i = 0; i < n; i++) {
    const v = value[i]!;
    if (plottable(v)) {
      sum += v;
      count++;
    }
    while (start <= i && slot[start]! <= slot[i]! - w) {
      const old = value[start]!;
      if (plottable(old)) {
        sum -= old;
        count--;
      }
      start++;
    }
    out[i] = count > 0 ? sum / count : Number.NaN;
  }
  return out;
}

/** The last slot of any lane (0 when none). */
function lastSlotOf(data: TrainingCurvesData): number {
  let last = 0;
  for (const l of data.lanes) {
    const s = l.slot[l.slot.length - 1];
    if (s !== undefined && plottable(s) && s > last) last = s;
  }
  return last;
}

/**
 * BCEdge Figure 10: training curves, the reward (utility) per slot of every lane, smoothed
 * by a trailing moving average (the legend says over how many slots), learning lanes solid
 * and the others dashed. The SVG's `data-points` is the number of points drawn, `data-window`
 * the moving average's width in slots.
 */
export function createTrainingCurvesChart(host: HTMLElement, options: ChartOptions = {}): DataChart<TrainingCurvesData> {
  const height = options.height ?? 300;
  const chart = createSlotLines(host, 'chart-training-curves', height);

  const draw = (data: TrainingCurvesData, width: number) => {
    const window = Math.max(1, Math.round(data.windowSlots ?? smoothingWindow(lastSlotOf(data))));
    const lines: SlotLine[] = data.lanes.map((lane, l) => ({
      key: `lane-${lane.index ?? l}`,
      label: lane.note !== undefined ? `${lane.label} (${lane.note})` : lane.learning ? lane.label : `${lane.label} (no learning)`,
      colour: laneColour(lane.index ?? l),
      dashed: !lane.learning,
      slot: lane.slot,
      value: movingAverage(lane.slot, lane.reward, window),
    }));
    const slotText = data.slotSeconds === undefined ? '' : ` (${data.slotSeconds} s each)`;
    const smoothing = window === 1 ? 'not smoothed (moving average over 1 slot)' : `moving average over the last ${window} slots`;
    chart.draw(
      lines,
      {
        xLabel: `scheduling slot${slotText}`,
        yLabel: 'reward = utility (smoothed)',
        log: false,
        notes: [`lines: ${smoothing}; dashed: lanes that do not learn`],
        empty: 'No rewards yet: run the serving simulation',
        description: `Training curves: reward (utility) per slot of ${data.lanes.length} lanes, ${smoothing}.`,
      },
      width,
    );
    chart.frame.svg.attr('data-window', window);
  };

  return mountDataChart<TrainingCurvesData>(host, chart.frame.scaffold.root.node()!, draw);
}
