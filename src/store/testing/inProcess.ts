import type { Frame } from '../../worker/protocol';
import { PipelineSession } from '../../worker/session';
import { createLabStore, type LabStore, type SimClient } from '../labStore';
import type { AskToStart } from '../longRun';

/** The lab store wired to a pipeline session in the same thread (the worker's code, without the worker), with a manual clock. */
export function inProcessLab(ask?: AskToStart): { readonly store: LabStore; readonly session: PipelineSession } {
  let listener: ((frame: Frame) => void) | null = null;
  const session = new PipelineSession({ now: () => 0, schedule: () => undefined, emit: (frame) => listener?.(frame) });
  const client: SimClient = {
    subscribe: async (onFrame) => {
      listener = onFrame;
    },
    load: async (s) => session.load(s),
    play: async () => session.play(),
    pause: async () => session.pause(),
    step: async (n) => session.step(n),
    reset: async () => session.reset(),
    setSpeed: async (speed) => session.setSpeed(speed),
    addEvent: async (ep, mode) => session.addEvent(ep, mode),
    removeEvent: async (id) => session.removeEvent(id),
    setLaneParameter: async (lane, name, value) => session.setLaneParameter(lane, name, value),
    setDetectionThreshold: async (t) => session.setDetectionThreshold(t),
    currentScenario: async () => session.currentScenario(),
    seek: async (query, step) => session.seek(query, step),
    stepAlgorithm: async (direction) => session.stepAlgorithm(direction),
    setTraceLane: async (lane) => session.setTraceLane(lane),
  };
  return { store: createLabStore(client, () => 0, ask), session };
}
