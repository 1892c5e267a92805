import { laneColour } from '../../../charts/palette';
import { createSlotLines, type SlotLine } from './slotLinesChart';
import { finiteExtent, plottable } from '../../../charts/pointSampling';
import { mountDataChart, type ChartOptions, type DataChart } from '../../../charts/runtime';

/**
 * What the temperature chart draws: SAC's α per slot for each learning lane that has one
 * (BCEdge; TAC runs at α = 0 and PPO and DDQN have none: their values are NaN and they are
 * left out). `slot[i]` ascending, `temperature[i]` the mean α over the point's slots.
 */
export interface TemperatureData {
  readonly lanes: readonly {
    readonly label: string;
    readonly index?: number;
    readonly slot: ArrayLike<number>;
    readonly temperature: ArrayLike<number>;
  }[];
}

/** Ratio max/min of α above which the y axis turns logarithmic (α is tuned in log space). */
export const TEMPERATURE_LOG_SPAN = 20;

/** Whether a lane has a temperature to draw (some finite α above 0). */
export function hasTemperature(values: ArrayLike<number>): boolean {
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (plottable(v) && v > 0) return true;
  }
  return false;
}

/** Log y axis when the positive α values span more than TEMPERATURE_LOG_SPAN. */
export function temperatureLog(lanes: readonly ArrayLike<number>[]): boolean {
  const values: number[] = [];
  for (const l of lanes) for (let i = 0; i < l.length; i++) if (l[i]! > 0) values.push(l[i]!);
  const [lo, hi] = finiteExtent(values);
  return plottable(lo) && hi / lo > TEMPERATURE_LOG_SPAN;
}

/**
 * SAC's temperature α over scheduling slots (BCEdge tunes it automatically towards a target
 * entropy, Eq. 12), one line per lane with an α in its lane colour; logarithmic when α spans
 * more than TEMPERATURE_LOG_SPAN. The SVG's `data-points` is the number of points drawn,
 * `data-lines` the number of lanes drawn.
 */
export function createTemperatureChart(host: HTMLElement, options: ChartOptions = {}): DataChart<TemperatureData> {
  const height = options.height ?? 300;
  const chart = createSlotLines(host, 'chart-temperature', height);

  const draw = (data: TemperatureData, width: number) => {
    const shown = data.lanes.map((lane, l) => ({ lane, l })).filter(({ lane }) => hasTemperature(lane.temperature));
    const log = temperatureLog(shown.map(({ lane }) => lane.temperature));
    const lines: SlotLine[] = shown.map(({ lane, l }) => ({
      key: `lane-${lane.index ?? l}`,
      label: lane.label,
      colour: laneColour(lane.index ?? l),
      slot: lane.slot,
      value: lane.temperature,
    }));
    const none = data.lanes.length === 0 ? 'No learning lane' : 'No temperature: only BCEdge (SAC) tunes α (TAC runs at α = 0; PPO and DDQN have none)';
    chart.draw(
      lines,
      {
        xLabel: 'scheduling slot',
        yLabel: `temperature α${log ? ' (log scale)' : ''}`,
        log,
        notes: [],
        empty: lines.length === 0 ? none : 'No temperature yet: run the serving simulation',
        description: `SAC temperature α per slot of ${lines.length} lane${lines.length === 1 ? '' : 's'}.`,
      },
      width,
    );
  };

  return mountDataChart<TemperatureData>(host, chart.frame.scaffold.root.node()!, draw);
}
