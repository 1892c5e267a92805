/**
 * Plain-text view of a layer-time database, for the CLI and for reading a derived
 * database next to the paper's Table 1 and Figure 4.
 */
import { MODE_IDS } from './types';
import type { LayerTimeDatabase, ModeId } from './types';

const NAME_HEADER = 'layer';
const TOTAL_LABEL = 'total';
const DECIMALS = 3;
const GAP = '  ';

/**
 * An aligned table of `db`: a header line (`layer` and the modes present, in A–L order),
 * one row per unit with its time in ms under each mode (3 decimals), and a final `total`
 * row with the per-mode sums. Names are left-aligned, numbers right-aligned; lines are
 * joined with `\n`, with no trailing newline. A missing value (only possible in a
 * database that skipped validation) prints as `-`.
 */
export function formatProfileTable(db: LayerTimeDatabase): string {
  const modes: ModeId[] = MODE_IDS.filter((mode) => db.modes[mode] !== undefined);
  const header = [NAME_HEADER, ...modes];
  const rows: string[][] = db.layers.map((name, l) => [
    name,
    ...modes.map((mode) => {
      const ms = db.modes[mode]?.[l];
      return ms === undefined ? '-' : ms.toFixed(DECIMALS);
    }),
  ]);
  const totals = modes.map((mode) => {
    // Sum the values shown, in layer order, so the total row adds up the column above it.
    let sum = 0;
    db.layers.forEach((_, l) => {
      sum += db.modes[mode]?.[l] ?? 0;
    });
    return sum.toFixed(DECIMALS);
  });
  const table = [header, ...rows, [TOTAL_LABEL, ...totals]];

  const widths = header.map((_, column) =>
    table.reduce((width, row) => Math.max(width, (row[column] ?? '').length), 0),
  );
  return table
    .map((row) =>
      row
        .map((cell, column) => {
          const width = widths[column] ?? 0;
          return column === 0 ? cell.padEnd(width) : cell.padStart(width);
        })
        .join(GAP)
        .trimEnd(),
    )
    .join('\n');
}
