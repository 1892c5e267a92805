import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import {
  LAYER_TIME_RANGE_MS,
  MAX_DATABASE_LAYERS,
  MAX_REPORTED_ERRORS,
  formatValidationErrors,
  validateDatabase,
} from './validate';
import type { DatabaseValidationError } from './validate';

function good(): { model: string; layers: string[]; modes: Record<string, number[]> } {
  return {
    model: 'vgg-ish',
    layers: ['conv1', 'conv2', 'fc'],
    modes: { A: [1, 2, 3], B: [1.5, 2.5, 3.5], L: [2, 4, 6] },
  };
}

function errorsOf(input: unknown, path?: string): DatabaseValidationError[] {
  const result = path === undefined ? validateDatabase(input) : validateDatabase(input, path);
  if (result.ok) throw new Error('expected the input to be rejected');
  return [...result.errors];
}

function lines(input: unknown): string[] {
  return formatValidationErrors(errorsOf(input)).split('\n');
}

describe('validateDatabase: good input', () => {
  it('accepts a database and returns a frozen copy, modes in A–L order', () => {
    const input = good();
    const result = validateDatabase(input);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.database).toEqual({
      model: 'vgg-ish',
      layers: ['conv1', 'conv2', 'fc'],
      modes: { A: [1, 2, 3], B: [1.5, 2.5, 3.5], L: [2, 4, 6] },
    });
    expect(Object.keys(result.database.modes)).toEqual(['A', 'B', 'L']);
    expect(Object.isFrozen(result.database)).toBe(true);
    expect(Object.isFrozen(result.database.layers)).toBe(true);
    expect(Object.isFrozen(result.database.modes.A)).toBe(true);
    // A copy: later changes to the input do not reach the database.
    input.layers[0] = 'changed';
    (input.modes['A'] ?? [])[0] = 99;
    expect(result.database.layers[0]).toBe('conv1');
    expect(result.database.modes.A?.[0]).toBe(1);
  });

  it('names a database without a model "custom" and accepts mode A alone', () => {
    const result = validateDatabase({ layers: ['x'], modes: { A: [0.001] } });
    expect(result).toEqual({
      ok: true,
      database: { model: 'custom', layers: ['x'], modes: { A: [0.001] } },
    });
  });

  it('accepts the largest allowed database', () => {
    const layers = Array.from({ length: MAX_DATABASE_LAYERS }, (_, i) => `l${i}`);
    const result = validateDatabase({ layers, modes: { A: layers.map(() => 1) } });
    expect(result.ok).toBe(true);
  });
});

describe('validateDatabase: bad input, field by field', () => {
  it('rejects what is not an object', () => {
    for (const input of [null, undefined, 3, 'db', true, [], [good()]]) {
      const errors = errorsOf(input);
      expect(errors).toHaveLength(1);
      expect(errors[0]?.path).toBe('database');
      expect(errors[0]?.message).toMatch(/^must be an object/);
    }
  });

  it('uses the path it is given', () => {
    expect(lines({ layers: [], modes: { A: [] } }).length).toBeGreaterThan(0);
    const errors = errorsOf({ layers: 'x', modes: { A: [1] } }, 'scenario.database');
    expect(errors[0]?.path).toBe('scenario.database.layers');
  });

  it('requires layers: a non-empty array of non-empty strings, at most 1024', () => {
    expect(lines({ modes: { A: [1] } })).toContain(
      'database.layers: is required: an array of layer names',
    );
    expect(lines({ layers: 'conv1', modes: { A: [1] } })).toContain(
      'database.layers: must be an array of layer names, got "conv1"',
    );
    expect(lines({ layers: [], modes: { A: [] } })).toContain(
      'database.layers: must name at least one layer',
    );
    expect(lines({ layers: ['a', '', 7, null], modes: { A: [1, 1, 1, 1] } })).toEqual([
      'database.layers[1]: must be a non-empty string, got ""',
      'database.layers[2]: must be a non-empty string, got 7',
      'database.layers[3]: must be a non-empty string, got null',
    ]);
    const tooMany = Array.from({ length: MAX_DATABASE_LAYERS + 1 }, () => 'l');
    expect(lines({ layers: tooMany, modes: { A: [1] } })).toContain(
      `database.layers: must have at most 1024 layers, got 1025`,
    );
    expect(lines({ layers: ['x'.repeat(201)], modes: { A: [1] } })).toEqual([
      'database.layers[0]: must be at most 200 characters, got 201',
    ]);
  });

  it('checks the model name only when given', () => {
    expect(lines({ ...good(), model: 42 })).toEqual([
      'database.model: must be a non-empty string, got 42',
    ]);
    expect(lines({ ...good(), model: '' })).toEqual([
      'database.model: must be a non-empty string, got ""',
    ]);
  });

  it('requires modes: an object with mode A', () => {
    expect(lines({ layers: ['a'] })).toEqual([
      'database.modes: is required: an object of times per mode, with at least mode A',
    ]);
    expect(lines({ layers: ['a'], modes: [[1]] })).toEqual([
      'database.modes: must be an object of times per mode (A–L), got an array',
    ]);
    expect(lines({ layers: ['a'], modes: { B: [1] } })).toEqual([
      'database.modes.A: is required: the times of each layer alone',
    ]);
  });

  it('rejects modes other than A–L', () => {
    expect(lines({ layers: ['a'], modes: { A: [1], M: [1], a: [1], 'A ': [1] } })).toEqual([
      'database.modes.M: unknown mode; modes are A–L',
      'database.modes.a: unknown mode; modes are A–L',
      'database.modes["A "]: unknown mode; modes are A–L',
    ]);
  });

  it('requires exactly one positive finite number per layer', () => {
    const input = {
      layers: Array.from({ length: 16 }, (_, i) => `l${i}`),
      modes: {
        A: Array.from({ length: 16 }, () => 1),
        B: [1, 1, 1, -1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
        C: Array.from({ length: 15 }, () => 1),
      },
    };
    expect(lines(input)).toEqual([
      'database.modes.B[3]: must be a positive finite number, got -1',
      'database.modes.C: must have 16 values (one per layer), got 15',
    ]);
  });

  it('keeps each time within the physical range of a layer, 1 µs to 10⁷ ms', () => {
    const input = { layers: ['a', 'b', 'c', 'd', 'e', 'f'], modes: { A: [1e308, 5e-324, 0.000999, 1e7 + 1, LAYER_TIME_RANGE_MS.min, LAYER_TIME_RANGE_MS.max] } };
    expect(lines(input)).toEqual([
      'database.modes.A[0]: must be a layer time from 0.001 ms (1 µs) to 10000000 ms, got 1e+308',
      'database.modes.A[1]: must be a layer time from 0.001 ms (1 µs) to 10000000 ms, got 5e-324',
      'database.modes.A[2]: must be a layer time from 0.001 ms (1 µs) to 10000000 ms, got 0.000999',
      'database.modes.A[3]: must be a layer time from 0.001 ms (1 µs) to 10000000 ms, got 10000001',
    ]);
    expect(validateDatabase({ layers: ['a', 'b'], modes: { A: [LAYER_TIME_RANGE_MS.min, LAYER_TIME_RANGE_MS.max] } }).ok).toBe(true);
  });

  it('names each kind of bad time', () => {
    const input = { layers: ['a', 'b', 'c', 'd', 'e', 'f', 'g'], modes: {} as Record<string, unknown> };
    input.modes['A'] = [0, Number.NaN, Infinity, '1', null, { ms: 1 }, [1]];
    expect(lines(input)).toEqual([
      'database.modes.A[0]: must be a positive finite number, got 0',
      'database.modes.A[1]: must be a positive finite number, got NaN',
      'database.modes.A[2]: must be a positive finite number, got Infinity',
      'database.modes.A[3]: must be a positive finite number, got "1"',
      'database.modes.A[4]: must be a positive finite number, got null',
      'database.modes.A[5]: must be a positive finite number, got an object',
      'database.modes.A[6]: must be a positive finite number, got an array',
    ]);
    // A hole in a sparse array is a missing value.
    const holes: unknown[] = [];
    holes.length = 2;
    expect(lines({ layers: ['a', 'b'], modes: { A: holes } })).toEqual([
      'database.modes.A[0]: must be a positive finite number, got nothing',
      'database.modes.A[1]: must be a positive finite number, got nothing',
    ]);
    expect(lines({ layers: ['a'], modes: { A: 5 } })).toEqual([
      'database.modes.A: must be an array of times in ms, got 5',
    ]);
  });

  it('rejects unknown top-level keys', () => {
    expect(lines({ ...good(), version: 2, Layers: [] })).toEqual([
      'database.version: unknown key; expected model, layers, modes',
      'database.Layers: unknown key; expected model, layers, modes',
    ]);
  });

  it('reports every problem at once, in a fixed order', () => {
    expect(lines({ model: 1, layers: ['a', 2], modes: { A: [1, 1], Z: [1, 1], C: [0] } })).toEqual([
      'database.model: must be a non-empty string, got 1',
      'database.layers[1]: must be a non-empty string, got 2',
      'database.modes.Z: unknown mode; modes are A–L',
      'database.modes.C[0]: must be a positive finite number, got 0',
    ]);
  });
});

describe('validateDatabase: hostile input', () => {
  it('rejects __proto__, constructor and prototype keys, as JSON.parse makes them', () => {
    const top = JSON.parse('{"layers":["a"],"modes":{"A":[1]},"__proto__":{"polluted":true}}');
    expect(lines(top)).toEqual(['database.__proto__: forbidden key']);
    const inModes = JSON.parse(
      '{"layers":["a"],"modes":{"A":[1],"__proto__":[1],"constructor":[1],"prototype":[1]}}',
    );
    expect(lines(inModes)).toEqual([
      'database.modes.__proto__: forbidden key',
      'database.modes.constructor: forbidden key',
      'database.modes.prototype: forbidden key',
    ]);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('ignores inherited properties', () => {
    const inherited = Object.create({ layers: ['a'], modes: { A: [1] } }) as object;
    expect(lines(inherited)).toEqual([
      'database.layers: is required: an array of layer names',
      'database.modes: is required: an object of times per mode, with at least mode A',
    ]);
  });

  it('survives throwing getters, proxies and revoked proxies', () => {
    const getter = { layers: ['a'], modes: {} };
    Object.defineProperty(getter.modes, 'A', {
      enumerable: true,
      get() {
        throw new Error('boom');
      },
    });
    expect(errorsOf(getter)).toEqual([
      { path: 'database', message: 'could not be read (a property threw when accessed)' },
    ]);

    const trap = new Proxy(good(), {
      ownKeys() {
        throw new Error('no keys for you');
      },
    });
    expect(errorsOf(trap)[0]?.path).toBe('database');

    const { proxy, revoke } = Proxy.revocable(good(), {});
    revoke();
    expect(errorsOf(proxy)[0]?.path).toBe('database');

    const throwingError = new Proxy(
      {},
      {
        ownKeys() {
          throw { get message(): string { throw new Error('nested'); } };
        },
      },
    );
    expect(errorsOf(throwingError)[0]?.path).toBe('database');
  });

  it('never walks an array that lies about its length', () => {
    const huge = new Proxy([] as number[], {
      get(target, key, receiver) {
        if (key === 'length') return 2 ** 32 - 1;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    const errors = errorsOf({ layers: ['a'], modes: { A: huge } });
    expect(errors[0]?.message).toBe(`must have 1 values (one per layer), got ${2 ** 32 - 1}`);
    expect(errors.length).toBeLessThanOrEqual(MAX_REPORTED_ERRORS + 1);
  });

  it('caps the number of errors reported', () => {
    const layers = Array.from({ length: 200 }, (_, i) => `l${i}`);
    const errors = errorsOf({ layers, modes: { A: layers.map(() => -1) } });
    expect(errors).toHaveLength(MAX_REPORTED_ERRORS + 1);
    expect(errors.at(-1)).toEqual({ path: 'database', message: '150 more errors not shown' });
  });

  it('never throws, and only accepts what it can vouch for (property test)', () => {
    fc.assert(
      fc.property(fc.anything({ withNullPrototype: true, withObjectString: true }), (input) => {
        const result = validateDatabase(input);
        if (result.ok) {
          const db = result.database;
          expect(db.layers.length).toBeGreaterThan(0);
          for (const times of Object.values(db.modes)) expect(times).toHaveLength(db.layers.length);
        } else {
          expect(result.errors.length).toBeGreaterThan(0);
        }
      }),
    );
  });

  it('never throws on near-miss databases (property test)', () => {
    const time = fc.oneof(fc.double(), fc.constant(-1), fc.string(), fc.constant(null));
    const arb = fc.record(
      {
        model: fc.oneof(fc.string(), fc.integer()),
        layers: fc.array(fc.oneof(fc.string(), fc.integer()), { maxLength: 5 }),
        modes: fc.dictionary(
          fc.oneof(fc.constantFrom('A', 'B', 'L', 'M', '__proto__', 'constructor'), fc.string()),
          fc.array(time, { maxLength: 5 }),
        ),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(arb, (input) => {
        const result = validateDatabase(input);
        if (!result.ok) {
          for (const e of result.errors) {
            expect(e.path.startsWith('database')).toBe(true);
            expect(e.message.length).toBeGreaterThan(0);
          }
        }
      }),
    );
  });
});
