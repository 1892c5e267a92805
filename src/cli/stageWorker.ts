/**
 * One stage of a real pipeline as a Node worker thread (ARCHITECTURE §2, the real backend):
 * tfjs on wasm, the stage program of src/measure/realPipeline/stage.ts, messages from the
 * coordinator on the parent port; activations arrive and leave as transferred buffers.
 */
import { parentPort } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import { loadTfNode } from '../agents/tfNode';
import type { StageReply, StageRequest } from '../measure/realPipeline/protocol';
import { activationBuffers } from '../measure/realPipeline/protocol';
import { createStageProgram, type StageProgram } from '../measure/realPipeline/stage';

const port = parentPort;
if (port === null) throw new Error('stageWorker.ts runs as a worker thread');
let program: StageProgram | null = null;
const ready = loadTfNode().then((tf) => {
  program = createStageProgram(tf, () => performance.now());
});
// Requests are handled in order: the first waits for tfjs.
let chain: Promise<unknown> = ready;
port.on('message', (request: StageRequest) => {
  chain = chain.then(() => {
    let reply: StageReply | null;
    try {
      reply = program!.handle(request);
    } catch (error) {
      reply = { type: 'error', message: error instanceof Error ? error.message : String(error) };
    }
    if (reply === null) return;
    port.postMessage(reply, reply.type === 'ran' ? activationBuffers(reply.output) : []);
  });
});
