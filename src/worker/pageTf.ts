/**
 * tfjs in the page's workers (ARCHITECTURE §1): the wasm backend with the binaries the bundler
 * emits (`?url`), loaded once per worker.
 */
import wasmThreadedSimdUrl from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-threaded-simd.wasm?url';
import wasmSimdUrl from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-simd.wasm?url';
import wasmUrl from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm?url';
import { loadTf, type Tf } from '../lib/tf';

/** tfjs on wasm in this worker (once). */
export function loadPageTf(): Promise<Tf> {
  return loadTf({ wasmPaths: { 'tfjs-backend-wasm.wasm': wasmUrl, 'tfjs-backend-wasm-simd.wasm': wasmSimdUrl, 'tfjs-backend-wasm-threaded-simd.wasm': wasmThreadedSimdUrl } });
}
