import { Presets, SingleBar } from 'cli-progress';

/** A progress bar of cells done; the CLI shows one only when standard error is a terminal. */
export interface Progress {
  update(done: number): void;
  stop(): void;
}

/** A cli-progress bar on standard error, for `sweep` on a terminal. */
export function terminalProgress(total: number, label: string): Progress {
  const bar = new SingleBar(
    { stream: process.stderr, format: `${label} [{bar}] {percentage}% | {value}/{total} cells | ETA {eta_formatted}`, hideCursor: true, clearOnComplete: false },
    Presets.shades_classic,
  );
  bar.start(total, 0);
  return {
    update: (done) => bar.update(done),
    stop: () => bar.stop(),
  };
}
