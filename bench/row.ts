/** One row of the bench's table (bench/run.ts prints them and writes them to bench/results.json). */
export interface BenchRow {
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  readonly target?: string;
  readonly met?: boolean;
  readonly baseline?: number;
  readonly ratio?: number;
  readonly note?: string;
}
