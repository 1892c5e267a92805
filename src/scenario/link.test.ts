import fc from 'fast-check';
import { Inflate, zlibSync } from 'fflate';
import { describe, expect, it, vi } from 'vitest';
import { propertyTimeout, runs } from '../testing/propertySeed';
import { scenarioArbitrary } from './testing/arbitraries';
import v1Fixture from './fixtures/v1-default.json';
import { encodeLinkJson, LINK_LIMITS } from './link';
import { decodePipelineScenarioLink, encodePipelineScenarioLink } from '../worlds/pipeline/door';
import { defaultPipelineScenario } from '../worlds/pipeline/defaultPreset';
import { SCENARIO_VERSION } from './schema';
import { validatePipelineScenario, type InterferenceEventSpec, type PipelineScenario, type PipelineScenarioResult } from '../worlds/pipeline/schema';

/** Property runs: enough to reach the codec's corners, still a few seconds each. */
const RUNS = runs(10_000);
/** The mutated-link fuzz encodes a whole scenario per run, so it gets fewer. */
const MUTATION_RUNS = runs(3_000);
const PROPERTY_TIMEOUT_MS = propertyTimeout(120_000);

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** The tests' own base64url (the page's tsconfig has no Node Buffer), so they do not trust the codec's. */
const base64url = (bytes: Uint8Array) =>
  btoa(Array.from(bytes, (b) => String.fromCharCode(b)).join(''))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');
const deflate = (text: string) => zlibSync(new TextEncoder().encode(text), { level: 9 });
const linkToBytes = (bytes: Uint8Array) => `z1=${base64url(bytes)}`;
const payloadBytes = (link: string) => Uint8Array.from(atob(link.slice(3).replaceAll('-', '+').replaceAll('_', '/')), (c) => c.charCodeAt(0));

/** `path: message` lines of a failed decode; fails the test if the decode succeeded. */
function errorsOf(result: PipelineScenarioResult): string[] {
  if (result.ok) throw new Error(`expected errors, got a scenario: ${JSON.stringify(result.scenario)}`);
  return result.errors.map((e) => `${e.path}: ${e.message}`);
}

/** What every decode must satisfy: a valid scenario, or at least one well-formed error. */
function wellFormed(result: PipelineScenarioResult): boolean {
  if (result.ok) return validatePipelineScenario(result.scenario).ok;
  return result.errors.length > 0 && result.errors.every((e) => typeof e.path === 'string' && e.path !== '' && typeof e.message === 'string' && e.message !== '');
}

/** The default scenario's JSON with some fields changed, as text (so it can hold what JSON.stringify cannot write). */
function defaultJsonWith(change: (s: Record<string, unknown> & { pipeline: Record<string, unknown> }) => void): string {
  const s = defaultPipelineScenario() as unknown as Record<string, unknown> & { pipeline: Record<string, unknown> };
  change(s);
  return JSON.stringify(s);
}

/** The same value with every object's keys in reverse order. */
function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).reverse().map(([k, v]) => [k, reverseKeys(v)]));
  return value;
}

function withFiftyEvents(): PipelineScenario {
  const s = defaultPipelineScenario();
  const modes = ['B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K', 'L'] as const;
  const events: InterferenceEventSpec[] = Array.from({ length: 50 }, (_, k) => ({
    executionPlace: k % 4,
    mode: modes[k % modes.length]!,
    fromQuery: 100 * k,
    toQuery: 100 * k + 50,
  }));
  s.pipeline.interference.events = [...s.pipeline.interference.events, ...events];
  return s;
}

describe('encodePipelineScenarioLink', () => {
  it('writes z1= and unpadded base64url, and opens to the same scenario', () => {
    const link = encodePipelineScenarioLink(defaultPipelineScenario());
    expect(link).toMatch(/^z1=[A-Za-z0-9_-]+$/);
    expect(decodePipelineScenarioLink(link)).toStrictEqual({ ok: true, scenario: defaultPipelineScenario() });
    expect(decodePipelineScenarioLink(`#${link}`)).toStrictEqual({ ok: true, scenario: defaultPipelineScenario() });
  });

  it('is deterministic whatever the key order of the scenario', () => {
    fc.assert(
      fc.property(scenarioArbitrary, (s) => {
        expect(encodePipelineScenarioLink(reverseKeys(s) as PipelineScenario)).toBe(encodePipelineScenarioLink(s));
      }),
      { numRuns: runs(500) },
    );
    // 500 scenarios encoded twice: seconds on a loaded machine, whatever the verdict.
  }, 60_000);

  it('keeps the default scenario short enough to paste (lengths reported)', () => {
    const plain = encodePipelineScenarioLink(defaultPipelineScenario());
    const busy = encodePipelineScenarioLink(withFiftyEvents());
    console.log(`link length: default scenario ${plain.length} characters; with 50 more events ${busy.length} characters`);
    expect(plain.length).toBeLessThan(600);
    expect(busy.length).toBeLessThan(2000);
    expect(decodePipelineScenarioLink(busy)).toStrictEqual({ ok: true, scenario: withFiftyEvents() });
  });

  it('refuses to link an invalid scenario', () => {
    const s = defaultPipelineScenario();
    s.pipeline.executionPlaces = 1000;
    expect(() => encodePipelineScenarioLink(s)).toThrow(RangeError);
    expect(() => encodePipelineScenarioLink(s)).toThrow('pipeline.executionPlaces: must be an integer from 1 to 64, got 1000');
  });
});

describe('link round trip (property)', () => {
  it(
    `decode(encode(s)) is s for every valid scenario (${RUNS} runs)`,
    () => {
      const started = performance.now();
      fc.assert(
        fc.property(scenarioArbitrary, (s) => {
          expect(validatePipelineScenario(s)).toStrictEqual({ ok: true, scenario: s });
          expect(decodePipelineScenarioLink(encodePipelineScenarioLink(s))).toStrictEqual({ ok: true, scenario: s });
        }),
        { numRuns: RUNS },
      );
      console.log(`round trip: ${RUNS} runs in ${Math.round(performance.now() - started)} ms`);
    },
    PROPERTY_TIMEOUT_MS,
  );
});

describe('decodePipelineScenarioLink never throws (properties)', () => {
  const cases: [name: string, input: fc.Arbitrary<string>, runs: number][] = [
    [
      'arbitrary strings',
      fc.oneof(
        fc.string(),
        fc.string({ unit: 'binary', maxLength: 300 }),
        fc.string({ unit: 'grapheme', maxLength: 100 }),
        fc.string({ unit: 'binary-ascii', maxLength: 300 }).map((s) => `#${s}`),
      ),
      RUNS,
    ],
    ['z1= and base64url characters', fc.string({ unit: fc.constantFrom(...BASE64URL), maxLength: 400 }).map((s) => `z1=${s}`), RUNS],
    ['z1= and base64url of random bytes', fc.uint8Array({ maxLength: 400 }).map(linkToBytes), RUNS],
    ['z1= and deflated JSON values', fc.jsonValue().map((v) => linkToBytes(deflate(JSON.stringify(v) ?? 'null'))), RUNS],
    [
      'real links with bytes changed, cut or appended',
      fc
        .tuple(scenarioArbitrary, fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 })), { minLength: 1, maxLength: 4 }), fc.nat(), fc.uint8Array({ maxLength: 8 }))
        .map(([s, flips, cut, tail]) => {
          const bytes = payloadBytes(encodePipelineScenarioLink(s));
          for (const [at, mask] of flips) bytes[at % bytes.length]! ^= mask;
          const kept = bytes.subarray(0, bytes.length - (cut % 3 === 0 ? cut % bytes.length : 0));
          return linkToBytes(new Uint8Array([...kept, ...tail]));
        }),
      MUTATION_RUNS,
    ],
  ];

  it.each(cases)(
    '%s',
    (name, input, runs) => {
      const started = performance.now();
      fc.assert(
        fc.property(input, (hash) => {
          let result: PipelineScenarioResult | undefined;
          expect(() => (result = decodePipelineScenarioLink(hash))).not.toThrow();
          expect(wellFormed(result!)).toBe(true);
        }),
        { numRuns: runs },
      );
      console.log(`never throws, ${name}: ${runs} runs in ${Math.round(performance.now() - started)} ms`);
    },
    PROPERTY_TIMEOUT_MS,
  );
});

describe('the checksum', () => {
  it('a link with one byte changed never opens as a different scenario', () => {
    fc.assert(
      fc.property(scenarioArbitrary, fc.nat(), fc.integer({ min: 1, max: 255 }), (scenario, at, xor) => {
        const link = encodePipelineScenarioLink(scenario);
        const bytes = payloadBytes(link);
        bytes[at % bytes.length]! ^= xor;
        const decoded = decodePipelineScenarioLink(linkToBytes(bytes));
        if (decoded.ok) expect(decoded.scenario).toStrictEqual(validatePipelineScenario(scenario).ok ? scenario : null);
      }),
      { numRuns: runs(2_000) },
    );
  }, PROPERTY_TIMEOUT_MS);
});

describe('decodePipelineScenarioLink: hostile and broken links', () => {
  const realLink = encodePipelineScenarioLink(withFiftyEvents());

  it('malformed base64', () => {
    expect(errorsOf(decodePipelineScenarioLink('z1=@@@'))).toEqual(['link: is not valid base64url']);
    expect(errorsOf(decodePipelineScenarioLink('z1=ab+/'))).toEqual(['link: is not valid base64url']);
    expect(errorsOf(decodePipelineScenarioLink('z1=abcd=='))).toEqual(['link: is not valid base64url']);
    // One character past a multiple of four cannot come from any encoder.
    expect(errorsOf(decodePipelineScenarioLink('z1=abcde'))).toEqual(['link: is not valid base64url']);
  });

  it('a truncated payload', () => {
    let half = realLink.slice(0, 3 + Math.floor((realLink.length - 3) / 2));
    if ((half.length - 3) % 4 === 1) half = half.slice(0, -1);
    expect(errorsOf(decodePipelineScenarioLink(half))).toEqual(['link: the compressed data is corrupt']);
    expect(errorsOf(decodePipelineScenarioLink('z1='))).toEqual(['link: the compressed data is corrupt']);
  });

  it('corrupt compressed data', () => {
    const bytes = payloadBytes(realLink);
    // Bits 1–2 of the first byte are the block type; 11 is reserved. (Raw deflate has no
    // checksum, so most other flips unpack to different text instead: see the property above.)
    bytes[0]! |= 0b110;
    expect(errorsOf(decodePipelineScenarioLink(linkToBytes(bytes)))).toEqual(['link: the compressed data is corrupt']);
  });

  it('a decompression bomb is stopped early', () => {
    const bomb = linkToBytes(zlibSync(new Uint8Array(20_000_000).fill(0x20), { level: 9 }));
    expect(bomb.length).toBeLessThan(LINK_LIMITS.maxHashChars);
    const started = performance.now();
    expect(errorsOf(decodePipelineScenarioLink(bomb))).toEqual(['link: unpacks to more than 1048576 bytes']);
    const elapsedMs = performance.now() - started;
    console.log(`20 MB bomb (${bomb.length} characters) refused in ${elapsedMs.toFixed(1)} ms`);
    expect(elapsedMs).toBeLessThan(1000);
  });

  it('the largest bomb that fits in a link is stopped after reading a few steps of it', () => {
    const packed = zlibSync(new Uint8Array(50_000_000), { level: 9 });
    const bomb = linkToBytes(packed);
    expect(bomb.length).toBeLessThanOrEqual(LINK_LIMITS.maxHashChars);
    // Timing alone cannot tell "stopped early" from "unpacked 50 MB, then measured": count
    // the compressed bytes handed to the inflater instead.
    const push = vi.spyOn(Inflate.prototype, 'push');
    try {
      expect(errorsOf(decodePipelineScenarioLink(bomb))).toEqual(['link: unpacks to more than 1048576 bytes']);
      const consumed = push.mock.calls.reduce((sum, [chunk]) => sum + chunk.length, 0);
      expect(consumed).toBeGreaterThan(0);
      expect(consumed).toBeLessThan(packed.length / 10);
    } finally {
      push.mockRestore();
    }
    // Packing the 50 MB bomb takes seconds on a loaded machine: the test's verdict is the byte count, not the time.
  }, 60_000);

  it('the size limit is exact', () => {
    const atLimit = linkToBytes(deflate(' '.repeat(LINK_LIMITS.maxJsonBytes - 2) + '{}'));
    expect(errorsOf(decodePipelineScenarioLink(atLimit))).not.toContain('link: unpacks to more than 1048576 bytes');
    const overLimit = linkToBytes(deflate(' '.repeat(LINK_LIMITS.maxJsonBytes - 1) + '{}'));
    expect(errorsOf(decodePipelineScenarioLink(overLimit))).toEqual(['link: unpacks to more than 1048576 bytes']);
  });

  it('an unknown codec', () => {
    expect(errorsOf(decodePipelineScenarioLink(`z9=${realLink.slice(3)}`))).toEqual(['link: uses an unknown format "z9" (this lab reads z1)']);
    expect(errorsOf(decodePipelineScenarioLink('#z2=abc'))).toEqual(['link: uses an unknown format "z2" (this lab reads z1)']);
  });

  it('not a link', () => {
    expect(errorsOf(decodePipelineScenarioLink('hello'))).toEqual(['link: is not a scenario link']);
    expect(errorsOf(decodePipelineScenarioLink(''))).toEqual(['link: is not a scenario link']);
    expect(errorsOf(decodePipelineScenarioLink('#'))).toEqual(['link: is not a scenario link']);
    expect(errorsOf(decodePipelineScenarioLink('Z1=abc'))).toEqual(['link: is not a scenario link']);
    expect(errorsOf(decodePipelineScenarioLink(null as unknown as string))).toEqual(['link: is not a scenario link']);
  });

  it('a huge hash', () => {
    expect(errorsOf(decodePipelineScenarioLink(`z1=${'A'.repeat(70_000)}`))).toEqual(['link: is too long (70003 characters; at most 65536)']);
    // The '#' is not counted: exactly the limit passes the length check.
    const atLimit = `#z1=${'A'.repeat(LINK_LIMITS.maxHashChars - 3)}`;
    expect(errorsOf(decodePipelineScenarioLink(atLimit))).not.toContain('link: is too long (65536 characters; at most 65536)');
    expect(errorsOf(decodePipelineScenarioLink(`${atLimit}A`))).toEqual(['link: is too long (65537 characters; at most 65536)']);
  });

  it('bytes that are not UTF-8, text that is not JSON', () => {
    expect(errorsOf(decodePipelineScenarioLink(linkToBytes(zlibSync(new Uint8Array([0x7b, 0xff, 0xfe, 0x7d])))))).toEqual(['link: does not hold valid JSON']);
    expect(errorsOf(decodePipelineScenarioLink(linkToBytes(deflate('{"version": 2,'))))).toEqual(['link: does not hold valid JSON']);
    expect(errorsOf(decodePipelineScenarioLink(linkToBytes(deflate('{"queries": NaN}'))))).toEqual(['link: does not hold valid JSON']);
  });

  it('JSON that is not a scenario object', () => {
    expect(errorsOf(decodePipelineScenarioLink(encodeLinkJson('[1, 2]')))).toEqual(['(scenario): must be a JSON object']);
    expect(errorsOf(decodePipelineScenarioLink(encodeLinkJson('null')))).toEqual(['(scenario): must be a JSON object']);
  });

  it('an unknown schema version', () => {
    expect(errorsOf(decodePipelineScenarioLink(encodeLinkJson(defaultJsonWith((s) => (s.version = 99)))))).toEqual([
      `version: 99 is newer than this lab understands (${SCENARIO_VERSION}); update the lab`,
    ]);
  });

  it('unknown fields', () => {
    expect(errorsOf(decodePipelineScenarioLink(encodeLinkJson(defaultJsonWith((s) => (s.colour = 'red')))))).toEqual(['(scenario): has unknown field "colour"']);
    expect(
      errorsOf(decodePipelineScenarioLink(encodeLinkJson(defaultJsonWith((s) => ((s.pipeline.lanes as Record<string, unknown>[])[1]!.speed = 2))))),
    ).toEqual(['pipeline.lanes[1]: has unknown field "speed"']);
  });

  it('__proto__ keys are refused and pollute nothing', () => {
    const top = defaultJsonWith(() => {}).replace(/^\{/, '{"__proto__": {"polluted": 1}, ');
    expect(errorsOf(decodePipelineScenarioLink(encodeLinkJson(top)))).toEqual(['(scenario): has a forbidden field "__proto__"']);
    const nested = defaultJsonWith(() => {}).replace('"params":{', '"params":{"__proto__": {"alpha": 3, "polluted": 1}, ');
    expect(nested).toContain('__proto__');
    expect(errorsOf(decodePipelineScenarioLink(encodeLinkJson(nested)))).toEqual(['pipeline.lanes[0].params: has a forbidden field "__proto__"']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  it('constructor and prototype keys are refused', () => {
    const ctor = defaultJsonWith(() => {}).replace(/^\{/, '{"constructor": {"prototype": {"polluted": 1}}, ');
    expect(errorsOf(decodePipelineScenarioLink(encodeLinkJson(ctor)))).toEqual(['(scenario): has a forbidden field "constructor"']);
    const proto = defaultJsonWith((s) => (s.view = { mode: 'normal', hide: [{ prototype: 1 }] }));
    expect(errorsOf(decodePipelineScenarioLink(encodeLinkJson(proto)))).toEqual(['view.hide[0]: has a forbidden field "prototype"']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('Infinity (1e999) is not a number the schema accepts', () => {
    const json = defaultJsonWith(() => {}).replace('"executionPlaces":4', '"executionPlaces":1e999');
    expect(errorsOf(decodePipelineScenarioLink(encodeLinkJson(json)))).toEqual(['pipeline.executionPlaces: must be a number, got Infinity']);
  });

  it('negative and absurd values', () => {
    const absurd = defaultJsonWith((s) => {
      s.pipeline.queries = 1e9;
      s.pipeline.executionPlaces = 1e4;
    });
    expect(errorsOf(decodePipelineScenarioLink(encodeLinkJson(absurd)))).toEqual([
      'pipeline.executionPlaces: must be an integer from 1 to 64, got 10000',
      'pipeline.queries: must be an integer from 1 to 10000000, got 1000000000',
    ]);
    expect(errorsOf(decodePipelineScenarioLink(encodeLinkJson(defaultJsonWith((s) => (s.seed = -1)))))).toEqual(['seed: must be an integer from 0 to 4294967295, got -1']);
  });

  it('wrong types', () => {
    expect(errorsOf(decodePipelineScenarioLink(encodeLinkJson(defaultJsonWith((s) => (s.pipeline.executionPlaces = 'four')))))).toEqual([
      'pipeline.executionPlaces: must be a number, got "four"',
    ]);
  });

  it('deeply nested JSON within the size limit', () => {
    const depth = 150_000;
    const deepArray = `${'['.repeat(depth)}${']'.repeat(depth)}`;
    expect(errorsOf(decodePipelineScenarioLink(encodeLinkJson(deepArray)))).toEqual(['(scenario): must be a JSON object']);
    const deepDatabase = defaultJsonWith(() => {}).replace('"model":"vgg16",', `"model":"vgg16","database":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)},`);
    expect(deepDatabase.length).toBeLessThan(LINK_LIMITS.maxJsonBytes);
    expect(wellFormed(decodePipelineScenarioLink(encodeLinkJson(deepDatabase)))).toBe(true);
  });

  it('a version 1 link opens as the version 2 default scenario', () => {
    expect(decodePipelineScenarioLink(encodeLinkJson(JSON.stringify(v1Fixture)))).toStrictEqual({ ok: true, scenario: defaultPipelineScenario() });
  });
});

describe('the Claims view in a link', () => {
  it('a link carries the open Claims view, and a link without it still opens closed', () => {
    const open: PipelineScenario = { ...defaultPipelineScenario(), view: { mode: 'normal', hide: [], claims: true } };
    const decoded = decodePipelineScenarioLink(encodePipelineScenarioLink(open).replace(/^#/, ''));
    expect(decoded.ok && decoded.scenario.view).toEqual({ mode: 'normal', hide: [], claims: true });
    const plain = decodePipelineScenarioLink(encodePipelineScenarioLink({ ...defaultPipelineScenario(), view: { mode: 'normal', hide: [] } }).replace(/^#/, ''));
    expect(plain.ok && plain.scenario.view?.claims).toBeUndefined();
  });

  it('a bad value names the field', () => {
    const bad = defaultJsonWith((s) => (s['view'] = { mode: 'normal', hide: [], claims: 'yes' }));
    expect(errorsOf(decodePipelineScenarioLink(encodeLinkJson(bad)))).toEqual(['view.claims: must be true (or left out), got "yes"']);
  });
});
