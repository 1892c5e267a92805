/**
 * Colours of the lanes, in lane order: Okabe–Ito, readable for colour-blind viewers and on
 * a projector. The optimum and the peak reference lines use neutral greys.
 */
export const LANE_COLOURS: readonly string[] = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#F0E442', '#000000'];

/**
 * More colours for labs of up to ten lanes (the serving lab: six schedulers and the oracles), from
 * Paul Tol's muted scheme, distinct from the eight above.
 */
export const EXTRA_LANE_COLOURS: readonly string[] = ['#882255', '#44AA99', '#999933', '#332288'];

/**
 * Each scheduler's own colour, the same in every scenario of its lab (issue 37: DeepRT and "best
 * fixed per phase" shared orange, lane colours changed between scenarios). Ids of both labs'
 * registries; an id not listed takes the first colour no lane of the scenario has. The oracles
 * are in greys and dark tones, the learners in the bright ones.
 */
const SCHEDULER_COLOURS: Readonly<Record<string, string>> = {
  // The pipeline lab (ODIN).
  odin: '#0072B2',
  lls: '#D55E00',
  optimal: '#009E73',
  static: '#CC79A7',
  evict: '#E69F00',
  // The serving lab (BCEdge).
  bcedge: '#0072B2',
  fixed: '#56B4E9',
  deeprt: '#D55E00',
  ga: '#009E73',
  tac: '#CC79A7',
  ppo: '#E69F00',
  ddqn: '#882255',
  'fixed-hindsight': '#000000',
  'fixed-per-phase': '#332288',
};

const ALL_COLOURS: readonly string[] = [...LANE_COLOURS.filter((c) => c !== '#F0E442'), ...EXTRA_LANE_COLOURS, '#F0E442'];

/**
 * The colours of a scenario's lanes, by their schedulers: the first lane of a scheduler takes the
 * scheduler's own colour; a second lane of it (ODIN α=2 beside α=10), or a scheduler with none,
 * takes the first colour no lane has, so that the lanes of a scenario are always told apart.
 */
export function laneColoursFor(schedulers: readonly string[]): string[] {
  const used = new Set<string>();
  const out: (string | null)[] = schedulers.map((id) => {
    const own = SCHEDULER_COLOURS[id];
    if (own === undefined || used.has(own)) return null;
    used.add(own);
    return own;
  });
  return out.map((colour) => {
    if (colour !== null) return colour;
    const free = ALL_COLOURS.find((c) => !used.has(c)) ?? ALL_COLOURS[used.size % ALL_COLOURS.length]!;
    used.add(free);
    return free;
  });
}

/** The colours of the lanes of the lab shown (`useLaneColours`); lane order until a lab has set them. */
let shownLaneColours: readonly string[] = [];

/**
 * Sets the lanes' colours for the lab shown, from its lanes' schedulers (the page shell calls it
 * when the lanes change, before the charts draw): one table every chart and lane card reads
 * through `laneColour`, so none of them needs the schedulers.
 */
export function setShownLaneSchedulers(schedulers: readonly string[]): void {
  shownLaneColours = laneColoursFor(schedulers);
}

/** The colour of lane `index` of the lab shown. */
export function laneColour(index: number): string {
  return shownLaneColours[index] ?? LANE_COLOURS[index % LANE_COLOURS.length]!;
}

export const REFERENCE_COLOURS = { peak: '#6b6b6b', optimum: '#222222' } as const;

/** Colour of layer `l` of `count` on the board and in the configuration chart (by stage for the latter). */
export function stageColour(index: number, count: number): string {
  const hue = Math.round((360 * index) / Math.max(1, count));
  return `hsl(${hue} 55% 55%)`;
}

/**
 * Fill of layer block `index` of `count` on the board: light enough that dark text on it
 * keeps a contrast ratio above 4.5 (WCAG AA) whatever the hue.
 */
export function layerColour(index: number, count: number): string {
  const hue = Math.round((360 * index) / Math.max(1, count));
  return `hsl(${hue} 65% 80%)`;
}
