import { describe, expect, it } from 'vitest';
import { labKeyAction, type LabKeyPress, type LabKeyTarget } from './labKeys';

const press = (key: string, more: Partial<LabKeyPress> = {}): LabKeyPress => ({ key, shiftKey: false, ctrlKey: false, metaKey: false, altKey: false, ...more });
const on = (more: Partial<LabKeyTarget> = {}): LabKeyTarget => ({ typing: false, dragging: false, helpOpen: false, ...more });

describe('the lab keys', () => {
  it('Space plays or pauses everywhere but in a text field or while a workload is carried', () => {
    expect(labKeyAction(press(' '), on())).toBe('playPause');
    expect(labKeyAction(press(' '), on({ typing: true }))).toBeNull();
    expect(labKeyAction(press(' '), on({ dragging: true }))).toBeNull();
  });

  it('the arrows step, with Shift they jump between markers', () => {
    expect(labKeyAction(press('ArrowLeft'), on())).toBe('stepBack');
    expect(labKeyAction(press('ArrowRight'), on())).toBe('stepForward');
    expect(labKeyAction(press('ArrowLeft', { shiftKey: true }), on())).toBe('markerBack');
    expect(labKeyAction(press('ArrowRight', { shiftKey: true }), on())).toBe('markerForward');
    expect(labKeyAction(press('ArrowRight'), on({ dragging: true }))).toBeNull();
  });

  it('+ and − change the speed, ? toggles the help, Esc closes it, and the help open keeps the other keys', () => {
    expect(['+', '=', '-', '_', '−'].map((k) => labKeyAction(press(k), on()))).toEqual(['faster', 'faster', 'slower', 'slower', 'slower']);
    expect(labKeyAction(press('?'), on())).toBe('toggleHelp');
    expect(labKeyAction(press('?'), on({ helpOpen: true }))).toBe('toggleHelp');
    expect(labKeyAction(press('Escape'), on({ helpOpen: true }))).toBe('closeHelp');
    expect(labKeyAction(press('Escape'), on())).toBeNull();
    expect(labKeyAction(press(' '), on({ helpOpen: true }))).toBeNull();
  });

  it('leaves Ctrl, Cmd and Alt chords (undo, the browser’s own) and other keys alone', () => {
    expect(labKeyAction(press('z', { ctrlKey: true }), on())).toBeNull();
    expect(labKeyAction(press(' ', { metaKey: true }), on())).toBeNull();
    expect(labKeyAction(press('ArrowLeft', { altKey: true }), on())).toBeNull();
    expect(labKeyAction(press('a'), on())).toBeNull();
    expect(labKeyAction(press('Enter'), on())).toBeNull();
  });
});
