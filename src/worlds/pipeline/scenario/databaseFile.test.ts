import { describe, expect, it } from 'vitest';
import { getDatabase } from '../engine/profiles/databases';
import type { LayerTimeDatabase } from '../engine/profiles/types';
import { databaseToCsv, databaseToJson, parseDatabaseFile } from './databaseFile';

const measured: LayerTimeDatabase = {
  model: 'custom',
  layers: ['a', 'b,c'],
  modes: { A: [1.25, 2], E: [3.5, 2.0000001] },
  measurement: {
    backend: 'wasm',
    threads: 1,
    runtime: 'Node v20 (linux x64)',
    cores: 2,
    inputSize: 32,
    repeats: 3,
    date: '2026-12-01T09:00:00.000Z',
    hogBufferMiB: 64,
    hogs: { A: 'alone', E: '2 memBW hogs' },
    hogRates: { A: {}, E: { memBytesPerS: 5e9 } },
    spreadMs: { A: [0.1, 0], E: [0.5, 0.25] },
  },
};

describe('database files', () => {
  it('JSON round trip keeps every field, the measurement record included', () => {
    const parsed = parseDatabaseFile(databaseToJson(measured));
    expect(parsed).toEqual({ ok: true, database: measured });
  });

  it('CSV round trip keeps the layers and times bit for bit, and recognises a built-in model', () => {
    const db = getDatabase('resnet152');
    const parsed = parseDatabaseFile(databaseToCsv(db));
    expect(parsed.ok && parsed.database).toEqual({ model: 'resnet152', layers: db.layers, modes: db.modes });
    const custom = parseDatabaseFile(databaseToCsv(measured));
    expect(custom.ok && custom.database).toEqual({ model: 'custom', layers: measured.layers, modes: measured.modes });
  });

  it('bad files get messages naming the field', () => {
    const errors = (text: string) => {
      const r = parseDatabaseFile(text);
      return r.ok ? [] : r.errors.map((e) => `${e.path}: ${e.message}`);
    };
    expect(errors('')).toEqual(['database: is empty: expected a header "layer,A,B,…" and one row per layer']);
    expect(errors('{"layers": ["a"], "modes": {"A": [1], "B": [-1]}}')).toEqual(['database.modes.B[0]: must be a positive finite number, got -1']);
    expect(errors('{"layers": ["a"], "modes": {"B": [1]}}')).toEqual(['database.modes.A: is required: the times of each layer alone']);
    expect(errors('{"layers": ["a"], "modes": {"A": [1]}')[0]).toMatch(/^database: is not valid JSON/);
    expect(errors('name,A\na,1')).toEqual(['database (header): the first column must be "layer", got "name"']);
    expect(errors('layer,A,Q\na,1,2')).toEqual(['database (header, column 3): must be a mode A–L, got "Q"']);
    expect(errors('layer,A\na,1,2')).toEqual(['database (row 2): must have 2 cells, got 3']);
    expect(errors('layer,A,B\na,1,\nb,2,x')).toEqual(['database.modes.B[0]: must be a positive finite number, got NaN', 'database.modes.B[1]: must be a positive finite number, got NaN']);
    const bad = JSON.parse(databaseToJson(measured)) as { measurement: { spreadMs: { E: number[] }; repeats: number } };
    bad.measurement.spreadMs.E = [1];
    bad.measurement.repeats = 0;
    expect(errors(JSON.stringify(bad))).toEqual([
      'database.measurement.repeats: must be an integer from 1 to 10000, got 0',
      'database.measurement.spreadMs.E: must have 2 values (one per layer), got 1',
    ]);
    expect(errors('x'.repeat(3 * 1024 * 1024))[0]).toMatch(/at most/);
  });
});
