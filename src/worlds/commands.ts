import type { CliWorld } from '../cli/command';
import { pipelineCli } from './pipeline/cli/index';
import { servingCli } from './serving/cli/index';

/**
 * The command line's list of worlds (ARCHITECTURE §5, §7b), in the order of `src/worlds/index.ts`:
 * each world's own commands and what its runs set up, which the command line's entry
 * (`src/cli/main.ts`) hands to `runCli`. Apart from the headless list because a world's commands
 * bring Node's threads and files, which the page and its workers, loading the headless list, must
 * not; a world without commands of its own is not in it.
 */
export const CLI_WORLDS: readonly CliWorld[] = [pipelineCli, servingCli];
