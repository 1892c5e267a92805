import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const host = '127.0.0.1';
const port = 4173;

// One config for the app build, the dev/preview servers and the unit tests.
export default defineConfig({
  // Relative asset URLs, so a build works from any folder or sub-path.
  base: './',
  plugins: [react()],
  build: {
    target: 'es2022',
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
  },
});
