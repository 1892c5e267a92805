/// <reference lib="webworker" />
/**
 * The simulation worker: a thin comlink adapter over `PipelineSession`. Frames go to the
 * page through a callback the page registers, with their typed arrays transferred; the
 * session never waits for the page.
 */
import { expose, transfer } from 'comlink';
import type { InterferenceModeId } from '../engine/profiles/types';
import type { Frame, SimApi, Speed } from './protocol';
import { PipelineSession } from './pipelineSession';

let onFrame: ((frame: Frame) => void) | null = null;

const session = new PipelineSession({
  now: () => performance.now(),
  schedule: (fn, delayMs) => void setTimeout(fn, delayMs),
  emit: (frame, buffers) => {
    if (onFrame !== null) void onFrame(transfer(frame, buffers));
  },
});

const api: SimApi = {
  /** Registers the page's frame callback (wrapped with comlink's `proxy` by the page). */
  subscribe: (callback: (frame: Frame) => void) => {
    onFrame = callback;
  },
  ping: () => true as const,
  load: (scenario: unknown) => session.load(scenario),
  play: () => session.play(),
  pause: () => session.pause(),
  step: (n: number) => session.step(n),
  reset: () => session.reset(),
  setSpeed: (speed: Speed) => session.setSpeed(speed),
  addEvent: (executionPlace: number, mode: InterferenceModeId) => session.addEvent(executionPlace, mode),
  removeEvent: (id: number) => session.removeEvent(id),
  setLaneParameter: (lane: number, name: string, value: number) => session.setLaneParameter(lane, name, value),
  setDetectionThreshold: (threshold: number) => session.setDetectionThreshold(threshold),
  currentScenario: () => session.currentScenario(),
  seek: (query: unknown, step?: unknown) => session.seek(query, step),
  stepAlgorithm: (direction: 1 | -1) => session.stepAlgorithm(direction),
  setTraceLane: (lane: number) => session.setTraceLane(lane),
};

export type SimWorkerApi = typeof api;
expose(api);
