// Entry of `train --threads 2`'s training thread: TypeScript through tsx (as `npm run sim` runs), then the thread.
import { register } from 'tsx/esm/api';

register();
await import('./trainWorker.ts');
