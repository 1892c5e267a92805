import { describe, expect, it } from 'vitest';
import {
  EXPORT_STYLE,
  chartFileName,
  contentBox,
  exportLayout,
  layoutLegend,
  localUrlRefs,
  pngSize,
  swatchKind,
  swatchShapes,
  wrapText,
  type ExportSwatch,
} from './export';

/** 10 px per character: easy widths to reason about. */
const measure = (text: string) => text.length * 10;

describe('chartFileName', () => {
  it('slugs the title and appends the extension', () => {
    expect(chartFileName('Throughput over time', 'svg')).toBe('throughput-over-time.svg');
    expect(chartFileName('SLO violations (ODIN Figure 9)', 'png')).toBe('slo-violations-odin-figure-9.png');
    expect(chartFileName('Stage times of the selected lane', '.PNG')).toBe('stage-times-of-the-selected-lane.png');
  });

  it('drops accents and collapses other characters into one hyphen', () => {
    expect(chartFileName('  Débit — α=10 / β ', 'svg')).toBe('debit-10.svg');
  });

  it('falls back to "chart" and refuses an empty extension', () => {
    expect(chartFileName('—', 'svg')).toBe('chart.svg');
    expect(chartFileName('', 'png')).toBe('chart.png');
    expect(() => chartFileName('x', '')).toThrow(RangeError);
  });

  it('keeps long names bounded without a trailing hyphen', () => {
    const name = chartFileName(`${'a'.repeat(79)} b`, 'svg');
    expect(name).toBe(`${'a'.repeat(79)}.svg`);
  });
});

describe('wrapText', () => {
  it('breaks between words at the width', () => {
    expect(wrapText('aa bb cc', 50, measure)).toEqual(['aa bb', 'cc']);
    expect(wrapText('aa bb cc', 80, measure)).toEqual(['aa bb cc']);
  });

  it('keeps a word wider than the line whole and gives no lines for blank text', () => {
    expect(wrapText('abcdefgh ij', 30, measure)).toEqual(['abcdefgh', 'ij']);
    expect(wrapText('   ', 30, measure)).toEqual([]);
  });
});

describe('layoutLegend', () => {
  const s = EXPORT_STYLE;
  const swatchRoom = s.swatchWidth + s.swatchGap;

  it('places entries left to right with the swatch before the label', () => {
    const layout = layoutLegend(
      [
        { label: 'ODIN', colour: '#0072B2', swatch: 'line' },
        { label: 'LLS', colour: '#D55E00' },
      ],
      1000,
      measure,
    );
    expect(layout.rows).toBe(1);
    expect(layout.height).toBe(s.legendRowHeight);
    const [a, b] = layout.items;
    expect(a).toMatchObject({ x: 0, labelX: swatchRoom, top: 0, centreY: s.legendRowHeight / 2, swatch: 'line', width: swatchRoom + 40 });
    expect(b).toMatchObject({ x: swatchRoom + 40 + s.legendItemGap, swatch: 'area', colour: '#D55E00' });
  });

  it('wraps to a new row when an entry does not fit, and text entries have no swatch room', () => {
    const width = swatchRoom + 40;
    const layout = layoutLegend(
      [
        { label: 'ODIN', colour: 'red', swatch: 'line' },
        { label: 'LLS!', colour: 'blue', swatch: 'line' },
        { label: 'note', colour: '', swatch: 'text' },
      ],
      width + s.legendItemGap + 60,
      measure,
    );
    expect(layout.rows).toBe(2);
    expect(layout.height).toBe(2 * s.legendRowHeight + s.legendRowGap);
    expect(layout.items[1]).toMatchObject({ x: 0, top: s.legendRowHeight + s.legendRowGap });
    // The text entry (40 px, no swatch) fits after LLS on the second row.
    expect(layout.items[2]).toMatchObject({ x: width + s.legendItemGap, labelX: width + s.legendItemGap, width: 40 });
  });

  it('gives an entry wider than the row a row of its own', () => {
    const layout = layoutLegend(
      [
        { label: 'a', colour: 'red' },
        { label: 'x'.repeat(50), colour: 'red' },
        { label: 'b', colour: 'red' },
      ],
      100,
      measure,
    );
    expect(layout.items.map((i) => i.top / (s.legendRowHeight + s.legendRowGap))).toEqual([0, 1, 2]);
  });

  it('is empty for no entries', () => {
    expect(layoutLegend([], 100, measure)).toEqual({ items: [], rows: 0, height: 0 });
  });
});

describe('contentBox', () => {
  const viewport = { x: 0, y: 0, width: 400, height: 300 };

  it('is the viewport when nothing hangs out', () => {
    expect(contentBox(viewport, [{ x: 10, y: 10, width: 20, height: 10 }])).toEqual(viewport);
  });

  it('grows to labels that hang out, rounded outwards, at most maxOverflowPx per side', () => {
    const box = contentBox(viewport, [
      { x: -5.5, y: 2, width: 20, height: 10 },
      { x: 390, y: 295.2, width: 30.1, height: 10 },
      { x: 100, y: -500, width: 10, height: 10 },
    ]);
    expect(box).toEqual({ x: -6, y: -EXPORT_STYLE.maxOverflowPx, width: 427, height: 306 + EXPORT_STYLE.maxOverflowPx });
  });

  it('ignores empty boxes (hidden texts)', () => {
    expect(contentBox(viewport, [{ x: -100, y: -100, width: 0, height: 0 }])).toEqual(viewport);
  });
});

describe('exportLayout', () => {
  const s = EXPORT_STYLE;
  const chart = { x: 0, y: 0, width: 400, height: 300 };

  it('stacks title, legend and chart inside the padding', () => {
    const layout = exportLayout({
      chart,
      title: 'Throughput over time',
      legend: [{ label: 'ODIN', colour: 'red', swatch: 'line' }],
      measureTitle: measure,
      measureLegend: measure,
    });
    expect(layout.width).toBe(400 + 2 * s.padding);
    expect(layout.title).toEqual([{ text: 'Throughput over time', x: s.padding, centreY: s.padding + s.titleLineHeight / 2 }]);
    const legendTop = s.padding + s.titleLineHeight + s.sectionGap;
    expect(layout.legend[0]).toMatchObject({ x: s.padding, top: legendTop, centreY: legendTop + s.legendRowHeight / 2 });
    const chartTop = legendTop + s.legendRowHeight + s.sectionGap;
    expect(layout.chartX).toBe(s.padding);
    expect(layout.chartY).toBe(chartTop);
    expect(layout.height).toBe(chartTop + 300 + s.padding);
  });

  it('without title and legend is the chart plus padding', () => {
    const layout = exportLayout({ chart, measureTitle: measure, measureLegend: measure });
    expect(layout).toEqual({ width: 400 + 2 * s.padding, height: 300 + 2 * s.padding, title: [], legend: [], chartX: s.padding, chartY: s.padding });
  });

  it('wraps a long title at the chart width and makes room for overflow on the left and top', () => {
    const layout = exportLayout({
      chart: { x: -8, y: -4, width: 80, height: 50 },
      title: 'aaaa bbbb cccc',
      measureTitle: measure,
      measureLegend: measure,
    });
    expect(layout.title.map((l) => l.text)).toEqual(['aaaa', 'bbbb', 'cccc']);
    const chartTop = s.padding + 3 * s.titleLineHeight + s.sectionGap;
    // The viewport origin sits 8 px right of the padding and 4 px below the header.
    expect(layout.chartX).toBe(s.padding + 8);
    expect(layout.chartY).toBe(chartTop + 4);
    expect(layout.height).toBe(chartTop + 50 + s.padding);
  });

  it('refuses an empty chart', () => {
    expect(() => exportLayout({ chart: { x: 0, y: 0, width: 0, height: 10 }, measureTitle: measure, measureLegend: measure })).toThrow(RangeError);
  });
});

describe('swatchShapes', () => {
  const kinds: ExportSwatch[] = ['line', 'dashed', 'step', 'area', 'tick', 'dot', 'circle'];

  it('draws every kind but text in the colour, inside the swatch box', () => {
    for (const kind of kinds) {
      const shapes = swatchShapes(kind, '#0072B2');
      expect(shapes.length).toBeGreaterThan(0);
      for (const { attrs } of shapes) {
        expect([attrs.fill, attrs.stroke]).toContain('#0072B2');
        for (const key of ['x', 'x1', 'x2', 'cx'] as const) {
          if (attrs[key] !== undefined) expect(attrs[key]).toBeGreaterThanOrEqual(0);
          if (attrs[key] !== undefined) expect(attrs[key]).toBeLessThanOrEqual(EXPORT_STYLE.swatchWidth);
        }
      }
    }
    expect(swatchShapes('text', '')).toEqual([]);
  });

  it('dashes the dashed swatch only', () => {
    expect(swatchShapes('dashed', 'red')[0]!.attrs['stroke-dasharray']).toBe('4 3');
    expect(swatchShapes('line', 'red')[0]!.attrs['stroke-dasharray']).toBeUndefined();
  });
});

describe('swatchKind', () => {
  it('reads the kind from the swatch class', () => {
    expect(swatchKind('chart-swatch chart-swatch-dashed')).toBe('dashed');
    expect(swatchKind('chart-swatch-dot chart-swatch')).toBe('dot');
    expect(swatchKind('chart-swatch')).toBeNull();
    expect(swatchKind('chart-swatch-lines')).toBeNull();
  });
});

describe('localUrlRefs', () => {
  it('keeps only the fragment of url() references', () => {
    expect(localUrlRefs('url("http://127.0.0.1:4173/#chart-clip-3")')).toBe('url(#chart-clip-3)');
    expect(localUrlRefs("url('#a') url(http://x/y?q=1#b)")).toBe('url(#a) url(#b)');
    expect(localUrlRefs('rgb(0, 114, 178)')).toBe('rgb(0, 114, 178)');
    expect(localUrlRefs('none')).toBe('none');
  });
});

describe('pngSize', () => {
  it('scales the CSS size', () => {
    expect(pngSize(424, 333, 2)).toEqual({ width: 848, height: 666, scale: 2 });
  });

  it('shrinks the scale to keep both sides within the limit', () => {
    const size = pngSize(5000, 1000, 2, 8192);
    expect(size.width).toBe(8192);
    expect(size.height).toBe(1638);
  });

  it('refuses a bad scale or size', () => {
    expect(() => pngSize(100, 100, 0)).toThrow(RangeError);
    expect(() => pngSize(100, 100, Number.NaN)).toThrow(RangeError);
    expect(() => pngSize(0, 100, 2)).toThrow(RangeError);
  });
});
