import { useContext } from 'react';
import { allPresets } from '../../scenario/presets';
import { worldOf } from '../../kit/worlds';
import { pageWorldIn, PageWorldsContext, ShownWorldContext, useOpenInLab } from './pageWorld';

/**
 * The gallery of the presets of every world (ARCHITECTURE §4): a preset opens in the lab of its
 * world — the lab shown loads it, another lab opens with it and plays. Its own module, loaded
 * when the gallery is first opened, so that the first screen does not carry every preset.
 */
export function PresetsList({ onClose }: { readonly onClose: () => void }) {
  const open = useOpenInLab();
  const pages = useContext(PageWorldsContext);
  const here = useContext(ShownWorldContext);
  return (
    <ul className="presets" aria-label="Presets" data-testid="presets.list">
      {/* The shown lab's presets first, then the other worlds' (a stable sort keeps each world's order). */}
      {[...allPresets()].sort((a, b) => Number(worldOf(b.scenario).id === here) - Number(worldOf(a.scenario).id === here)).map((p) => {
        const scenario = p.scenario;
        const world = worldOf(scenario);
        const elsewhere = world.id !== here;
        const sweep = scenario.sweep === undefined ? '' : pageWorldIn(pages, world.id).explore ? ` The lab plays one cell; Explore (or \`npm run sim -- run ${p.id}\`) runs the whole sweep.` : ` The lab plays one cell; \`npm run sim -- run ${p.id}\` runs the whole sweep.`;
        return (
          <li key={p.id}>
            <button
              type="button"
              data-testid={`presets.${p.id}`}
              onClick={() => {
                onClose();
                void open({ world: scenario.world, scenario: structuredClone(scenario), source: 'preset', play: elsewhere });
              }}
            >
              {scenario.title}
            </button>
            <span className="preset-figure">{p.figure || `${world.id} world`}</span>
            <span className="preset-description">
              {p.description}
              {sweep}
              {elsewhere ? ` Opens ${world.labName}.` : ''}
            </span>
          </li>
        );
      })}
    </ul>
  );
}
