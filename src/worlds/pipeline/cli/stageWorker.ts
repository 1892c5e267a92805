/**
 * One stage of a real pipeline as a Node worker thread (ARCHITECTURE §2, the real backend):
 * tfjs on wasm and the stage loop of src/worlds/pipeline/measure/realPipeline/stage.ts, messages from the
 * coordinator on the parent port; activations arrive and leave as transferred buffers.
 */
import { parentPort } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import { loadTfNode } from '../../../lib/tfNode';
import type { StageRequest } from '../measure/realPipeline/protocol';
import { serveStage } from '../measure/realPipeline/stage';

const port = parentPort;
if (port === null) throw new Error('stageWorker.ts runs as a worker thread');
const handle = serveStage(loadTfNode(), () => performance.now(), (reply, transfer) => port.postMessage(reply, transfer));
port.on('message', (request: StageRequest) => handle(request));
