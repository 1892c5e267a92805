// Entry of the CLI's search threads: TypeScript through tsx (as `npm run sim` runs), then the worker.
import { register } from 'tsx/esm/api';

register();
await import('./searchWorker.ts');
