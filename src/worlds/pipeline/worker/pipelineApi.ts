/**
 * The pipeline world's worker API (ARCHITECTURE §1): the generic calls (`liveApi`) and the
 * pipeline's own, each answered by the session, which checks every argument (the worker is a
 * door). Built here, apart from `pipelineWorker.ts`'s `expose`, so that tests call the very
 * object the page talks to, in Node.
 */
import type { InterferenceModeId } from '../engine/profiles/types';
import { liveApi, liveEdits } from '../../../worker/liveWorker';
import type { PipelineSession } from './pipelineSession';
import type { PipelineFrame, PipelineApi } from './pipelineProtocol';

/** The API a pipeline worker exposes over `session`; `frames` registers the page's frame callback. */
export function pipelineApi(session: PipelineSession, frames: { subscribe(callback: (frame: PipelineFrame) => void): void }): PipelineApi {
  return {
    ...liveApi(session, frames),
    seek: (query: unknown, step?: unknown) => session.seek(query, step),
    ...liveEdits(session, {
      addEvent: (executionPlace: number, mode: InterferenceModeId) => session.addEvent(executionPlace, mode),
      removeEvent: (id: number) => session.removeEvent(id),
      setLaneParameter: (lane: number, name: string, value: number) => session.setLaneParameter(lane, name, value),
      setDetectionThreshold: (threshold: number) => session.setDetectionThreshold(threshold),
    }),
    stepAlgorithm: (direction: 1 | -1) => session.stepAlgorithm(direction),
    setTraceLane: (lane: number) => session.setTraceLane(lane),
  };
}
