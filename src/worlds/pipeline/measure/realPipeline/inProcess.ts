/**
 * Stage workers in this thread (tests and a single-threaded fallback): each "worker" is a
 * stage program answering on a later turn of the event loop, so the coordinator sees the
 * same asynchrony as with real workers. Stages then share one core by construction.
 */
import type { Tf } from '../../../../lib/tf';
import type { StageReply, StageRequest } from './protocol';
import type { StagePort } from './pipeline';
import { createStageProgram } from './stage';

/** Options of an in-process stage: an extra delay before each `ran` reply (a slower stage), ms. */
export interface InProcessStageOptions {
  readonly delayMs?: number;
  /** Sees every request before it is handled (tests). */
  readonly onRequest?: (request: StageRequest) => void;
  /** Reports this stage time for a query instead of the one measured (a scripted trace, tests). */
  readonly reportMs?: (query: number) => number;
}

export function inProcessStage(tf: Tf, now: () => number, options: InProcessStageOptions = {}): StagePort {
  const program = createStageProgram(tf, now);
  let listener: ((reply: StageReply) => void) | null = null;
  let closed = false;
  return {
    post(request) {
      options.onRequest?.(request);
      const delay = request.type === 'run' ? (options.delayMs ?? 0) : 0;
      setTimeout(() => {
        if (closed) return;
        const handled = program.handle(request);
        const reply = handled !== null && handled.type === 'ran' && options.reportMs !== undefined ? { ...handled, computeMs: options.reportMs(handled.query) } : handled;
        if (reply !== null) listener?.(reply);
      }, delay);
    },
    listen(onReply) {
      listener = onReply;
    },
    terminate() {
      closed = true;
      program.handle({ type: 'close' });
    },
  };
}
