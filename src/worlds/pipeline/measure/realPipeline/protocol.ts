/**
 * Messages between the real pipeline's coordinator and its stage workers (ARCHITECTURE §2,
 * the real backend): one worker per execution place, in the page (Web Workers) and in the
 * command line (worker threads) alike. Activations travel as transferable buffers.
 */
import type { UnitSource } from '../units';

/** What leaves one stage for the next: the feature map, and inside a ResNet-50 block the block input its shortcut reads. */
export interface Activation {
  readonly x: Float32Array;
  readonly shape: readonly number[];
  readonly block: Float32Array | null;
  readonly blockShape: readonly number[] | null;
}

export type StageRequest =
  /**
   * Loads tfjs. With `resident`, builds and warms up, once for the whole run, the units this
   * stage may receive (`from`, `to`: the units of its first configuration, kept first), nearest
   * that range first, while the tfjs memory stays within `budgetBytes`: a move of a resident
   * unit is then an ownership change. Units left out (the budget ran out) are built by `hold`.
   */
  | { readonly type: 'init'; readonly source: UnitSource; readonly seed: number; readonly resident?: { readonly from: number; readonly to: number; readonly budgetBytes: number } }
  /** Hold units [from, to): build the ones it lacks (same seed: the same units), free the others that are not resident. */
  | { readonly type: 'hold'; readonly from: number; readonly to: number }
  /** Run one query through the units held, in order. */
  | { readonly type: 'run'; readonly query: number; readonly input: Activation }
  | { readonly type: 'close' };

export type StageReply =
  /** tfjs is up; the resident units built (their count and the tfjs bytes they take, 0 without `resident`). */
  | { readonly type: 'ready'; readonly backend: string; readonly residentUnits: number; readonly residentBytes: number }
  /** Units built and freed by a `hold`, and the wall time it took (the reconfiguration's cost on this stage). */
  | { readonly type: 'held'; readonly from: number; readonly to: number; readonly built: number; readonly freed: number; readonly buildMs: number; readonly tensors: number }
  /** The query's output and the stage's service time t_i (compute and read-back), ms. */
  | { readonly type: 'ran'; readonly query: number; readonly computeMs: number; readonly output: Activation }
  | { readonly type: 'error'; readonly message: string };

/** The buffers of an activation, to transfer rather than copy. */
export function activationBuffers(a: Activation): ArrayBuffer[] {
  const buffers = [a.x.buffer as ArrayBuffer];
  if (a.block !== null && a.block.buffer !== a.x.buffer) buffers.push(a.block.buffer as ArrayBuffer);
  return buffers;
}
