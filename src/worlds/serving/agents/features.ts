import { MODEL_IDS } from '../engine/models';
import { BATCH_SIZES, INSTANCE_COUNTS, type ModelAction, type ModelObservation, type ModelSlotStats, type ServingObservation } from '../engine/scheduler';
import { INSTANCE_OVERHEAD_MB } from '../engine/models';

/**
 * The learners' view of the serving world: BCEdge §IV-B1's state, action and reward as
 * numbers. One decision per model per slot, by one network shared by all models (the
 * model type is part of the state, (I)).
 *
 * State s_t of model m (STATE_SIZE numbers, each scaled to about [0, 1]):
 * - (I) model type: one-hot over Table IV's six models;
 * - (II) input type (image / audio) one-hot, input shape as log10 of the input elements / 6
 *   (times the queued requests' mean class scale);
 * - (III) the SLO of the most urgent queued request / 150 ms (the model's when none);
 * - (IV) available resources: free memory share, free GPU share, running batches / 16;
 * - (V) request queue: log(1 + queue length) / 5, slack of the most urgent request / SLO
 *   (clamped to [−1, 1]), last slot's arrivals log(1 + n) / 4 and violation share, and
 *   the arrivals of all models log(1 + n) / 6 (the load the others put on the device), n per
 *   slot or per second of it (`stateRates`);
 * - the action in force (batch-size index / 7, instance index / 7) and last slot's
 *   utility / 5 — the profiler's feedback (§IV-E) that lets the policy correct itself;
 * - with `slotLength` (the lane's `stateSlot`, STATE_SIZE + 1 numbers): the length of the
 *   model's last slot, log10(ms) / 4 — how long its decisions last (Eq. 1's b·SLO/m_c, 7 ms to
 *   17 s, or the fixed slot), which tells one reading of the slot from the other (an agent
 *   trained on one did not carry to the other: README, "Training").
 *
 * Action: one categorical over the joint grid (§IV-B1: |A| = M × N), index
 * a = i_b · N + i_mc with b = BATCH_SIZES[i_b], m_c = INSTANCE_COUNTS[i_mc].
 */
export const STATE_SIZE = 21;

/** The state's size with the slot's length (`slotLength`) or without it (the 21 numbers of BCEdge §IV-B1 above). */
export function stateSize(slotLength: boolean): number {
  return STATE_SIZE + (slotLength ? 1 : 0);
}

/** How `encodeState` writes a state: arrivals per second of the slot (`rates`, see `perSlot`), and the slot's length (`slotLength`). */
export interface StateOptions {
  readonly rates?: boolean;
  readonly slotLength?: boolean;
}
export const ACTION_COUNT = BATCH_SIZES.length * INSTANCE_COUNTS.length;

export function actionOf(index: number): ModelAction {
  return { batchSize: BATCH_SIZES[Math.floor(index / INSTANCE_COUNTS.length)]!, instances: INSTANCE_COUNTS[index % INSTANCE_COUNTS.length]! };
}

export function indexOf(action: ModelAction): number {
  const bi = BATCH_SIZES.indexOf(action.batchSize);
  const ni = INSTANCE_COUNTS.indexOf(action.instances);
  if (bi < 0 || ni < 0) throw new RangeError(`(b=${action.batchSize}, m_c=${action.instances}) is not on the action grid`);
  return bi * INSTANCE_COUNTS.length + ni;
}

/** Nearest grid index of a value (batch sizes that are not powers of two). */
function nearestIndex(grid: readonly number[], value: number): number {
  let best = 0;
  for (let i = 1; i < grid.length; i++) if (Math.abs(grid[i]! - value) < Math.abs(grid[best]! - value)) best = i;
  return best;
}

/**
 * Per second of its slot (`rates`, the lane's `stateRates`) or per slot (the earlier reading):
 * how a slot's arrivals enter the state. Under Eq. 1 a model's slot lasts b·SLO/m_c, from a few
 * ms to seconds, so a count per slot tells the load and the action in force apart badly (a
 * learner trained so kept b = 1 at 60 rps a model); a rate means the same under every slot
 * reading. Under the fixed slot of 1 s the two are the same numbers.
 */
function perSlot(slot: ModelSlotStats, rates: boolean): number {
  return rates && slot.seconds !== undefined && slot.seconds > 0 ? slot.arrivals / slot.seconds : slot.arrivals;
}

/** Writes model `m`'s state into `out` at `offset` (`stateSize(options.slotLength)` numbers). */
export function encodeState(observation: ServingObservation, m: number, out: Float32Array, offset: number, options: StateOptions = {}): void {
  const rates = options.rates === true;
  const o: ModelObservation = observation.models[m]!;
  out.fill(0, offset, offset + stateSize(options.slotLength === true));
  let k = offset;
  const type = MODEL_IDS.indexOf(o.model);
  out[k + type] = 1;
  k += MODEL_IDS.length;
  out[k + (o.profile.inputType === 'image' ? 0 : 1)] = 1;
  k += 2;
  // (II) and (III) are the queued requests' own: their mean input size (request classes)
  // and the SLO of the most urgent one (per-request SLOs). Without classes and jitter they
  // are the model's Table IV values, as before they existed.
  const inputBytes = o.profile.inputShape.reduce((p, d) => p * d, 1) * (o.inputScaleMean ?? 1);
  out[k++] = Math.log10(Math.max(1, inputBytes)) / 6;
  out[k++] = (o.headSloMs ?? o.sloMs) / 150;
  out[k++] = Math.max(0, observation.availableMemoryMb) / observation.memoryMb;
  out[k++] = observation.availableCompute;
  out[k++] = observation.runningBatches / 16;
  out[k++] = Math.log1p(o.queueLength) / 5;
  out[k++] = Math.max(-1, Math.min(1, o.oldestSlackMs / o.sloMs));
  const last = o.lastSlot;
  out[k++] = last === null ? 0 : Math.log1p(perSlot(last, rates)) / 4;
  out[k++] = last === null || last.arrivals + last.completed === 0 ? 0 : Math.min(1, last.violations / Math.max(1, last.arrivals));
  let all = 0;
  for (const other of observation.models) all += other.lastSlot === null ? 0 : perSlot(other.lastSlot, rates);
  out[k++] = Math.log1p(all) / 6;
  out[k++] = nearestIndex(BATCH_SIZES, o.batchSize) / (BATCH_SIZES.length - 1);
  out[k++] = nearestIndex(INSTANCE_COUNTS, o.instances) / (INSTANCE_COUNTS.length - 1);
  out[k] = last?.utility === null || last === null ? 0 : last.utility / 5;
  if (options.slotLength === true) out[k + 1] = last === null || last.seconds === undefined ? 0 : Math.log10(Math.max(1, last.seconds * 1000)) / 4;
}

/** Memory one instance of the model holds, MB (weights + per-instance overhead, models.ts). */
export function instanceMemoryMb(o: ModelObservation): number {
  return o.profile.weightsMb + INSTANCE_OVERHEAD_MB;
}

/**
 * The memory mask (§IV-B1 with §I's overflow): action (b, m_c) of model m is allowed when
 * the memory that does not move (reserved + background) plus the other models' instances
 * (as decided so far in this slot, with their batches) plus m_c instances of m each running a batch of b fits
 * in the platform's memory. (1, 1) is always allowed, so the mask is never empty.
 */
export function memoryMask(observation: ServingObservation, m: number, decided: readonly ModelAction[], out: Uint8Array, offset: number): void {
  let others = observation.staticMemoryMb;
  observation.models.forEach((o, j) => {
    if (j === m) return;
    const chosen = decided[j];
    // A model already decided in this slot counts with the batches its instances will run (the joint mask).
    others += chosen === undefined ? o.instances * instanceMemoryMb(o) : chosen.instances * (instanceMemoryMb(o) + chosen.batchSize * o.profile.activationMbPerSample);
  });
  const self = observation.models[m]!;
  const perInstance = instanceMemoryMb(self);
  for (let a = 0; a < ACTION_COUNT; a++) {
    const { batchSize, instances } = actionOf(a);
    const need = others + instances * (perInstance + batchSize * self.profile.activationMbPerSample);
    out[offset + a] = need <= observation.memoryMb || a === 0 ? 1 : 0;
  }
}
