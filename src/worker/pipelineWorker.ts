/// <reference lib="webworker" />
/**
 * The pipeline world's worker: a thin comlink adapter over `PipelineSession` — the generic
 * calls (`liveWorker.ts`) and the pipeline's own.
 */
import { expose } from 'comlink';
import type { InterferenceModeId } from '../engine/profiles/types';
import type { Frame, SimApi } from './protocol';
import { liveApi, workerHost } from './liveWorker';
import { PipelineSession } from './pipelineSession';

const frames = workerHost<Frame>();
const session = new PipelineSession(frames.host);

const api: SimApi = {
  ...liveApi(session, frames),
  seek: (query: unknown, step?: unknown) => session.seek(query, step),
  addEvent: (executionPlace: number, mode: InterferenceModeId) => session.addEvent(executionPlace, mode),
  removeEvent: (id: number) => session.removeEvent(id),
  setLaneParameter: (lane: number, name: string, value: number) => session.setLaneParameter(lane, name, value),
  setDetectionThreshold: (threshold: number) => session.setDetectionThreshold(threshold),
  stepAlgorithm: (direction: 1 | -1) => session.stepAlgorithm(direction),
  setTraceLane: (lane: number) => session.setTraceLane(lane),
};

export type SimWorkerApi = typeof api;
expose(api);
