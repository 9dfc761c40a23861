import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** axe-core: no serious or critical accessibility violation in what the page shows now. */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  const result = await new AxeBuilder({ page }).analyze();
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    bad.map((v) => `${what}: ${v.id} ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join('; ')})`),
  ).toEqual([]);
}
