import { PRESETS } from '../scenario/presets';
import type { PipelineScenario, ServingScenario } from '../scenario/schema';

/**
 * The gallery of presets of both worlds (ARCHITECTURE §4): a pipeline preset loads in the
 * pipeline lab, a serving one opens the serving lab. Its own module, loaded when the gallery is
 * first opened, so that the first screen does not carry every preset (issue 12).
 */
export function PresetsGallery({
  onLoad,
  onOpenServing,
  onClose,
}: {
  readonly onLoad: (scenario: PipelineScenario) => void;
  readonly onOpenServing: ((scenario: ServingScenario) => void) | undefined;
  readonly onClose: () => void;
}) {
  return (
    <ul className="presets" aria-label="Presets">
      {PRESETS.map((p) => {
        const scenario = p.scenario;
        if (scenario.world === 'serving') {
          return (
            <li key={p.id}>
              <button
                type="button"
                data-testid={`presets.${p.id}`}
                disabled={onOpenServing === undefined}
                onClick={() => {
                  onClose();
                  onOpenServing?.(structuredClone(scenario));
                }}
              >
                {scenario.title}
              </button>
              <span className="preset-figure">{p.figure || 'serving world'}</span>
              <span className="preset-description">
                {p.description} {scenario.sweep !== undefined ? `The lab plays one cell; \`npm run sim -- run ${p.id}\` runs the whole sweep.` : 'Opens the serving lab.'}
              </span>
            </li>
          );
        }
        return (
          <li key={p.id}>
            <button
              type="button"
              data-testid={`presets.${p.id}`}
              onClick={() => {
                onLoad(structuredClone(scenario));
              }}
            >
              {scenario.title}
            </button>
            <span className="preset-figure">{p.figure || 'the lab'}</span>
            <span className="preset-description">
              {p.description}
              {scenario.sweep ? ' The lab plays one cell; Explore (or `npm run sim -- run ' + p.id + '`) runs the whole sweep.' : ''}
            </span>
          </li>
        );
      })}
    </ul>
  );
}
