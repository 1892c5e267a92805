/// <reference lib="webworker" />
/**
 * One stage of a real pipeline in the page (ARCHITECTURE §2, the real backend): started by
 * the real worker, one per execution place; tfjs on wasm and the stage loop of
 * src/worlds/pipeline/measure/realPipeline/stage.ts. Activations arrive and leave as transferred buffers.
 */
import type { StageRequest } from '../measure/realPipeline/protocol';
import { serveStage } from '../measure/realPipeline/stage';
import { loadPageTf } from '../../../worker/pageTf';

const handle = serveStage(loadPageTf(), () => performance.now(), (reply, transfer) => self.postMessage(reply, transfer));
self.onmessage = (event: MessageEvent<StageRequest>) => handle(event.data);
