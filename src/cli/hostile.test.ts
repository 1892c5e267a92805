import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { propertyTimeout, runs } from '../testing/propertySeed';
import { loadTfNode } from '../lib/tfNode';
import { estimateRunCost } from '../scenario/cost';
import { parseAnyScenario } from '../scenario/parse';
import { findPreset } from '../scenario/presets';
import { EXIT_OK, EXIT_USAGE, runCli, type CliIo } from './cli';
import { CLI_WORLDS } from '../worlds/commands';
import { applySet } from './scenarioInput';

/**
 * The hostile-input suite (ARCHITECTURE §5, invalid input): whatever the arguments or the scenario document,
 * the CLI answers exit 0, or exit 2 with `error: …` naming a field, option or file on stderr
 * and nothing on stdout; never a stack trace, never exit 1.
 */

let learning: CliIo['learning'];
beforeAll(async () => {
  learning = { tf: await loadTfNode(), agent: async () => undefined };
});

const smallPipeline = (() => {
  const s = structuredClone(findPreset('default')!.scenario) as unknown as { pipeline: { queries: number } };
  s.pipeline.queries = 200;
  return s;
})();
const smallServing = (() => {
  const s = structuredClone(findPreset('serving-default')!.scenario) as unknown as { serving: { durationS: number; lanes: unknown[] } };
  s.serving.durationS = 3;
  s.serving.lanes = [{ scheduler: 'fixed' }, { scheduler: 'deeprt' }];
  return s;
})();

const FILES: Record<string, string> = {
  'p.json': JSON.stringify(smallPipeline),
  's.json': JSON.stringify(smallServing),
  'broken.json': '{"version": 2, "world": "pipeline", ',
  'proto.json': JSON.stringify(smallPipeline).replace('"pipeline":{', '"pipeline":{"__proto__":{"queries":1},'),
  'empty.json': '',
  'array.json': '[1, 2, 3]',
};

/** A file system: `out/` exists, `ro/` is not writable, `p.json` and friends are files. */
function io(files: Record<string, string>) {
  const out = { stdout: '', stderr: '' };
  const cliIo: CliIo = {
    stdout: (t) => (out.stdout += t),
    stderr: (t) => (out.stderr += t),
    readFile: (p) => files[p] ?? null,
    writeFile: () => undefined,
    isDirectory: (p) => ['out', 'out/', 'ro', 'ro/', '.'].includes(p),
    pathKind: (p) => (['out', 'out/', 'ro', 'ro/', '.'].includes(p) ? 'directory' : p in files ? 'file' : 'missing'),
    canWriteInto: (p) => !p.startsWith('ro'),
    stderrIsTty: false,
    ...(learning === undefined ? {} : { learning }),
  };
  return { cliIo, out };
}

/** The contract, checked on one answer. */
function expectContract(code: number, out: { stdout: string; stderr: string }, args: readonly string[]): void {
  const where = JSON.stringify(args);
  expect([EXIT_OK, EXIT_USAGE], `${where}: ${out.stderr}`).toContain(code);
  expect(out.stderr, where).not.toMatch(/internal error|\n\s+at /);
  if (code === EXIT_USAGE) {
    expect(out.stdout, where).toBe('');
    // Usage may precede the message (no command given): one line says `error: …`.
    expect(out.stderr, where).toMatch(/^error: \S/m);
  }
}

const token = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('run', 'sweep', 'train', 'presets', 'profile', 'help', 'vgg16', 'resnet50', 'p.json', 's.json', 'broken.json', 'proto.json', 'empty.json', 'array.json', 'missing.json', 'out/', 'ro/x.json', 'out/r.json', 'out', '') },
  { weight: 4, arbitrary: fc.constantFrom('--format', '--out', '--seeds', '--set', '--lane', '--slots', '--allow-long', '--help', '-h', '--', '-x', '--format=csv', '--seeds=0') },
  { weight: 3, arbitrary: fc.constantFrom('json', 'csv', 'xml', '0', '1', '2', '-1', '1.5', '1e3', 'NaN', '1000001', '99999999999999999999') },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'pipeline.lanes.length=-1',
      'pipeline.lanes.length=1.5',
      'pipeline.interference.events.length=-1',
      'pipeline.lanes[99999999]=1',
      'pipeline.lanes[0].params.alpha=1e308',
      '__proto__.polluted=1',
      'constructor.prototype.x=1',
      'pipeline.queries=NaN',
      'pipeline.queries=-5',
      'pipeline.queries=100',
      'pipeline.queries=1e7',
      'pipeline.executionPlaces=64',
      'serving.durationS=2',
      'serving.rateRps=0',
      'serving.platform="h100"',
      'pipeline.database={"layers":["a"],"modes":{"A":[1e308]}}',
      'seed=4294967296',
      'title=' + 'x'.repeat(300),
      '=',
      'a..b=1',
      '[0]=1',
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
);

describe('hostile command lines (fast-check)', () => {
  it('exit 0, or exit 2 with a message and nothing on stdout, for any arguments', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(token, { maxLength: 8 }), async (args) => {
        const { cliIo, out } = io(FILES);
        const code = await runCli(args, cliIo, CLI_WORLDS);
        expectContract(code, out, args);
      }),
      { numRuns: runs(250) },
    );
  }, propertyTimeout(180_000));
});

/** Every path of a JSON document, objects and arrays included (the root too). */
function pathsOf(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  const out = [path];
  if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) out.push(...pathsOf(v, [...path, Array.isArray(value) ? Number(k) : k]));
  }
  return out;
}

const mutation = fc.record({
  at: fc.nat(),
  kind: fc.constantFrom('replace', 'delete', 'add-key'),
  // Fresh objects each time: a shared constant would be mutated into a cycle by a later change.
  value: fc.oneof(fc.anything({ maxDepth: 2 }), fc.constantFrom(-1, 0, 1e308, 5e-324, -0, 1.5, '', 'A', null), fc.constant(null).map(() => []), fc.constant(null).map(() => ({}))),
  key: fc.constantFrom('__proto__', 'constructor', 'prototype', 'extra', 'length', '0'),
});

function mutate(document: unknown, changes: readonly { at: number; kind: string; value: unknown; key: string }[]): unknown {
  let doc = structuredClone(document);
  for (const change of changes) {
    const paths = pathsOf(doc);
    const path = paths[change.at % paths.length]!;
    if (path.length === 0) {
      if (change.kind === 'replace') doc = change.value;
      continue;
    }
    let parent = doc as Record<string | number, unknown>;
    for (const k of path.slice(0, -1)) parent = parent[k] as Record<string | number, unknown>;
    const last = path.at(-1)!;
    if (change.kind === 'replace') parent[last] = change.value;
    else if (change.kind === 'delete') delete parent[last];
    else if (parent[last] !== null && typeof parent[last] === 'object') Object.defineProperty(parent[last], change.key, { value: change.value, enumerable: true, writable: true, configurable: true });
  }
  return doc;
}

describe('hostile scenario documents (fast-check)', () => {
  it.each([
    ['pipeline', smallPipeline],
    ['serving', smallServing],
  ])('a mutated %s scenario file: exit 0, or exit 2 naming the field', async (_world, base) => {
    await fc.assert(
      fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 4 }), fc.constantFrom('json', 'csv'), async (changes, format) => {
        let document: unknown;
        try {
          document = mutate(base, structuredClone(changes));
        } catch {
          return; // the mutation itself was impossible (redefining an array's length)
        }
        let text: string;
        try {
          text = JSON.stringify(document) ?? 'undefined';
        } catch {
          return; // not JSON (a BigInt): no file can hold it
        }
        // Valid but long mutations (a grown query count) are skipped, not run: the cost guard has its own tests.
        const parsed = parseAnyScenario(JSON.parse(text === 'undefined' ? 'null' : text));
        fc.pre(!parsed.ok || estimateRunCost(parsed.scenario).laneEvents < 2e5);
        const args = ['run', 'f.json', '--format', format];
        const { cliIo, out } = io({ ...FILES, 'f.json': text });
        const code = await runCli(args, cliIo, CLI_WORLDS);
        expectContract(code, out, args);
        if (text === 'undefined') {
          // The whole document was removed: the file is not JSON, and the message names the file.
          expect(code).toBe(EXIT_USAGE);
          expect(out.stderr).toContain('f.json');
        } else if (!parsed.ok) {
          expect(code).toBe(EXIT_USAGE);
          expect(out.stderr).toContain(parsed.errors[0]!.path);
        }
      }),
      { numRuns: runs(100) },
    );
  }, propertyTimeout(180_000));

  // Fixed regression cases: counterexamples the property above found on a random seed.
  it('regression: serving.assumptions.oomRecoveryMs = 0 is refused naming the field (exit 2), not an internal RangeError (exit 1)', async () => {
    const document = structuredClone(smallServing) as unknown as { serving: { assumptions: Record<string, number> } };
    document.serving.assumptions['oomRecoveryMs'] = 0;
    const args = ['run', 'f.json'];
    const { cliIo, out } = io({ ...FILES, 'f.json': JSON.stringify(document) });
    const code = await runCli(args, cliIo, CLI_WORLDS);
    expectContract(code, out, args);
    expect(code).toBe(EXIT_USAGE);
    expect(out.stderr).toBe('error: serving.assumptions.oomRecoveryMs: must be a number above 0 and at most 60000, got 0\n');
  });

  it('--set never throws anything but a usage error, on any path and value', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constantFrom('pipeline', 'lanes', 'length', '0', '-1', '[0]', '[99999999]', '__proto__', 'params', 'alpha', ''), fc.string({ maxLength: 5 })), { maxLength: 5 }), fc.string({ maxLength: 20 }), (keys, value) => {
        const document = structuredClone(smallPipeline);
        try {
          applySet(document, `${keys.join('.')}=${value}`);
        } catch (error) {
          expect((error as Error).name).toBe('UsageError');
        }
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      }),
      { numRuns: runs(500) },
    );
  });
});
