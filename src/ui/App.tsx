/** The schedulers the lab compares, in the papers' words. */
const SCHEDULERS: readonly { name: string; description: string }[] = [
  {
    name: 'ODIN',
    description:
      'rebalances the stages of a CNN inference pipeline online when interference hits an execution place.',
  },
  {
    name: 'LLS',
    description:
      'the least-loaded scheduler: moves one layer at a time from the most to the least utilized stage.',
  },
  {
    name: 'The exhaustive optimum',
    description: 'the best partition for the current interference, as a reference line.',
  },
  {
    name: 'BCEdge',
    description:
      'a learning scheduler (soft actor-critic) that picks batch size and concurrent instances per model on an edge GPU.',
  },
];

/**
 * The lab's first page: what it is, what it compares and how to run it today.
 * The live lab (scenario board, lanes, charts) replaces the "next" section.
 */
export function App() {
  return (
    <div className="page">
      <header className="page-header">
        <h1 data-testid="app.title">Interference Lab</h1>
        <p className="tagline">
          A browser lab for DNN inference schedulers under interference.
        </p>
      </header>

      <main className="page-main">
        <section aria-labelledby="about-heading">
          <h2 id="about-heading">What this is</h2>
          <p>
            Interference Lab is a lab to see, teach and share how online schedulers — ODIN, LLS,
            the exhaustive optimum and BCEdge&apos;s learning scheduler — keep DNN inference fast
            when co-located workloads interfere. Every scheduler runs on the same random trace,
            so the differences you see come from the algorithms, not from luck.
          </p>
          <ul className="scheduler-list">
            {SCHEDULERS.map((scheduler) => (
              <li key={scheduler.name}>
                <strong>{scheduler.name}</strong> — {scheduler.description}
              </li>
            ))}
          </ul>
        </section>

        <section aria-labelledby="next-heading">
          <h2 id="next-heading">Coming next: the live lab</h2>
          <p>
            Build a scenario, drop interference onto the hardware and watch the schedulers fight
            back, live and step by step — then share the scenario as a link that reopens exactly.
          </p>
        </section>

        <section aria-labelledby="cli-heading">
          <h2 id="cli-heading">Use it today from the command line</h2>
          <p>The same simulation engine runs in Node. List the scenarios that reproduce the papers:</p>
          <pre className="command">
            <code>npm run sim -- presets</code>
          </pre>
        </section>
      </main>

      <footer className="page-footer">
        <p>Runs entirely in your browser and makes no request to any other host.</p>
      </footer>
    </div>
  );
}
