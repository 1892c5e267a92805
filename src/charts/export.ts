import { CHAR_PX, type LegendItem } from './runtime';

/** How a legend entry's swatch is drawn: the kinds of the HTML legend (`renderLegend`). */
export type ExportSwatch = LegendItem['swatch'];

/** A legend entry of an exported chart. */
export interface ExportLegendItem {
  readonly label: string;
  /** Any CSS colour; `var(…)` and `currentColor` are resolved against the live chart. */
  readonly colour: string;
  /** Default 'area': a filled square. 'text' draws the label alone. */
  readonly swatch?: ExportSwatch;
}

export interface ChartExportOptions {
  /** Drawn at the top, as the figure's caption is on screen. */
  readonly title?: string;
  /** Drawn between the title and the chart: the HTML legend lives outside the SVG. */
  readonly legend?: readonly ExportLegendItem[];
}

export interface ChartPngOptions extends ChartExportOptions {
  /** Device pixels per CSS pixel of the PNG; default 2 (sharp on a projector and in a paper). */
  readonly scale?: number;
}

/** A rectangle, px. */
export interface Box {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** Geometry of an export, px. The values mirror charts.css so that a file looks like the figure. */
export const EXPORT_STYLE = {
  padding: 12,
  background: '#ffffff',
  titleFontPx: 16,
  titleFontWeight: 700,
  titleLineHeight: 21,
  legendFontPx: 13,
  legendRowHeight: 18,
  legendRowGap: 3,
  legendItemGap: 14,
  swatchWidth: 22,
  swatchHeight: 12,
  swatchGap: 6,
  sectionGap: 6,
  /** Labels may hang out of the SVG's box (`overflow: visible`); at most this much is kept. */
  maxOverflowPx: 48,
  /** Largest side of a PNG, device px (browsers refuse bigger canvases). */
  maxPngSidePx: 8192,
} as const;

/**
 * Computed properties copied onto every cloned element. Inline styles of the live element
 * are copied too, whatever they are: the charts set some through `var(…)`, which a
 * standalone file cannot resolve.
 */
const STYLE_PROPERTIES = [
  'color',
  'display',
  'visibility',
  'opacity',
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-opacity',
  'stroke-width',
  'stroke-dasharray',
  'stroke-linecap',
  'stroke-linejoin',
  'paint-order',
  'font-family',
  'font-size',
  'font-style',
  'font-weight',
  'text-anchor',
  'dominant-baseline',
] as const;

const SVG_NS = 'http://www.w3.org/2000/svg';

// ---------------------------------------------------------------------------------------------
// Pure helpers (unit-tested in Node)

/**
 * File name of an exported chart: the title as a lower-case slug plus the extension, e.g.
 * ("Throughput over time", "svg") → "throughput-over-time.svg". Accents are dropped and any
 * other run of characters becomes one hyphen; an empty slug becomes "chart".
 */
export function chartFileName(title: string, ext: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
  const extension = ext.replace(/^\.+/, '').toLowerCase();
  if (extension === '') throw new RangeError('chartFileName: the extension is empty');
  return `${slug === '' ? 'chart' : slug}.${extension}`;
}

/**
 * Greedy word wrap: lines no wider than `maxWidth` where the words allow it (a word wider
 * than the line stays whole, on its own line). An empty text gives no lines.
 */
export function wrapText(text: string, maxWidth: number, measure: (text: string) => number): string[] {
  const words = text.split(/\s+/).filter((w) => w !== '');
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    const candidate = line === '' ? word : `${line} ${word}`;
    if (line !== '' && measure(candidate) > maxWidth) {
      lines.push(line);
      line = word;
    } else {
      line = candidate;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}

/** A legend entry placed in the export: its swatch box at (x, top), its label at labelX. */
export interface PlacedLegendItem {
  readonly label: string;
  readonly colour: string;
  readonly swatch: ExportSwatch;
  readonly x: number;
  /** Top of the entry's row, relative to the legend's top. */
  readonly top: number;
  /** Vertical centre of the row (labels and swatches are centred on it). */
  readonly centreY: number;
  readonly labelX: number;
  readonly width: number;
}

export interface LegendLayout {
  readonly items: readonly PlacedLegendItem[];
  readonly rows: number;
  readonly height: number;
}

/**
 * Lays legend entries out in rows no wider than `maxWidth`, left to right, as the HTML
 * legend's flex-wrap does (an entry wider than a row gets a row of its own).
 */
export function layoutLegend(items: readonly ExportLegendItem[], maxWidth: number, measure: (text: string) => number): LegendLayout {
  const s = EXPORT_STYLE;
  const placed: PlacedLegendItem[] = [];
  let x = 0;
  let row = 0;
  for (const item of items) {
    const swatch = item.swatch ?? 'area';
    const swatchWidth = swatch === 'text' ? 0 : s.swatchWidth + s.swatchGap;
    const width = swatchWidth + measure(item.label);
    if (x > 0 && x + width > maxWidth) {
      row += 1;
      x = 0;
    }
    const top = row * (s.legendRowHeight + s.legendRowGap);
    placed.push({ label: item.label, colour: item.colour, swatch, x, top, centreY: top + s.legendRowHeight / 2, labelX: x + swatchWidth, width });
    x += width + s.legendItemGap;
  }
  const rows = placed.length === 0 ? 0 : row + 1;
  return { items: placed, rows, height: rows === 0 ? 0 : rows * s.legendRowHeight + (rows - 1) * s.legendRowGap };
}

/**
 * The part of a chart an export keeps, relative to the chart's viewport: the viewport plus
 * whatever `overflow` boxes (labels) hang out of it, at most `maxOverflowPx` on each side,
 * rounded outwards to whole pixels. Empty boxes (hidden elements) are ignored.
 */
export function contentBox(viewport: Box, overflow: readonly Box[], maxOverflowPx: number = EXPORT_STYLE.maxOverflowPx): Box {
  let left = viewport.x;
  let top = viewport.y;
  let right = viewport.x + viewport.width;
  let bottom = viewport.y + viewport.height;
  for (const b of overflow) {
    if (!(b.width > 0 || b.height > 0)) continue;
    left = Math.min(left, b.x);
    top = Math.min(top, b.y);
    right = Math.max(right, b.x + b.width);
    bottom = Math.max(bottom, b.y + b.height);
  }
  left = Math.floor(Math.max(left, viewport.x - maxOverflowPx));
  top = Math.floor(Math.max(top, viewport.y - maxOverflowPx));
  right = Math.ceil(Math.min(right, viewport.x + viewport.width + maxOverflowPx));
  bottom = Math.ceil(Math.min(bottom, viewport.y + viewport.height + maxOverflowPx));
  return { x: left, y: top, width: right - left, height: bottom - top };
}

/** One line of the exported title, centred vertically on `centreY`. */
export interface TitleLine {
  readonly text: string;
  readonly x: number;
  readonly centreY: number;
}

/** Where everything goes in an exported chart, px. */
export interface ExportLayout {
  readonly width: number;
  readonly height: number;
  readonly title: readonly TitleLine[];
  /** Legend entries, already offset to the export's coordinates. */
  readonly legend: readonly PlacedLegendItem[];
  /** Where the chart's viewport origin (its 0, 0) lands. */
  readonly chartX: number;
  readonly chartY: number;
}

/**
 * Lays out an export as the figure is on screen: title, legend, then the chart, with a
 * margin around. `chart` is the kept part of the chart relative to its viewport (see
 * `contentBox`); the title and the legend wrap at its width.
 */
export function exportLayout(input: {
  readonly chart: Box;
  readonly title?: string | undefined;
  readonly legend?: readonly ExportLegendItem[] | undefined;
  readonly measureTitle: (text: string) => number;
  readonly measureLegend: (text: string) => number;
}): ExportLayout {
  const s = EXPORT_STYLE;
  const { chart } = input;
  if (!(chart.width > 0 && chart.height > 0)) throw new RangeError(`exportLayout: the chart is empty (${chart.width}×${chart.height})`);
  const innerWidth = chart.width;
  let y = s.padding;
  const titleLines = wrapText(input.title ?? '', innerWidth, input.measureTitle);
  const title = titleLines.map((text, i): TitleLine => ({ text, x: s.padding, centreY: y + (i + 0.5) * s.titleLineHeight }));
  if (title.length > 0) y += title.length * s.titleLineHeight + s.sectionGap;
  const legendLayout = layoutLegend(input.legend ?? [], innerWidth, input.measureLegend);
  const legendTop = y;
  const legend = legendLayout.items.map((item) => ({
    ...item,
    x: item.x + s.padding,
    labelX: item.labelX + s.padding,
    top: item.top + legendTop,
    centreY: item.centreY + legendTop,
  }));
  if (legendLayout.rows > 0) y += legendLayout.height + s.sectionGap;
  return {
    width: innerWidth + 2 * s.padding,
    height: y + chart.height + s.padding,
    title,
    legend,
    chartX: s.padding - chart.x,
    chartY: y - chart.y,
  };
}

/** An SVG shape: its tag and attributes. */
export interface SwatchShape {
  readonly tag: 'line' | 'path' | 'rect' | 'circle';
  readonly attrs: Readonly<Record<string, string | number>>;
}

/**
 * The shapes of a legend swatch in a 22×12 box, drawn like the HTML legend's spans
 * (`renderLegend` in runtime.ts): a line, a dashed line, a step, a square, a circle, a
 * tick or a dot on a stem. 'text' has none.
 */
export function swatchShapes(swatch: ExportSwatch, colour: string): readonly SwatchShape[] {
  const w = EXPORT_STYLE.swatchWidth;
  const h = EXPORT_STYLE.swatchHeight;
  const cx = w / 2;
  const cy = h / 2;
  const stroke = (width: number) => ({ fill: 'none', stroke: colour, 'stroke-width': width });
  switch (swatch) {
    case 'line':
      return [{ tag: 'line', attrs: { x1: 1, y1: cy, x2: w - 1, y2: cy, ...stroke(3) } }];
    case 'dashed':
      return [{ tag: 'line', attrs: { x1: 1, y1: cy, x2: w - 1, y2: cy, ...stroke(2), 'stroke-dasharray': '4 3' } }];
    case 'step':
      return [{ tag: 'path', attrs: { d: `M1 ${h - 1}H${cx}V1H${w - 1}`, ...stroke(2) } }];
    case 'area':
      return [{ tag: 'rect', attrs: { x: cx - 7, y: 0, width: 14, height: h, rx: 2, fill: colour } }];
    case 'circle':
      return [{ tag: 'circle', attrs: { cx, cy, r: 5, fill: colour } }];
    case 'tick':
      return [{ tag: 'line', attrs: { x1: cx, y1: 0, x2: cx, y2: h, ...stroke(2) } }];
    case 'dot':
      return [
        { tag: 'circle', attrs: { cx, cy: 3, r: 3, fill: colour } },
        { tag: 'line', attrs: { x1: cx, y1: 6, x2: cx, y2: h, ...stroke(2) } },
      ];
    case 'text':
      return [];
  }
}

/** The swatch kind named by a `chart-swatch-<kind>` class, or null. */
export function swatchKind(className: string): ExportSwatch | null {
  const match = /(?:^|\s)chart-swatch-(line|dashed|step|area|tick|dot|circle|text)(?:\s|$)/.exec(className);
  return match ? (match[1] as ExportSwatch) : null;
}

/**
 * Makes `url(…)` references in a computed value local: browsers may resolve `url(#clip)`
 * against the page (`url("http://host/page#clip")`), which points nowhere in a file.
 */
export function localUrlRefs(value: string): string {
  return value.replace(/url\(\s*(["']?)[^"')]*?(#[^"')]+)\1\s*\)/g, 'url($2)');
}

/** Size of a PNG canvas, device px: `scale` × the CSS size, shrunk to keep both sides ≤ maxSide. */
export function pngSize(width: number, height: number, scale: number, maxSide: number = EXPORT_STYLE.maxPngSidePx): { width: number; height: number; scale: number } {
  if (!(scale > 0 && Number.isFinite(scale))) throw new RangeError(`PNG scale must be a positive number, got ${scale}`);
  if (!(width > 0 && height > 0)) throw new RangeError(`PNG size must be positive, got ${width}×${height}`);
  const s = Math.min(scale, maxSide / width, maxSide / height);
  return { width: Math.max(1, Math.round(width * s)), height: Math.max(1, Math.round(height * s)), scale: s };
}

// ---------------------------------------------------------------------------------------------
// DOM: reading the live chart and building the file

/** A measurer of text width in a font, on a canvas; CHAR_PX per character where there is none. */
function fontMeasurer(font: string, fontPx: number): (text: string) => number {
  const context = document.createElement('canvas').getContext('2d');
  if (context === null) return (text) => (text.length * CHAR_PX * fontPx) / 12;
  context.font = font;
  return (text) => Math.ceil(context.measureText(text).width);
}

/** Copies the computed styles of `live` and its descendants onto the clone, element by element. */
function inlineStyles(live: Element, clone: Element, root: boolean): void {
  const computed = getComputedStyle(live);
  const liveStyle = (live as SVGElement).style as CSSStyleDeclaration | undefined;
  const cloneStyle = (clone as SVGElement).style as CSSStyleDeclaration | undefined;
  if (cloneStyle !== undefined) {
    const names = new Set<string>(STYLE_PROPERTIES);
    if (root) {
      // The root's inline size (width: 100%) means nothing in a file; its attributes say it.
      clone.removeAttribute('style');
    } else if (liveStyle !== undefined) {
      for (let i = 0; i < liveStyle.length; i++) names.add(liveStyle.item(i));
    }
    for (const name of names) {
      const value = computed.getPropertyValue(name);
      if (value !== '') cloneStyle.setProperty(name, localUrlRefs(value));
    }
  }
  const liveChildren = live.children;
  const cloneChildren = clone.children;
  for (let i = 0; i < liveChildren.length && i < cloneChildren.length; i++) inlineStyles(liveChildren[i]!, cloneChildren[i]!, false);
}

/**
 * Resolves a colour the way the chart sees it (`var(--chart-peak, …)`, `currentColor`) by
 * asking the browser, with a probe inside the live SVG.
 */
function colourResolver(svg: SVGSVGElement): (colour: string) => string {
  const cache = new Map<string, string>();
  return (colour) => {
    if (!/var\(|currentcolor/i.test(colour)) return colour;
    let resolved = cache.get(colour);
    if (resolved === undefined) {
      const probe = document.createElementNS(SVG_NS, 'g');
      probe.style.setProperty('fill', colour);
      svg.append(probe);
      resolved = getComputedStyle(probe).fill || colour;
      probe.remove();
      cache.set(colour, resolved);
    }
    return resolved;
  };
}

/** Boxes of the chart's visible texts relative to the SVG's top-left: labels may hang out of it. */
function textBoxes(svg: SVGSVGElement, origin: DOMRect): Box[] {
  const boxes: Box[] = [];
  for (const text of svg.querySelectorAll('text')) {
    // A clipped text cannot show outside the clip, which lies inside the chart.
    if (text.closest('[clip-path]') !== null) continue;
    const r = text.getBoundingClientRect();
    boxes.push({ x: r.left - origin.left, y: r.top - origin.top, width: r.width, height: r.height });
  }
  return boxes;
}

function appendSvg(parent: Element, tag: string, attrs: Readonly<Record<string, string | number>>, text?: string): SVGElement {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  parent.append(el);
  return el;
}

/** Builds the exported SVG document and returns its markup and size. */
function buildExport(svg: SVGSVGElement, options: ChartExportOptions): { markup: string; width: number; height: number } {
  const origin = svg.getBoundingClientRect();
  const viewport: Box = { x: 0, y: 0, width: origin.width, height: origin.height };
  if (!(viewport.width > 0 && viewport.height > 0)) throw new RangeError('The chart has not been drawn yet: it has no size.');
  const chart = contentBox(viewport, textBoxes(svg, origin));

  const style = getComputedStyle(svg);
  const fontFamily = style.fontFamily || 'sans-serif';
  const textColour = style.color || '#000000';
  const s = EXPORT_STYLE;
  const layout = exportLayout({
    chart,
    title: options.title,
    legend: options.legend,
    measureTitle: fontMeasurer(`${s.titleFontWeight} ${s.titleFontPx}px ${fontFamily}`, s.titleFontPx),
    measureLegend: fontMeasurer(`${s.legendFontPx}px ${fontFamily}`, s.legendFontPx),
  });
  const resolve = colourResolver(svg);

  const out = document.createElementNS(SVG_NS, 'svg');
  out.setAttribute('xmlns', SVG_NS);
  out.setAttribute('width', String(layout.width));
  out.setAttribute('height', String(layout.height));
  out.setAttribute('viewBox', `0 0 ${layout.width} ${layout.height}`);
  out.style.setProperty('font-family', fontFamily);
  out.style.setProperty('color', textColour);
  if (options.title !== undefined && options.title !== '') appendSvg(out, 'title', {}, options.title);
  appendSvg(out, 'rect', { x: 0, y: 0, width: layout.width, height: layout.height, fill: s.background });

  for (const line of layout.title) {
    appendSvg(
      out,
      'text',
      { x: line.x, y: line.centreY, 'dominant-baseline': 'central', fill: textColour, 'font-size': s.titleFontPx, 'font-weight': s.titleFontWeight },
      line.text,
    );
  }
  if (layout.legend.length > 0) {
    const legend = appendSvg(out, 'g', { class: 'chart-legend', 'font-size': s.legendFontPx, fill: textColour });
    for (const item of layout.legend) {
      const entry = appendSvg(legend, 'g', { class: 'chart-legend-item' });
      const shapes = swatchShapes(item.swatch, resolve(item.colour));
      if (shapes.length > 0) {
        const swatch = appendSvg(entry, 'g', { transform: `translate(${item.x},${item.centreY - s.swatchHeight / 2})` });
        for (const shape of shapes) appendSvg(swatch, shape.tag, shape.attrs);
      }
      appendSvg(entry, 'text', { x: item.labelX, y: item.centreY, 'dominant-baseline': 'central' }, item.label);
    }
  }

  // The chart itself: a deep clone with the computed styles inlined, nested as an inner SVG
  // so that its own viewBox keeps mapping its coordinates.
  const clone = svg.cloneNode(true) as SVGSVGElement;
  inlineStyles(svg, clone, true);
  clone.setAttribute('x', String(layout.chartX));
  clone.setAttribute('y', String(layout.chartY));
  clone.setAttribute('width', String(viewport.width));
  clone.setAttribute('height', String(viewport.height));
  if (!clone.hasAttribute('viewBox')) clone.setAttribute('viewBox', `0 0 ${viewport.width} ${viewport.height}`);
  clone.setAttribute('overflow', 'visible');
  clone.style.setProperty('overflow', 'visible');
  out.append(clone);

  const markup = `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(out)}\n`;
  return { markup, width: layout.width, height: layout.height };
}

/**
 * The chart as a standalone SVG document that looks like it does on screen: computed
 * styles inlined (CSS variables and currentColor resolved), a white background, and the
 * title and legend — which are HTML outside the chart's SVG — drawn above the chart.
 * Throws a RangeError when the chart has not been drawn yet.
 */
export function chartSvgString(svg: SVGSVGElement, options: ChartExportOptions = {}): string {
  return buildExport(svg, options).markup;
}

function loadImage(url: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve(image);
    image.onerror = () => reject(new Error('The browser could not render the chart as an image.'));
    image.src = url;
  });
}

/**
 * The chart as a PNG: `chartSvgString` rendered through an `<img>` from a `blob:` URL onto
 * a canvas, `scale` device pixels per CSS pixel (default 2; shrunk if a side would exceed
 * EXPORT_STYLE.maxPngSidePx). Makes no request: works under `img-src 'self' data: blob:`.
 */
export async function chartPngBlob(svg: SVGSVGElement, options: ChartPngOptions = {}): Promise<Blob> {
  const { markup, width, height } = buildExport(svg, options);
  const size = pngSize(width, height, options.scale ?? 2);
  const url = URL.createObjectURL(new Blob([markup], { type: 'image/svg+xml;charset=utf-8' }));
  const canvas = document.createElement('canvas');
  canvas.width = size.width;
  canvas.height = size.height;
  try {
    const image = await loadImage(url);
    const context = canvas.getContext('2d');
    if (context === null) throw new Error('This browser has no 2D canvas to draw the PNG on.');
    context.fillStyle = EXPORT_STYLE.background;
    context.fillRect(0, 0, size.width, size.height);
    context.drawImage(image, 0, 0, size.width, size.height);
  } finally {
    URL.revokeObjectURL(url);
  }
  return new Promise((resolve, reject) => {
    canvas.toBlob((blob) => (blob === null ? reject(new Error('The browser could not encode the PNG.')) : resolve(blob)), 'image/png');
  });
}

/**
 * The entries of a chart's HTML legend (`ul.chart-legend` built by `renderLegend`) as they
 * are on screen: label, swatch kind (from its `chart-swatch-<kind>` class) and computed
 * colour. Empty when `container` holds no legend.
 */
export function legendFromHtml(container: ParentNode): ExportLegendItem[] {
  const items: ExportLegendItem[] = [];
  for (const li of container.querySelectorAll<HTMLElement>('.chart-legend .chart-legend-item')) {
    const label = (li.textContent ?? '').trim();
    const swatchEl = li.querySelector<HTMLElement>('.chart-swatch');
    const swatch = swatchEl === null ? 'text' : (swatchKind(swatchEl.className) ?? 'area');
    const part = swatchEl?.firstElementChild ?? null;
    let colour = '';
    if (part !== null) {
      const cs = getComputedStyle(part);
      colour =
        swatch === 'line' || swatch === 'dashed'
          ? cs.borderTopColor
          : swatch === 'step'
            ? cs.borderBottomColor
            : swatch === 'tick'
              ? cs.borderLeftColor
              : cs.backgroundColor;
    }
    if (label !== '' || swatch !== 'text') items.push({ label, colour, swatch });
  }
  return items;
}
