import type { CliWorld } from '../../../cli/command';
import { useSearchEvaluator } from '../schedulers/reference';
import { learnCheckCommand, rewardCheckCommand } from './commands/learnCheck';
import { trainCommand } from './commands/train';
import { openSearchThreads } from './searchThreads';

/**
 * The serving world on the command line (ARCHITECTURE §5): its learners trained (`train`) and
 * checked (`learn-check`, `reward-check`), listed after `merge`; and its reference lanes'
 * searches shared out over every core (searchThreads.ts; the threads start at a search's first
 * batch, so a command that runs no search starts none).
 */
export const servingCli: CliWorld = {
  commands: [trainCommand, learnCheckCommand, rewardCheckCommand],
  start(spareCores) {
    if (spareCores > 0) useSearchEvaluator(openSearchThreads(spareCores));
  },
};
