import { execFileSync } from 'node:child_process';

/** `git rev-parse --short HEAD`, or 'unknown' outside a checkout (a report's provenance). */
export function gitCommit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || 'unknown';
  } catch {
    return 'unknown';
  }
}

/** The command line as typed, after `prefix` (`npm run claims --`): a report's provenance. */
export function commandLine(prefix: string, args: readonly string[] | undefined): string {
  return [prefix, ...(args ?? []).map((a) => (/^[\w./=:@,+-]+$/.test(a) ? a : JSON.stringify(a)))].join(' ');
}

/** The arguments after the command's own name (`process.argv` of the CLI). */
export function typedArgs(command: string): string[] {
  const typed = process.argv.slice(2);
  return typed[0] === command ? typed.slice(1) : typed;
}
