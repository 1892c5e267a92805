/// <reference lib="webworker" />
/**
 * One stage of a real pipeline in the page (ARCHITECTURE §2, the real backend): started by
 * the real worker, one per execution place; tfjs on wasm and the stage program of
 * src/measure/realPipeline/stage.ts. Activations arrive and leave as transferred buffers.
 */
import wasmThreadedSimdUrl from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-threaded-simd.wasm?url';
import wasmSimdUrl from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-simd.wasm?url';
import wasmUrl from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm?url';
import { loadTf } from '../agents/tf';
import { activationBuffers, type StageReply, type StageRequest } from '../measure/realPipeline/protocol';
import { createStageProgram, type StageProgram } from '../measure/realPipeline/stage';

let program: StageProgram | null = null;
const ready = loadTf({
  wasmPaths: { 'tfjs-backend-wasm.wasm': wasmUrl, 'tfjs-backend-wasm-simd.wasm': wasmSimdUrl, 'tfjs-backend-wasm-threaded-simd.wasm': wasmThreadedSimdUrl },
}).then((tf) => {
  program = createStageProgram(tf, () => performance.now());
});
// Requests are handled in order: the first waits for tfjs.
let chain: Promise<unknown> = ready;
self.onmessage = (event: MessageEvent<StageRequest>) => {
  const request = event.data;
  chain = chain.then(
    () => {
      let reply: StageReply | null;
      try {
        reply = program!.handle(request);
      } catch (error) {
        reply = { type: 'error', message: error instanceof Error ? error.message : String(error) };
      }
      if (reply !== null) self.postMessage(reply, reply.type === 'ran' ? activationBuffers(reply.output) : []);
    },
    (error: unknown) => self.postMessage({ type: 'error', message: `tfjs did not start: ${error instanceof Error ? error.message : String(error)}` } satisfies StageReply),
  );
};
