#!/usr/bin/env node
// The command line (src/cli/main.ts) as a package `bin`, so that `npx interference-lab ...`
// writes only the result on stdout (npm run prints its banner lines there). tsx compiles the
// TypeScript on the fly, as `npm run sim` does.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
