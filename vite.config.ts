import { execFileSync } from 'node:child_process';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * The Content-Security-Policy of the built page (ARCHITECTURE §7): everything from the page's own
 * origin only — scripts, the simulation worker, fetches — plus what the lab itself needs:
 * `wasm-unsafe-eval` for the TensorFlow.js wasm backend and the learners' decision kernel
 * (src/worlds/serving/agents/hostGemv.ts), `data:`/`blob:` images for the
 * favicon and chart exports. No other host can be reached. Only the build gets it: the dev
 * server injects inline scripts for hot reloading.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data: blob:",
  "style-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'none'",
].join('; ');

function contentSecurityPolicy(): Plugin {
  return {
    name: 'interference-lab:csp',
    apply: 'build',
    transformIndexHtml: () => [{ tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: CONTENT_SECURITY_POLICY }, injectTo: 'head-prepend' }],
  };
}

/** The commit the page is built from, for the provenance of claims recomputed in the page (ARCHITECTURE §4a); 'unknown' outside a checkout. */
function buildCommit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || 'unknown';
  } catch {
    return 'unknown';
  }
}

const host = '127.0.0.1';
const port = 4173;

// One config for the app build, the dev/preview servers and the unit tests.
export default defineConfig({
  // Relative asset URLs, so a build works from any folder or sub-path.
  base: './',
  plugins: [react(), contentSecurityPolicy()],
  define: { __LAB_COMMIT__: JSON.stringify(buildCommit()) },
  build: {
    target: 'es2022',
    // No modulepreload polyfill in the entry (ARCHITECTURE §7a′): every browser of the es2022
    // target runs the page without it; one that lacks <link rel="modulepreload"> only loads the
    // preloaded chunks when the entry imports them instead of in parallel.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        // Everything the entry imports statically in one chunk (ARCHITECTURE §7a′): left to itself the
        // bundler splits the modules the first load shares with a later part (the limits, the
        // defaults, a store hook) into chunks of their own, a dozen files of which four are under
        // 1 kB, and gzip compresses them apart. Later parts still load as chunks of their own.
        codeSplitting: { groups: [{ name: 'first-load', tags: ['$initial'] }] },
      },
    },
  },
  worker: {
    format: 'es',
  },
  server: { host, port, strictPort: true },
  preview: { host, port, strictPort: true },
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'scripts/**/*.test.ts'],
    exclude: ['e2e/**', 'node_modules/**', 'dist/**'],
    environment: 'node',
    // The property tests' seed, printed once and the same in every file (src/testing/propertySettings.ts).
    globalSetup: ['scripts/propertyGlobalSetup.ts'],
    // The composition root first (a test file is a program, ARCHITECTURE §7b), then the property tests' seed.
    setupFiles: ['src/testing/worldsSetup.ts', 'src/testing/propertySetup.ts'],
    // Vitest's default (cores − 1) runs one file at a time on a 2-core machine, leaving a core
    // idle while most files compute in one thread: two at a time halve the unit tests there
    // (676 s → 331 s on the project's machine), and CI's whole run must stay under 30 minutes.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // A test's budget with room (vitest's default is 5 s): the engine's heavier tests take 1–4 s
    // on an idle 2-core machine and twice that beside other work, and the verdict must not depend
    // on the machine being idle. A test that hangs still fails, after a minute.
    testTimeout: 60_000,
  },
});
