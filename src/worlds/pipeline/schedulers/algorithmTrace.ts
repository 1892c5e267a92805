import type { TraceSink } from '../engine/scheduler';
import type { LlsStep } from './lls';
import type { OdinStep } from './odin';

/** One line-by-line step of a rebalancing algorithm, tagged with the algorithm. */
export type AlgorithmStep = ({ readonly algorithm: 'odin' } & OdinStep) | ({ readonly algorithm: 'lls' } & LlsStep);

/** Where the lab collects the steps of every algorithm that has a teaching trace. */
export type AlgorithmTrace = TraceSink<AlgorithmStep>;

/** A sink for one algorithm's steps that tags them and forwards them to `trace`. */
export function tagged<S>(trace: AlgorithmTrace, algorithm: AlgorithmStep['algorithm']): TraceSink<S> {
  return {
    get enabled() {
      return trace.enabled;
    },
    push: (step: S) => trace.push({ algorithm, ...step } as unknown as AlgorithmStep),
  };
}
