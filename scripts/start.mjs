// `npm start`: install if needed, build, then serve the build at http://127.0.0.1:4173.
import { bin, ensureDependencies, run } from './setup.mjs';

/** @param {string} step @param {number} code */
function stopIfFailed(step, code) {
  if (code !== 0) {
    console.error(`start: ${step} failed (exit code ${code}).`);
    process.exit(code);
  }
}

stopIfFailed('npm ci', await ensureDependencies('start'));
stopIfFailed('vite build', await run(bin('vite'), ['build']));

console.log('start: serving the lab at http://127.0.0.1:4173 (Ctrl+C to stop)');
process.exitCode = await run(bin('vite'), [
  'preview',
  '--host',
  '127.0.0.1',
  '--port',
  '4173',
  '--strictPort',
]);
