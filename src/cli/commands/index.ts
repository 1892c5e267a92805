import type { CliCommand } from '../command';
import { claimsCommand } from './claims';
import { learnCheckCommand, rewardCheckCommand } from './learnCheck';
import { measureCommand } from './measure';
import { mergeCommand } from './merge';
import { presetsCommand } from './presets';
import { profileCommand } from './profile';
import { realCommand } from './real';
import { runCommand } from './run';
import { sweepCommand } from './sweep';
import { trainCommand } from './train';

/** Every command of the command line, in the order `--help` lists them. Add a new one here. */
export const COMMANDS: readonly CliCommand[] = [runCommand, sweepCommand, mergeCommand, trainCommand, learnCheckCommand, rewardCheckCommand, presetsCommand, profileCommand, measureCommand, realCommand, claimsCommand];
