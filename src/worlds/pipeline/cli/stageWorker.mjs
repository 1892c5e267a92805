// Entry of a real pipeline's stage thread: TypeScript through tsx (as `npm run sim` runs), then the stage.
import { register } from 'tsx/esm/api';

register();
await import('./stageWorker.ts');
