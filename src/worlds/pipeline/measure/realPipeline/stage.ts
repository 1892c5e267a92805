/**
 * What one stage worker of the real pipeline does (ARCHITECTURE §2, the real backend): it
 * holds a contiguous run of the network's units as tfjs layers, runs each query through
 * them and times it. Resident (the paper's system, ODIN §2, §3.1: one shared-memory machine
 * where a move hands layers over), it builds at start the units it may receive and a
 * reconfiguration only changes which of them it runs; otherwise (or for the units its memory
 * budget left out) a reconfiguration builds the units it receives (seeded weights: the same
 * units the other stage held) and frees those it gives away. The same program runs
 * in a Web Worker and in a Node worker thread; tfjs and the clock are passed in.
 */
import type { Tensor } from '@tensorflow/tfjs';
import type { Tf } from '../../../../lib/tf';
import { buildTfUnit, tfUnitPlans, type TfUnit, type TfUnitPlan } from '../units';
import { activationBuffers, type Activation, type StageReply, type StageRequest } from './protocol';

/** A stage's state and its message handler. */
export interface StageProgram {
  handle(request: StageRequest): StageReply | null;
  /** Units held, by index (tests). */
  readonly held: ReadonlyMap<number, TfUnit>;
}

/** Copies a tensor's values into a buffer of its own (so it can be transferred). */
function ownValues(t: Tensor): Float32Array {
  const values = t.dataSync() as Float32Array;
  return values.byteOffset === 0 && values.byteLength === values.buffer.byteLength ? values : values.slice();
}

export function createStageProgram(tf: Tf, now: () => number): StageProgram {
  let plans: readonly TfUnitPlan[] = [];
  let seed = 1;
  let from = 0;
  let to = 0;
  const held = new Map<number, TfUnit>();
  /** Units built at `init` for the whole run: never freed by `hold`, never rebuilt. */
  const resident = new Set<number>();
  /** Builds unit `index` and runs it once on zeros (the backend's kernel set-up and weight packing belong to the build, not to the first query). */
  const buildWarm = (index: number): TfUnit => {
    const unit = buildTfUnit(tf, plans, index, seed);
    const zeros = unit.inputShapes.map((shape) => tf.zeros([...shape]));
    const y = unit.run(zeros);
    y.dataSync();
    y.dispose();
    for (const z of zeros) z.dispose();
    return unit;
  };
  /**
   * Builds the units this stage may receive, [first, last) kept first then outward, while the
   * tfjs memory stays within the budget: a unit that would pass it is freed and the building
   * stops (the ones left are built on a move, as without residency).
   */
  const buildResident = (first: number, last: number, budgetBytes: number): { units: number; bytes: number } => {
    const order: number[] = [];
    for (let index = first; index < last; index += 1) order.push(index);
    for (let d = 1; first - d >= 0 || last - 1 + d < plans.length; d += 1) {
      if (last - 1 + d < plans.length) order.push(last - 1 + d);
      if (first - d >= 0) order.push(first - d);
    }
    const base = tf.memory().numBytes;
    for (const index of order) {
      if (held.has(index)) continue;
      const unit = buildWarm(index);
      if (tf.memory().numBytes - base > budgetBytes) {
        unit.dispose();
        break;
      }
      held.set(index, unit);
      resident.add(index);
    }
    return { units: resident.size, bytes: tf.memory().numBytes - base };
  };

  const hold = (nextFrom: number, nextTo: number): StageReply => {
    if (!(Number.isInteger(nextFrom) && Number.isInteger(nextTo) && nextFrom >= 0 && nextFrom <= nextTo && nextTo <= plans.length)) {
      return { type: 'error', message: `hold: units [${nextFrom}, ${nextTo}) are not a range of the network's ${plans.length}` };
    }
    const t0 = now();
    let freed = 0;
    for (const [index, unit] of held) {
      if ((index < nextFrom || index >= nextTo) && !resident.has(index)) {
        unit.dispose();
        held.delete(index);
        freed += 1;
      }
    }
    let built = 0;
    for (let index = nextFrom; index < nextTo; index += 1) {
      if (!held.has(index)) {
        // Not resident: built and warmed now, so the move pays for it.
        held.set(index, buildWarm(index));
        built += 1;
      }
    }
    from = nextFrom;
    to = nextTo;
    return { type: 'held', from, to, built, freed, buildMs: now() - t0, tensors: tf.memory().numTensors };
  };

  const run = (query: number, input: Activation): StageReply => {
    if (from === to) return { type: 'error', message: `run: query ${query} reached a stage that holds no units` };
    const t0 = now();
    let x: Tensor = tf.tensor(input.x, [...input.shape], 'float32');
    let block: Tensor | null = input.block === null || input.blockShape === null ? null : tf.tensor(input.block, [...input.blockShape], 'float32');
    for (let index = from; index < to; index += 1) {
      const unit = held.get(index)!;
      if (unit.role === 'blockStart') {
        // This unit's input is the block input its block's last unit adds back.
        block?.dispose();
        block = x;
        x = unit.run([x]);
      } else if (unit.role === 'blockEnd') {
        if (block === null) return { type: 'error', message: `run: unit ${unit.name} needs its block input, which did not arrive` };
        const y = unit.run([x, block]);
        x.dispose();
        block.dispose();
        block = null;
        x = y;
      } else {
        const y = unit.run([x]);
        x.dispose();
        x = y;
      }
    }
    const output: Activation = { x: ownValues(x), shape: x.shape, block: block === null ? null : ownValues(block), blockShape: block?.shape ?? null };
    x.dispose();
    block?.dispose();
    return { type: 'ran', query, computeMs: now() - t0, output };
  };

  return {
    held,
    handle(request) {
      switch (request.type) {
        case 'init': {
          plans = tfUnitPlans(request.source);
          seed = request.seed;
          const r = request.resident;
          if (r !== undefined && !(Number.isInteger(r.from) && Number.isInteger(r.to) && r.from >= 0 && r.from <= r.to && r.to <= plans.length && r.budgetBytes >= 0)) {
            return { type: 'error', message: `init: resident units [${r.from}, ${r.to}) with a budget of ${r.budgetBytes} bytes are not a range of the network's ${plans.length} and a budget ≥ 0` };
          }
          const built = r === undefined ? { units: 0, bytes: 0 } : buildResident(r.from, r.to, r.budgetBytes);
          return { type: 'ready', backend: tf.getBackend(), residentUnits: built.units, residentBytes: built.bytes };
        }
        case 'hold':
          return hold(request.from, request.to);
        case 'run':
          return run(request.query, request.input);
        case 'close':
          for (const unit of held.values()) unit.dispose();
          held.clear();
          resident.clear();
          from = 0;
          to = 0;
          return null;
        default:
          return { type: 'error', message: `unknown request type: ${String((request as { type?: unknown }).type)}` };
      }
    },
  };
}

/**
 * A stage worker's message loop, the same in a Web Worker and a Node worker thread: requests
 * are handled in order (the first waits for tfjs), a failure is answered as an `error` reply,
 * and a `ran` reply transfers its activation's buffers. Returns the handler of one request.
 */
export function serveStage(tf: Promise<Tf>, now: () => number, post: (reply: StageReply, transfer: ArrayBuffer[]) => void): (request: StageRequest) => void {
  let chain: Promise<StageProgram> = tf.then((loaded) => createStageProgram(loaded, now));
  chain.catch((error: unknown) => post({ type: 'error', message: `tfjs did not start: ${error instanceof Error ? error.message : String(error)}` }, []));
  return (request) => {
    chain = chain.then((program) => {
      let reply: StageReply | null;
      try {
        reply = program.handle(request);
      } catch (error) {
        reply = { type: 'error', message: error instanceof Error ? error.message : String(error) };
      }
      if (reply !== null) post(reply, reply.type === 'ran' ? activationBuffers(reply.output) : []);
      return program;
    });
    // A failed start was answered once above; later requests have nothing to run on.
    chain.catch(() => undefined);
  };
}
