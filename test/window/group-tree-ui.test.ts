import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { GroupDto } from '../helpers/group-dto.js';
import { ADMIN_PASSWORD, type TestServer } from '../helpers/server.js';
import { shotsDir } from '../helpers/shots.js';
import { loginInWindow, windowPagePerTest } from '../helpers/window-page.js';

const SHOTS = shotsDir('group-tree');

let server: TestServer;
let page: Page;
windowPagePerTest((opened) => ({ server, page } = opened));

async function rest<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await server.request<T>(method, path, { token: await server.login(), body });
  expect(res.status, res.text).toBeLessThan(300);
  return res.body.data as T;
}

async function group(name: string, parentId?: number): Promise<GroupDto> {
  return rest<GroupDto>('POST', '/api/group', { name, parentId });
}

let pid = 0;
async function products(groupId: number | undefined, count: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    const p = await rest<{ id: number }>('POST', '/api/product', { supplierPid: `T-${++pid}` });
    ids.push(p.id);
  }
  if (groupId !== undefined) await rest('POST', `/api/group/${groupId}/products`, { productIds: ids });
  return ids;
}

/** Werkzeug (2 products) > Bohrer (1) > Spiralbohrer; Sägen (0) at the top level. */
async function sampleTree() {
  const tools = await group('Werkzeug');
  const drills = await group('Bohrer', tools.id);
  const twist = await group('Spiralbohrer', drills.id);
  const saws = await group('Sägen');
  await products(tools.id, 2);
  await products(drills.id, 1);
  return { tools, drills, twist, saws };
}

async function parentOf(id: number): Promise<number | null> {
  return (await rest<GroupDto>('GET', `/api/group/${id}`)).parentGroupId;
}

const item = (name: string) => page.getByRole('treeitem', { name: new RegExp(`^${name}(,|$)`) });
const focused = () =>
  page.locator('body').evaluate((body) => body.ownerDocument.activeElement?.getAttribute('aria-label'));

/** Drops what the grid drags (application/x-pim-products with {"ids": [...]}) on a tree item. */
async function dropProducts(name: string, ids: number[]): Promise<void> {
  await item(name).evaluate((el, json) => {
    const view = el.ownerDocument.defaultView as unknown as {
      DataTransfer: new () => { setData(type: string, value: string): void };
      DragEvent: new (type: string, init: object) => Event;
    };
    const data = new view.DataTransfer();
    data.setData('application/x-pim-products', json);
    for (const type of ['dragover', 'drop'])
      el.dispatchEvent(new view.DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }));
  }, JSON.stringify({ ids }));
}

async function openTree(username = 'admin', password = ADMIN_PASSWORD): Promise<void> {
  await loginInWindow(page, server, username, password);
  await expect.poll(() => item('Werkzeug').isVisible()).toBe(true);
}

describe('the group tree', () => {
  it('opens level by level with product counts, all by keyboard', async () => {
    await sampleTree();
    await openTree();
    expect(await page.getByRole('tree').getByRole('treeitem').count()).toBe(3);
    expect(await item('Werkzeug').getAttribute('aria-label')).toBe('Werkzeug, 2 products');
    expect(await item('Werkzeug').getAttribute('aria-expanded')).toBe('false');
    expect(await item('Sägen').getAttribute('aria-expanded')).toBeNull();
    await item('All products').focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(focused).toBe('Werkzeug, 2 products');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => item('Bohrer').isVisible()).toBe(true);
    expect(await item('Werkzeug').getAttribute('aria-expanded')).toBe('true');
    expect(await item('Bohrer').getAttribute('aria-level')).toBe('3');
    await page.keyboard.press('ArrowRight');
    await expect.poll(focused).toBe('Bohrer, 1 product');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => item('Spiralbohrer').isVisible()).toBe(true);
    await page.keyboard.press('ArrowDown');
    await expect.poll(focused).toBe('Spiralbohrer, 0 products');
    expect(await item('Spiralbohrer').getAttribute('aria-level')).toBe('4');
    await page.keyboard.press('Enter');
    await expect.poll(() => item('Spiralbohrer').getAttribute('aria-selected')).toBe('true');
    await expect.poll(() => item('All products').getAttribute('aria-selected')).toBe('false');
    // Roving tabindex: only the current row is in the tab order.
    expect(await page.locator('[role=treeitem][tabindex="0"]').count()).toBe(1);
    await page.keyboard.press('ArrowLeft');
    await expect.poll(focused).toBe('Bohrer, 1 product');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => item('Spiralbohrer').count()).toBe(0);
    await page.keyboard.press('End');
    await expect.poll(focused).toBe('Sägen, 0 products');
    await page.keyboard.press('Home');
    await expect.poll(focused).toBe('All products');
    await page.keyboard.press('Enter');
    await expect.poll(() => item('All products').getAttribute('aria-selected')).toBe('true');
    await page.screenshot({ path: `${SHOTS}/tree.png` });
  });

  it('creates and renames groups, visible through REST', async () => {
    const { tools } = await sampleTree();
    await openTree();
    await item('Werkzeug').click();
    await page.getByRole('button', { name: 'New subgroup' }).click();
    await page.getByRole('dialog').getByLabel('Name').fill('Schleifer');
    await page.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => item('Schleifer').isVisible()).toBe(true);
    const created = (await rest<GroupDto[]>('GET', '/api/group')).find((g) => g.name === 'Schleifer')!;
    expect(created.parentGroupId).toBe(tools.id);
    await item('Schleifer').click();
    await page.getByRole('button', { name: 'Rename' }).click();
    await page.getByRole('dialog').getByLabel('Name').fill('Schleifmaschinen');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => item('Schleifmaschinen').isVisible()).toBe(true);
    expect((await rest<GroupDto>('GET', `/api/group/${created.id}`)).name).toBe('Schleifmaschinen');
  });

  it('moves by the Move to… dialog, by drag and drop, and shows the refusal of a move under itself', async () => {
    const { tools, drills, saws } = await sampleTree();
    await openTree();
    await item('Sägen').click();
    await page.getByRole('button', { name: 'Move to…' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('New place').fill('Werk');
    await page.getByRole('option', { name: 'Werkzeug', exact: true }).click();
    await dialog.getByRole('button', { name: 'Move', exact: true }).click();
    await expect.poll(() => parentOf(saws.id)).toBe(tools.id);
    await expect.poll(() => item('Sägen').getAttribute('aria-level')).toBe('3');
    // Drag Bohrer onto "All products": to the top level.
    await item('Bohrer').dragTo(item('All products'));
    await expect.poll(() => parentOf(drills.id)).toBeNull();
    await expect.poll(() => item('Bohrer').getAttribute('aria-level')).toBe('2');
    // Drag Werkzeug onto Sägen (its child): the domain's sentence.
    await item('Werkzeug').dragTo(item('Sägen'));
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toBe(`Group ${tools.id} cannot be moved under its descendant, group ${saws.id}`);
    await page.screenshot({ path: `${SHOTS}/refused-move.png` });
    // And by the dialog: under itself is not offered, under a descendant is refused with the sentence.
    await item('Werkzeug').click();
    await page.getByRole('button', { name: 'Move to…' }).click();
    await dialog.getByLabel('New place').fill('Säg');
    await page.getByRole('option', { name: 'Werkzeug › Sägen' }).click();
    await dialog.getByRole('button', { name: 'Move', exact: true }).click();
    await expect
      .poll(() => dialog.getByRole('alert').textContent())
      .toBe(`Group ${tools.id} cannot be moved under its descendant, group ${saws.id}`);
    expect(await parentOf(tools.id)).toBeNull();
  });

  it('deletes after a confirmation that says what happens to subgroups and products', async () => {
    const { tools, drills, twist } = await sampleTree();
    await openTree();
    await item('Werkzeug').click();
    await page.getByRole('button', { name: 'Delete' }).click();
    const preview = page.getByTestId('delete-preview');
    await expect
      .poll(() => preview.textContent())
      .toBe(
        'Its 2 subgroups (at every level) are deleted with it.' +
          'The 3 products in it and its subgroups lose their group; they are not deleted.',
      );
    await page.screenshot({ path: `${SHOTS}/delete-confirmation.png` });
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => item('Werkzeug').count()).toBe(0);
    for (const id of [tools.id, drills.id, twist.id]) {
      const res = await server.request('GET', `/api/group/${id}`, { token: await server.login() });
      expect(res.status).toBe(404);
    }
    expect((await rest<unknown[]>('GET', '/api/product?all=true')).length).toBe(3);
  });

  it('assigns products dropped from the grid, all or nothing, and says so', async () => {
    const { saws } = await sampleTree();
    const ids = await products(undefined, 2);
    await openTree();
    await dropProducts('Sägen', ids);
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'assigned' }).textContent())
      .toBe('2 products assigned to “Sägen”.');
    await expect.poll(() => item('Sägen').getAttribute('aria-label')).toBe('Sägen, 2 products');
    const members = await rest<{ id: number }[]>('GET', `/api/group/${saws.id}/products`);
    expect(members.map((p) => p.id)).toEqual(ids);
    // One unknown id: nothing assigned, the refusal shown.
    await dropProducts('Werkzeug', [ids[0]!, 99999999]);
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Product 99999999 not found');
    expect(await item('Werkzeug').getAttribute('aria-label')).toBe('Werkzeug, 2 products');
  });

  it('shows a VIEWER the tree without any edit action', async () => {
    await sampleTree();
    await server.addUser('vera', 'VIEWER', 'vera-password-1');
    await openTree('vera', 'vera-password-1');
    await item('Werkzeug').click();
    await expect.poll(() => item('Werkzeug').getAttribute('aria-selected')).toBe('true');
    expect(await page.getByRole('toolbar').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Delete' }).count()).toBe(0);
    expect(await item('Werkzeug').getAttribute('draggable')).toBe('false');
  });

  it('fits a narrow window and speaks German', async () => {
    await sampleTree();
    await page.setViewportSize({ width: 400, height: 700 });
    await page.goto(server.windowUrl);
    await page.locator('label', { hasText: 'Deutsch' }).click();
    await page.getByLabel('Benutzername').fill('admin');
    await page.getByRole('textbox', { name: 'Passwort' }).fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await expect.poll(() => page.getByTestId('status-user').textContent()).toBe('admin');
    // 400 px: the tree is behind the Groups button, in a drawer.
    await page.getByRole('button', { name: 'Warengruppen' }).click();
    await expect.poll(() => item('Alle Produkte').isVisible()).toBe(true);
    await item('Werkzeug').click();
    await item('Werkzeug').dblclick();
    await expect.poll(() => item('Bohrer').getAttribute('aria-label')).toBe('Bohrer, 1 Produkt');
    const overflow = await page.evaluate<boolean>('document.documentElement.scrollWidth > innerWidth');
    expect(overflow).toBe(false);
    await page.screenshot({ path: `${SHOTS}/tree-400-de.png` });
    await page.getByRole('button', { name: 'Löschen' }).click();
    await expect.poll(() => page.getByTestId('delete-preview').isVisible()).toBe(true);
    await page.screenshot({ path: `${SHOTS}/delete-400-de.png` });
  });
});
