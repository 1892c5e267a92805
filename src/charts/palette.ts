/**
 * Colours of the lanes, in lane order: Okabe–Ito, readable for colour-blind viewers and on
 * a projector. The optimum and the peak reference lines use neutral greys.
 */
export const LANE_COLOURS: readonly string[] = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#F0E442', '#000000'];

export function laneColour(index: number): string {
  return LANE_COLOURS[index % LANE_COLOURS.length]!;
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
