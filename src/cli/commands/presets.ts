import { allPresets } from '../../scenario/presets';
import type { CliCommand } from '../command';
import { EXIT_OK } from '../io';

/** `presets`: one line per preset id. */
export const presetsCommand: CliCommand = {
  usage: 'presets',
  summary: 'list the preset ids, one line each',
  configure() {},
  run(_args, _options, io) {
    const width = Math.max(...allPresets().map((p) => p.id.length));
    for (const p of allPresets()) io.stdout(`${p.id.padEnd(width)}  ${p.figure ? `[${p.figure}] ` : ''}${p.description}\n`);
    return EXIT_OK;
  },
};
