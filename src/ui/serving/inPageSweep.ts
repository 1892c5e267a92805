import { isLearningScheduler, SERVING_SCHEDULERS, type ServingSchedulerId } from '../../schedulers/serving/registry';

/**
 * Whether the page's own Fig. 15 sweep (on the page's thread) runs a lane: not the learners
 * (TensorFlow.js runs only in the serving worker) and not the reference lanes (their search
 * re-runs the trace tens to thousands of times: it belongs in the worker, which shows its
 * progress).
 */
export function sweptInPage(scheduler: ServingSchedulerId): boolean {
  return !isLearningScheduler(scheduler) && SERVING_SCHEDULERS[scheduler].reference !== true;
}

/** The Fig. 15 caption when some lanes are left out of the page's sweep (undefined when none is). */
export function notSweptCaption(labels: readonly string[]): string | undefined {
  if (labels.length === 0) return undefined;
  const one = labels.length === 1;
  return `Computed in this page, where TensorFlow.js does not run and the oracles’ searches would hold the page: the lane${one ? '' : 's'} ${labels.join(', ')} ${one ? 'is' : 'are'} not swept, only the others.`;
}
