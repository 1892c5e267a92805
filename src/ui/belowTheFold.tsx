/**
 * The pipeline lab's parts below the first screen (at 1440 × 900 the lanes and the start of
 * the algorithm panel are on it; the workloads, the scenario, the assumptions and the time line
 * below), loaded when they near the viewport or the browser is first idle (`deferred.tsx`,
 * issue 12 part 6). Same names and props as the parts themselves.
 */
import { deferred } from './deferred';

export const EventsList = deferred('events', () => import('./EventsList').then((m) => m.EventsList), 48);
export const ScenarioPanel = deferred('scenario', () => import('./ScenarioPanel').then((m) => m.ScenarioPanel), 220);
export const AssumptionsPanel = deferred('assumptions', () => import('./AssumptionsPanel').then((m) => m.AssumptionsPanel), 220);
export const Timeline = deferred('timeline', () => import('./Timeline').then((m) => m.Timeline), 96);
