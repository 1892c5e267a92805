/**
 * The pipeline lab's parts that are not on its first screen (ARCHITECTURE §7a′): at 1440 × 900
 * the first screen holds the board, the throughput chart and, in the dock, the lanes and the
 * algorithm panel. The time line and the chart grid under the main chart and the dock's events,
 * scenario and assumptions panels load when they near the viewport or the browser is first idle
 * (`shell/deferred.tsx`); their lessons' texts when the list opens, a lesson starts or the
 * browser is idle. Same names and props as the parts themselves.
 */
import { deferred, loadOnce } from '../../../ui/shell/deferred';

export const PipelineCharts = deferred('charts', () => import('./PipelineCharts').then((m) => m.PipelineCharts), { minHeight: 640 });
export const PipelineTimeline = deferred('timeline', () => import('./PipelineTimeline').then((m) => m.PipelineTimeline), { minHeight: 150 });
export const EventsList = deferred('events', () => import('./EventsList').then((m) => m.EventsList), { minHeight: 48 });
export const ScenarioPanel = deferred('scenario', () => import('./ScenarioPanel').then((m) => m.ScenarioPanel), { minHeight: 220 });
export const AssumptionsPanel = deferred('assumptions', () => import('./AssumptionsPanel').then((m) => m.AssumptionsPanel), { minHeight: 220 });
/** The pipeline lessons, for the lessons bar. */
export const pipelineLessons = loadOnce(() => import('../lessons').then((m) => m.PIPELINE_LESSONS));
