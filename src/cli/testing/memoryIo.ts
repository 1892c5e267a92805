import { CLI_WORLDS } from '../../worlds/commands';
import { runCli, type CliIo } from '../cli';

/**
 * Runs the command line, every world's commands included, on an in-memory IO (the command tests' way): what it prints and the
 * files it writes are captured; `io` adds to or replaces the defaults (no file to read, no
 * folder, no TTY) and may read back what the run wrote so far.
 */
export async function runCliInMemory(
  args: string[],
  io: (written: Readonly<Record<string, string>>) => Partial<CliIo> = () => ({}),
): Promise<{ code: number; stdout: string; stderr: string; written: Record<string, string> }> {
  let stdout = '';
  let stderr = '';
  const written: Record<string, string> = {};
  const code = await runCli(args, {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    readFile: () => null,
    writeFile: (p, t) => (written[p] = t),
    stderrIsTty: false,
    ...io(written),
  }, CLI_WORLDS);
  return { code, stdout, stderr, written };
}
