/**
 * vitest's global setup (once per run, in the main process): reads the property tests'
 * seed and runs factor from the environment (src/testing/propertySeed.ts), prints them once,
 * and hands them to every test file.
 */
import type { TestProject } from 'vitest/node';
import { describePropertySettings, propertySettings } from '../src/testing/propertySettings';

export function setup(project: TestProject): void {
  const settings = propertySettings(process.env);
  console.log(describePropertySettings(settings));
  project.provide('propertySettings', settings);
}
