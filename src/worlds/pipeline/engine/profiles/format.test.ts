import { describe, it, expect } from 'vitest';
import { getDatabase } from './databases';
import { formatProfileTable } from './format';
import type { LayerTimeDatabase } from './types';

describe('formatProfileTable', () => {
  it('aligns a header, one row per unit and a total row', () => {
    const db: LayerTimeDatabase = {
      model: 'tiny',
      layers: ['conv1', 'fc'],
      modes: { A: [1, 0.25], C: [12.3456, 2] },
    };
    expect(formatProfileTable(db)).toBe(
      [
        'layer      A       C',
        'conv1  1.000  12.346',
        'fc     0.250   2.000',
        'total  1.250  14.346',
      ].join('\n'),
    );
  });

  it('lists only the modes present, in A–L order', () => {
    const db: LayerTimeDatabase = {
      model: 'm',
      layers: ['a_rather_long_layer_name'],
      modes: { L: [3], A: [1], E: [2] },
    };
    const [header, row, total] = formatProfileTable(db).split('\n');
    expect(header?.split(/\s+/)).toEqual(['layer', 'A', 'E', 'L']);
    expect(row?.split(/\s+/)).toEqual(['a_rather_long_layer_name', '1.000', '2.000', '3.000']);
    expect(total?.startsWith('total ')).toBe(true);
    expect(header?.length).toBe(row?.length);
  });

  it('formats a full derived database: 12 modes, totals equal to the column sums', () => {
    const db = getDatabase('vgg16');
    const lines = formatProfileTable(db).split('\n');
    expect(lines).toHaveLength(db.layers.length + 2);
    expect(lines[0]?.split(/\s+/)).toEqual(['layer', ...'ABCDEFGHIJKL']);
    expect(new Set(lines.map((line) => line.length)).size).toBe(1);
    const totalE = (db.modes.E ?? []).reduce((s, t) => s + t, 0);
    expect(lines.at(-1)?.split(/\s+/)[5]).toBe(totalE.toFixed(3));
    for (const line of lines) expect(line).toBe(line.trimEnd());
  });
});
