import { UsageError, type CliIo } from './io';

/** The folder holding `path` ('.' for a bare file name). */
function parentOf(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  const slash = trimmed.lastIndexOf('/');
  if (slash < 0) return '.';
  return slash === 0 ? '/' : trimmed.slice(0, slash);
}

/**
 * Checks an output path before any work starts (ARCHITECTURE §5: a missing folder or a
 * directory in place of a file must not surface as ENOENT/EISDIR after a long run).
 * `kind: 'file'`: the path is not a directory and its folder exists and is writable;
 * `kind: 'directory'`: the path is an existing, writable directory.
 *
 * @param flag the option that named the path, for the message (`--out`)
 */
export function checkOutputPath(io: CliIo, flag: string, path: string, kind: 'file' | 'directory'): void {
  if (path === '') throw new UsageError(`${flag}: needs a path`);
  if (io.pathKind === undefined) return;
  const at = io.pathKind(path);
  if (kind === 'directory') {
    if (at === 'missing') throw new UsageError(`${flag}: ${path}: no such directory`);
    if (at !== 'directory') throw new UsageError(`${flag}: ${path}: is not a directory`);
    if (io.canWriteInto?.(path) === false) throw new UsageError(`${flag}: ${path}: directory is not writable`);
    return;
  }
  if (at === 'directory') throw new UsageError(`${flag}: ${path}: is a directory, not a file`);
  if (at === 'other') throw new UsageError(`${flag}: ${path}: is not a regular file`);
  const folder = parentOf(path);
  const folderKind = io.pathKind(folder);
  if (folderKind === 'missing') throw new UsageError(`${flag}: ${path}: folder ${folder} does not exist`);
  if (folderKind !== 'directory') throw new UsageError(`${flag}: ${path}: ${folder} is not a directory`);
  if (io.canWriteInto?.(folder) === false) throw new UsageError(`${flag}: ${path}: folder ${folder} is not writable`);
}

/** Writes an output file; a failure (full disk, permissions changed meanwhile) names the file. */
export function writeOutput(io: CliIo, flag: string, path: string, text: string): void {
  try {
    io.writeFile(path, text);
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    throw new UsageError(`${flag}: ${path}: could not be written${typeof code === 'string' ? ` (${code})` : ''}`);
  }
}
