import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { runCli } from './cli';

const code = runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  readFile: (path) => (existsSync(path) && statSync(path).isFile() ? readFileSync(path, 'utf8') : null),
  writeFile: (path, text) => writeFileSync(path, text),
  stderrIsTty: process.stderr.isTTY === true,
});
process.exitCode = code;
