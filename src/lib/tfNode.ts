import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { loadTf, type Tf } from './tf';

/**
 * tfjs for Node (the CLI, the bench and the tests): the same wasm backend the worker uses,
 * its binaries read from node_modules (nothing is downloaded).
 */
export function loadTfNode(backend: 'wasm' | 'cpu' = 'wasm'): Promise<Tf> {
  const require = createRequire(import.meta.url);
  const dist = dirname(require.resolve('@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm'));
  return loadTf({ wasmPaths: join(dist, '/') + '/', backend });
}
