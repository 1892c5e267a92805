import type * as TfModule from '@tensorflow/tfjs';

/**
 * TensorFlow.js, loaded lazily (ARCHITECTURE §1: the page's first load stays small; only the
 * worker and the CLI ever call this). The learners take the module as an argument, so no
 * file outside the loaders imports tfjs at runtime.
 */
export type Tf = typeof TfModule;

/** Where the wasm backend finds its binaries: a directory prefix, or one URL per file (Vite `?url` imports). */
export type WasmPaths = string | Partial<Record<'tfjs-backend-wasm.wasm' | 'tfjs-backend-wasm-simd.wasm' | 'tfjs-backend-wasm-threaded-simd.wasm', string>>;

export interface TfInit {
  readonly wasmPaths: WasmPaths;
  /** 'wasm' (default; the fastest here) or 'cpu' (a fallback when wasm cannot start). */
  readonly backend?: 'wasm' | 'cpu';
}

let loading: Promise<Tf> | null = null;

/**
 * Imports tfjs and the wasm backend once, and makes the backend current. The threaded wasm
 * build is switched off: bundled, it hangs waiting for workers it cannot start.
 */
export function loadTf(init: TfInit): Promise<Tf> {
  loading ??= (async () => {
    const tf = await import('@tensorflow/tfjs');
    const wasm = await import('@tensorflow/tfjs-backend-wasm');
    tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
    wasm.setWasmPaths(init.wasmPaths as string);
    const backend = init.backend ?? 'wasm';
    if (!(await tf.setBackend(backend))) throw new Error(`tfjs: the ${backend} backend did not start`);
    await tf.ready();
    return tf;
  })();
  loading.catch(() => {
    loading = null;
  });
  return loading;
}
