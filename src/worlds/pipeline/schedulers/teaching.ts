/**
 * What the teaching view says about a rebalancing: the pseudocode of ODIN's Algorithm 1
 * (numbered as printed in the paper) and of LLS (the paper describes LLS in words only,
 * §3.3; the lab numbers its own pseudocode) and the configuration a step shows on the board;
 * the narration of every step and the watch list are `narration.ts`, loaded when a step is
 * first shown (not on the page's first load, ARCHITECTURE §7a′). Stages are numbered from 1 here, as the board numbers its
 * execution places; the algorithms count from 0 inside.
 */
import type { AlgorithmStep } from './algorithmTrace';

export interface PseudocodeLine {
  readonly line: number;
  /** Indentation level. */
  readonly depth: number;
  readonly text: string;
  /** The paper's comment (▷ …), if any. */
  readonly comment?: string;
}

/** ODIN Algorithm 1 as printed (ODIN §3.2), lines 1–35. */
export const ODIN_PSEUDOCODE: readonly PseudocodeLine[] = [
  { line: 1, depth: 0, text: 'Input: C, α', comment: 'C = pipeline configuration' },
  { line: 2, depth: 0, text: 'T ← throughput(C)', comment: 'T = throughput of the pipeline' },
  { line: 3, depth: 0, text: 'C_opt ← C', comment: 'Optimal pipeline configuration' },
  { line: 4, depth: 0, text: 'γ ← 0', comment: 'counter variable' },
  { line: 5, depth: 0, text: 'while γ < α do' },
  { line: 6, depth: 1, text: 'PS_affected ← get_index(max(t(C)))' },
  { line: 7, depth: 1, text: 'if γ = 0 then' },
  { line: 8, depth: 2, text: 'C[PS_affected + 1] += 1' },
  { line: 9, depth: 2, text: 'C[PS_affected − 1] += 1' },
  { line: 10, depth: 2, text: 'C[PS_affected] −= 2' },
  { line: 11, depth: 1, text: 'end if' },
  { line: 12, depth: 1, text: 'S_left ← sum(t(C[0], C[PS_affected]))' },
  { line: 13, depth: 1, text: 'S_right ← sum(t(C[PS_affected + 1], C[N]))' },
  { line: 14, depth: 1, text: 'if S_left < S_right then' },
  { line: 15, depth: 2, text: 'direction ← left' },
  { line: 16, depth: 1, text: 'else' },
  { line: 17, depth: 2, text: 'direction ← right' },
  { line: 18, depth: 1, text: 'end if' },
  { line: 19, depth: 1, text: 'PS_lightest ← get_index(t(C, PS_affected, direction))' },
  { line: 20, depth: 1, text: 'C[PS_affected] −= 1' },
  { line: 21, depth: 1, text: 'C[PS_lightest] += 1' },
  { line: 22, depth: 1, text: 'T_new ← throughput(C)' },
  { line: 23, depth: 1, text: 'if T_new < T then' },
  { line: 24, depth: 2, text: 'γ += 1' },
  { line: 25, depth: 1, text: 'else if T_new = T then' },
  { line: 26, depth: 2, text: 'C[PS_affected] −= 1' },
  { line: 27, depth: 2, text: 'C[PS_lightest] += 1' },
  { line: 28, depth: 2, text: 'γ += 1' },
  { line: 29, depth: 1, text: 'else' },
  { line: 30, depth: 2, text: 'γ ← 0' },
  { line: 31, depth: 2, text: 'T ← T_new' },
  { line: 32, depth: 2, text: 'C_opt ← C' },
  { line: 33, depth: 1, text: 'end if' },
  { line: 34, depth: 0, text: 'end while' },
  { line: 35, depth: 0, text: 'return C_opt' },
];

/**
 * LLS as the lab implements ODIN §3.3's description ("move the layers from the most utilized
 * to the least utilized stage recursively until the throughput starts decreasing"). The
 * numbering is the lab's: the paper prints no pseudocode for LLS.
 */
export const LLS_PSEUDOCODE: readonly PseudocodeLine[] = [
  { line: 1, depth: 0, text: 'T ← throughput(C)', comment: 'the detecting query' },
  { line: 2, depth: 0, text: 'for move ← 1 to L do', comment: 'at most L moves' },
  { line: 3, depth: 1, text: 'w_0 ← 0;  w_i ← w_{i−1} + t_{i−1} − t_i' },
  { line: 4, depth: 1, text: 'υ_i ← 1 − w_i / (w_i + t_i)' },
  { line: 5, depth: 1, text: 'PS_most ← get_index(max(υ));  PS_least ← get_index(min(υ))' },
  { line: 6, depth: 1, text: 'if PS_most = PS_least or C[PS_most] = 0 then break' },
  { line: 7, depth: 1, text: 'C_trial ← C;  C_trial[PS_most] −= 1;  C_trial[PS_least] += 1' },
  { line: 8, depth: 1, text: 'T_new ← throughput(C_trial)', comment: 'one query' },
  { line: 9, depth: 1, text: 'if T_new < T then break', comment: 'throughput starts decreasing' },
  { line: 10, depth: 1, text: 'C ← C_trial;  T ← T_new' },
  { line: 11, depth: 0, text: 'end for' },
  { line: 12, depth: 0, text: 'return C' },
];

/** The pseudocode of an algorithm. */
export function pseudocodeOf(algorithm: AlgorithmStep['algorithm']): readonly PseudocodeLine[] {
  return algorithm === 'odin' ? ODIN_PSEUDOCODE : LLS_PSEUDOCODE;
}

/** The configuration the board shows at a step: the trial being built or measured. */
export function stepConfiguration(step: AlgorithmStep): readonly number[] {
  if (step.algorithm === 'lls') return step.trialConfiguration ?? step.configuration;
  return step.configuration;
}
