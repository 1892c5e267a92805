import type { CliWorld } from '../../../cli/command';
import { measureCommand } from './commands/measure';
import { profileCommand } from './commands/profile';
import { realCommand } from './commands/real';

/**
 * The pipeline world on the command line (ARCHITECTURE §5): its layer-time databases, printed
 * (`profile`) and measured on this machine (`measure`), and its scenarios run for real beside
 * their simulation (`real`), each listed after `presets`.
 */
export const pipelineCli: CliWorld = {
  commands: [profileCommand, measureCommand, realCommand],
};
