import { describe, expect, it } from 'vitest';
import { keyboardJump, targetUnder, type TargetRect } from './dragGeometry';

// Four execution places side by side (100 px wide, 300 px tall) above a palette.
const EPS: TargetRect[] = [0, 1, 2, 3].map((i) => ({ id: `ep-${i}`, rect: { left: i * 100, top: 0, width: 100, height: 300 } }));
const PALETTE: TargetRect = { id: 'palette', rect: { left: 0, top: 320, width: 400, height: 60 } };
const TARGETS = [PALETTE, ...EPS.slice().reverse()];
const token = (left: number, top: number) => ({ left, top, width: 40, height: 20 });

describe('board drag geometry', () => {
  it('picks the target under the pointer, else under the item, else the one it overlaps most, else none', () => {
    expect(targetUnder(TARGETS, token(0, 0), { x: 250, y: 100 })).toBe('ep-2');
    expect(targetUnder(TARGETS, token(310, 330), null)).toBe('palette');
    // Centre between the EPs and the palette (y = 312): the palette overlaps more of the item (6 px) than EP 2 (2 px).
    expect(targetUnder(TARGETS, { left: 220, top: 298, width: 40, height: 28 }, null)).toBe('palette');
    expect(targetUnder(TARGETS, token(500, 500), { x: 520, y: 510 })).toBeNull();
  });

  it('prefers the smaller of two nested targets', () => {
    const inner: TargetRect = { id: 'inner', rect: { left: 10, top: 10, width: 20, height: 20 } };
    expect(targetUnder([EPS[0]!, inner], token(0, 0), { x: 15, y: 15 })).toBe('inner');
  });

  it('jumps from EP to EP with the arrows, entering from the palette, and stays at the ends', () => {
    const item = token(20, 340); // on the palette
    const first = keyboardJump('ArrowRight', TARGETS, item, 'ep-')!;
    expect(first).toEqual({ x: 50 - 20, y: 80 - 10 });
    const moved = { ...item, left: first.x, top: first.y };
    expect(targetUnder(TARGETS, moved, null)).toBe('ep-0');
    const second = keyboardJump('ArrowDown', TARGETS, moved, 'ep-')!;
    expect(targetUnder(TARGETS, { ...item, left: second.x, top: second.y }, null)).toBe('ep-1');
    expect(keyboardJump('ArrowLeft', TARGETS, moved, 'ep-')).toEqual(first);
    expect(keyboardJump('ArrowLeft', TARGETS, item, 'ep-')).toEqual({ x: 350 - 20, y: 70 });
    const last = { ...item, left: 330, top: 70 };
    expect(keyboardJump('ArrowRight', TARGETS, last, 'ep-')).toEqual({ x: 330, y: 70 });
  });

  it('leaves other keys, and a board without targets, alone', () => {
    expect(keyboardJump('a', TARGETS, token(0, 0), 'ep-')).toBeNull();
    expect(keyboardJump('ArrowRight', [PALETTE], token(0, 0), 'ep-')).toBeNull();
  });
});
