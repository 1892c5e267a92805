import { mkdtempSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_PATH, chromiumPlan, installReason } from './setup.mjs';

const machine = {
  chromiumExists: false,
  hasAptGet: true,
  isRoot: false,
  passwordlessSudo: false,
};

describe('chromiumPlan: what npm test does about the browser', () => {
  it('does nothing when Chromium is present, whoever the user is', () => {
    expect(chromiumPlan({ ...machine, chromiumExists: true })).toEqual({ kind: 'present' });
    expect(chromiumPlan({ ...machine, chromiumExists: true, hasAptGet: false })).toEqual({
      kind: 'present',
    });
  });

  it('installs it with apt-get as root', () => {
    const plan = chromiumPlan({ ...machine, isRoot: true });
    expect(plan.kind).toBe('install');
    if (plan.kind !== 'install') return;
    expect(plan.command[0]).toBe('bash');
    expect(plan.asText).toContain('apt-get update');
    expect(plan.asText).toContain('apt-get install -y chromium');
    expect(plan.asText).not.toContain('sudo');
  });

  it('installs it through sudo when sudo needs no password', () => {
    const plan = chromiumPlan({ ...machine, passwordlessSudo: true });
    expect(plan.kind).toBe('install');
    if (plan.kind !== 'install') return;
    expect(plan.asText).toMatch(/^sudo apt-get update && sudo .*apt-get install -y chromium$/);
  });

  it('stops with one line saying what to install when it cannot', () => {
    const plan = chromiumPlan(machine);
    expect(plan.kind).toBe('cannot-install');
    if (plan.kind !== 'cannot-install') return;
    expect(plan.message).not.toContain('\n');
    expect(plan.message).toContain(CHROMIUM_PATH);
    expect(plan.message).toContain('sudo apt-get install -y chromium');
  });

  it('names the missing path when there is no apt-get to use, even as root', () => {
    const plan = chromiumPlan({ ...machine, hasAptGet: false, isRoot: true });
    expect(plan.kind).toBe('cannot-install');
    if (plan.kind !== 'cannot-install') return;
    expect(plan.message).toContain(`${CHROMIUM_PATH} exists`);
  });
});

describe('installReason: when npm start and npm test run npm ci', () => {
  function checkout(): string {
    const root = mkdtempSync(join(tmpdir(), 'lab-setup-'));
    writeFileSync(join(root, 'package-lock.json'), '{}');
    return root;
  }

  it('installs when node_modules is missing', () => {
    expect(installReason(checkout())).toBe('node_modules is missing');
  });

  it('installs when node_modules has no record of an install', () => {
    const root = checkout();
    mkdirSync(join(root, 'node_modules'));
    expect(installReason(root)).toBe('node_modules has no record of an install');
  });

  it('installs when the lock file changed after the last install, and not otherwise', () => {
    const root = checkout();
    mkdirSync(join(root, 'node_modules'));
    const installed = join(root, 'node_modules', '.package-lock.json');
    writeFileSync(installed, '{}');
    utimesSync(join(root, 'package-lock.json'), 1000, 1000);
    utimesSync(installed, 2000, 2000);
    expect(installReason(root)).toBeUndefined();
    utimesSync(join(root, 'package-lock.json'), 3000, 3000);
    expect(installReason(root)).toBe('package-lock.json is newer than node_modules');
  });
});
