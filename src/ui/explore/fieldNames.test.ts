import { describe, expect, it } from 'vitest';
import { allPresets } from '../../scenario/presets';
import { fieldName } from '../../scenario/sweepNames';
import { sweepableFields } from './fields';

describe('the Explore view’s field names', () => {
  it('leaves no path in any preset’s sweepable fields (no “lanes[”, no dotted path)', () => {
    for (const preset of allPresets()) {
      for (const f of sweepableFields(preset.scenario)) {
        const name = fieldName(f.path, preset.scenario);
        expect(name, f.path).not.toContain('lanes[');
        expect(name, f.path).not.toMatch(/\w\.\w/);
      }
    }
  });
});
