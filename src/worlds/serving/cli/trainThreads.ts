import { fileURLToPath } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { ActingState, Transition } from '../agents/learner';
import type { BatchObservation } from '../engine/scheduler';
import type { ServingScenario } from '../schema';
import type { LearningSchedulerId } from '../schedulers/registry';

const WORKER_SCRIPT = fileURLToPath(new URL('./trainWorker.mjs', import.meta.url));

/** A thread that gives no answer for this long is reported (one slot of 48 environments takes well under a second). */
const STALL_MS = 600_000;

/**
 * The share of a round's environments the main thread steps itself under `train --threads 2`.
 * It also runs every gradient update and stores the other thread's transitions, so the other
 * thread takes the most. Measured at K = 32 (`train bcedge-fig10-convergence --epochs 32 --envs
 * 32 --threads 2`, minibatch 512, the 32 epochs in wall seconds): a share of 1/8 (4 here) took
 * 144 s, 1/4 (8) 153 s; on the first 600 s of the same, 1/32 40 s, 1/16 37 s, 1/8 33 s.
 */
export const MAIN_THREAD_SHARE = 0.125;

/** The environments (of ids 0 … envs − 1) the main thread steps; the training thread steps the others. */
export function mainThreadEnvironments(envs: number): number {
  return Math.min(envs, Math.max(1, Math.round(envs * MAIN_THREAD_SHARE)));
}

/** What the training thread is built from (its `workerData`). */
export interface TrainThreadInit {
  readonly scenario: ServingScenario;
  readonly scheduler: LearningSchedulerId;
  readonly params: Readonly<Record<string, number>>;
  /** The environments it steps (ids; environment e of round r runs epoch rK + e on the trace of seed + rK + e). */
  readonly envIds: readonly number[];
  /** K, the environments of a full round. */
  readonly envs: number;
  readonly slotMs: number;
  readonly port: MessagePort;
  /** Int32 [answers given]. */
  readonly control: SharedArrayBuffer;
}

/** The main thread's commands. */
export type TrainThreadCommand =
  | { readonly kind: 'round'; readonly first: number; readonly active: number }
  | { readonly kind: 'slot'; readonly slot: number; readonly learner: ActingState; readonly predictor: ActingState | null }
  | { readonly kind: 'finish' };

/** The training thread's answer to a slot: what its environments made, in order, and their slot rewards. */
export interface SlotOutcome {
  readonly transitions: readonly Transition[];
  readonly batches: readonly BatchObservation[];
  /** Each active environment's reward of the slot (null: it decided nothing). */
  readonly rewards: readonly (number | null)[];
}

/** Its answer to `finish`: the transitions its environments stored. */
export interface FinishOutcome {
  readonly transitions: number;
}

/**
 * `train --threads 2` (issue 38): the environments of a lockstep round are stepped by two
 * threads, slot by slot. The learner and the predictor live in the main thread, which steps its
 * share of the environments (`mainThreadEnvironments`) and runs every update as `Lockstep`
 * does; the training thread steps the others with copies of both that act and predict as the
 * originals did at the start of the slot (`MirrorSharing`), and hands back what its
 * environments made: the main thread stores their transitions and batch records after its own
 * of the slot, in environment order, before the next slot starts. Every step of that exchange
 * is fixed by the slot count, not by which thread is faster, so a seed gives the same agent on
 * every run; it is not `--threads 1`'s agent (the copies' environments see the learner one
 * slot late, and draw their actions from their own random stream).
 *
 * The main thread waits with Atomics.wait and takes the answer with receiveMessageOnPort:
 * the training loop stays one synchronous loop, as with one thread.
 */
export class TrainThread {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly control: Int32Array;
  private answered = 0;
  private error: string | null = null;

  constructor(init: Omit<TrainThreadInit, 'port' | 'control'>) {
    const channel = new MessageChannel();
    const control = new SharedArrayBuffer(4);
    this.control = new Int32Array(control);
    this.port = channel.port1;
    const workerData: TrainThreadInit = { ...init, port: channel.port2, control };
    this.worker = new Worker(WORKER_SCRIPT, { workerData, transferList: [channel.port2] });
    this.worker.on('error', (error: unknown) => {
      this.error = error instanceof Error ? error.message : String(error);
    });
    this.worker.unref();
  }

  /** Sends a command; `answer` waits for the thread's reply to it. */
  send(command: TrainThreadCommand): void {
    this.port.postMessage(command);
  }

  /** Waits for the answer to the last command sent (a thread that failed throws its message). */
  answer<T>(): T {
    this.answered++;
    for (;;) {
      const received = receiveMessageOnPort(this.port);
      if (received !== undefined) {
        const message = received.message as { error?: string; value?: T };
        if (message.error !== undefined) throw new Error(`the training thread failed: ${message.error}`);
        return message.value as T;
      }
      const seen = Atomics.load(this.control, 0);
      if (seen >= this.answered) continue;
      if (Atomics.wait(this.control, 0, seen, STALL_MS) === 'timed-out' && Atomics.load(this.control, 0) === seen) {
        throw new Error(`the training thread gave no answer for ${STALL_MS / 60_000} minutes${this.error === null ? '' : `: ${this.error}`}`);
      }
    }
  }

  async close(): Promise<void> {
    this.port.close();
    await this.worker.terminate();
  }
}
