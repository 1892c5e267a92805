import { describe, expect, it } from 'vitest';
import { tenantState, tenantText } from './deviceBoard';

describe('tenants on the device board', () => {
  const tenant = { fromMs: 1_000_000, toMs: 2_000_000, intensity: 0.3, memoryMb: 1500 };
  it('are scheduled before they arrive, present while there, gone after', () => {
    expect([0, 999_999, 1_000_000, 1_999_999, 2_000_000].map((t) => tenantState(tenant, t))).toEqual(['scheduled', 'scheduled', 'present', 'present', 'gone']);
    expect(tenantState({ fromMs: 0, toMs: null }, 1e12)).toBe('present');
  });
  it('say what they take and when they arrive or leave', () => {
    expect(tenantText(tenant, 0)).toBe('tenant 30 % GPU, 1.5 GB · arrives at 1000 s');
    expect(tenantText(tenant, 1_500_000)).toBe('tenant 30 % GPU, 1.5 GB · until 2000 s');
    expect(tenantText({ ...tenant, toMs: null, memoryMb: 0 }, 1_500_000)).toBe('tenant 30 % GPU');
  });
});
