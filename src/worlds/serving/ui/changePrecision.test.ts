import { describe, expect, it } from 'vitest';
import { changeText } from './changePrecision';

describe('a change to the precision at which it shows', () => {
  it('adds decimals until the two numbers differ', () => {
    expect(changeText(0.142291, 0.142293)).toEqual({ before: '0.142291', after: '0.142293', unchanged: false });
    expect(changeText(0.5, 0.25)).toEqual({ before: '0.500', after: '0.250', unchanged: false });
    expect(changeText(1.0000000001, 1.0000000004)).toEqual({ before: '1.0000000001', after: '1.0000000004', unchanged: false });
  });

  it('says when the change is below the last decimal, and shows what it cannot compute', () => {
    expect(changeText(0.1, 0.1)).toEqual({ before: '0.100', after: '0.100', unchanged: true });
    expect(changeText(Number.NaN, 0.2).before).toBe('–');
  });
});
