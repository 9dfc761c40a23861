/**
 * What runs inside the window's page (Playwright serialises these functions: they use nothing
 * from outside their own bodies). Times are taken in the page, on the page's clock: from the
 * user's input event (its timeStamp) or the navigation's start to the first animation frame whose
 * DOM shows the result, i.e. the frame that paints it. Polling every frame keeps the resolution at
 * one frame (16.7 ms at 60 Hz), independent of Playwright's own polling.
 */

// The page's globals, as far as these functions use them (the bench's own types are Node's, not the DOM's).
interface PageElement {
  textContent: string | null;
  nextElementSibling: PageElement | null;
  scrollTop: number;
  readonly scrollHeight: number;
  readonly clientHeight: number;
  readonly value?: string;
  readonly type?: string;
  getAttribute(name: string): string | null;
  hasAttribute(name: string): boolean;
  getBoundingClientRect(): { top: number; bottom: number; height: number };
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): ArrayLike<PageElement>;
  closest(selector: string): PageElement | null;
}
declare const document: Pick<PageElement, 'querySelector' | 'querySelectorAll'>;
declare const window: {
  addEventListener(
    type: string,
    listener: (event: { timeStamp: number }) => void,
    options: { capture: boolean; once?: boolean },
  ): void;
};
declare const location: { hash: string };
declare function requestAnimationFrame(callback: () => void): number;
declare function requestIdleCallback(callback: () => void, options: { timeout: number }): number;
declare class PerformanceObserver {
  constructor(callback: (list: { getEntries(): { duration: number }[] }) => void);
  observe(options: { type: string }): void;
  takeRecords(): { duration: number }[];
  disconnect(): void;
}

/** When the result counts as on screen. */
export type Check =
  /** Every row in view filled (its ID cell non-empty); `index`: and the row of that index among them. */
  | { kind: 'rows'; index?: number }
  /**
   * The count says something else than before, and the rows in view are filled (or the list is
   * empty); with `q`, the address names that search (a search of a term typed only in part,
   * started while typing paused, is not the answer).
   */
  | { kind: 'answered'; countBefore: string; q?: string }
  /** The column's header says ascending and the first row in view is another than before, filled. */
  | { kind: 'sorted'; column: string; firstIdBefore: string }
  /** The editor shows the product: an input outside the grid holds its supplierPid. */
  | { kind: 'editor'; supplierPid: string }
  /** The tree item is expanded, no longer busy, and the item after it is one level deeper. */
  | { kind: 'treeLevel'; testId: string };

export interface Arm {
  check: Check;
  /**
   * The start: the next keydown or click (its timeStamp), the last of a run of keydowns, the
   * navigation's start (0), or now (with `scrollFraction`: the scrollbar dropped there at once).
   */
  trigger: 'keydown' | 'click' | 'lastKeydown' | 'navigation' | 'now';
  scrollFraction?: number;
  timeoutMs: number;
}

/** The outcome of one armed measurement: ms, or why there was none. */
export type Outcome = { ms: number; gridMs?: number } | { failed: string };

interface ProbeWindow {
  __benchDone?: Promise<Outcome>;
}

/** Arms one measurement; its outcome is `window.__benchDone`. */
export function armInPage(arm: Arm): void {
  const grid = () => document.querySelector('[role="grid"]');
  const idOf = (row: PageElement) => row.querySelector('[role="gridcell"]')?.textContent ?? '';
  const rowsInView = () => {
    const g = grid();
    if (!g) return [];
    const box = g.getBoundingClientRect();
    return Array.from(g.querySelectorAll('[role="row"]'))
      .filter((row) => row.getAttribute('aria-rowindex') !== '1')
      .filter((row) => {
        const r = row.getBoundingClientRect();
        return r.bottom > box.top && r.top < box.bottom;
      })
      .sort((a, b) => Number(a.getAttribute('aria-rowindex')) - Number(b.getAttribute('aria-rowindex')));
  };
  const filled = () => {
    const rows = rowsInView();
    return rows.length > 0 && rows.every((row) => idOf(row) !== '');
  };
  const countText = () => document.querySelector('[data-testid="grid-count"]')?.textContent ?? '';
  const check = arm.check;
  const met = (): boolean => {
    switch (check.kind) {
      case 'rows':
        return (
          filled() &&
          (check.index === undefined ||
            rowsInView().some((row) => row.getAttribute('aria-rowindex') === String(check.index! + 2)))
        );
      case 'answered': {
        const text = countText();
        if (text === check.countBefore || !/\d/.test(text)) return false;
        if (check.q !== undefined) {
          const hash = location.hash;
          const query = new URLSearchParams(hash.includes('?') ? hash.slice(hash.indexOf('?') + 1) : '');
          if (query.get('q') !== check.q) return false;
        }
        return document.querySelector('[data-testid="grid-empty"]') !== null || filled();
      }
      case 'sorted': {
        const header = Array.from(document.querySelectorAll('[role="columnheader"]')).find((h) =>
          (h.textContent ?? '').startsWith(check.column),
        );
        const rows = rowsInView();
        return (
          header?.getAttribute('aria-sort') === 'ascending' &&
          filled() &&
          idOf(rows[0]!) !== check.firstIdBefore
        );
      }
      case 'editor':
        return Array.from(document.querySelectorAll('input')).some(
          (input) =>
            input.value === check.supplierPid && input.type !== 'search' && !input.closest('[role="grid"]'),
        );
      case 'treeLevel': {
        const item = document.querySelector(`[data-testid="${check.testId}"]`);
        const next = item?.nextElementSibling;
        return (
          item?.getAttribute('aria-expanded') === 'true' &&
          !item.hasAttribute('aria-busy') &&
          Number(next?.getAttribute('aria-level')) === Number(item.getAttribute('aria-level')) + 1
        );
      }
    }
  };
  const probe = window as unknown as ProbeWindow;
  probe.__benchDone = new Promise<Outcome>((resolve) => {
    const armedAt = performance.now();
    let start: number | undefined;
    let gridAt: number | undefined;
    if (arm.trigger === 'navigation') start = 0;
    if (arm.trigger === 'keydown' || arm.trigger === 'click') {
      const type = arm.trigger;
      window.addEventListener(type, (event) => (start ??= event.timeStamp), { capture: true, once: true });
    }
    if (arm.trigger === 'lastKeydown') {
      window.addEventListener('keydown', (event) => (start = event.timeStamp), { capture: true });
    }
    if (arm.trigger === 'now') {
      start = performance.now();
      const g = grid();
      if (g && arm.scrollFraction !== undefined) {
        g.scrollTop = Math.round((g.scrollHeight - g.clientHeight) * arm.scrollFraction);
      }
    }
    const frame = () => {
      const now = performance.now();
      if (gridAt === undefined && grid()) gridAt = now;
      if (start !== undefined && met()) {
        return resolve({ ms: now - start, gridMs: gridAt === undefined ? undefined : now - gridAt });
      }
      if (now - armedAt > arm.timeoutMs) {
        return resolve({
          failed: `not on screen within ${arm.timeoutMs} ms (${check.kind}; count "${countText()}", ${rowsInView().length} rows in view)`,
        });
      }
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
}

export interface ScrollPlan {
  rows: number;
  rowsPerFrame: number;
  /** Frames of scrolling, then a pause: a wheel moved in bursts, so that rows load on the way. */
  framesPerBurst: number;
  pauseMs: number;
}

export interface ScrollOutcome {
  longestTaskMs: number;
  longTasks: number;
  /** Long tasks' total time over 50 ms each (what blocked input). */
  blockingMs: number;
  ms: number;
  frames: number;
}

/** Scrolls the grid down by `plan.rows` rows from where it is, recording the long tasks meanwhile. */
export function scrollInPage(plan: ScrollPlan): Promise<ScrollOutcome> {
  const g = document.querySelector('[role="grid"]')!;
  const rowHeight = g.querySelector('[role="row"][aria-rowindex="2"]')?.getBoundingClientRect().height ?? 34;
  const tasks: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) tasks.push(entry.duration);
  });
  observer.observe({ type: 'longtask' });
  const target = g.scrollTop + plan.rows * rowHeight;
  const started = performance.now();
  let frames = 0;
  return new Promise((resolve) => {
    const finish = () => {
      // The rows fetched for the last position render after the scrolling stops: count them in.
      setTimeout(() => {
        for (const entry of observer.takeRecords()) tasks.push(entry.duration);
        observer.disconnect();
        resolve({
          longestTaskMs: Math.max(0, ...tasks),
          longTasks: tasks.length,
          blockingMs: tasks.reduce((sum, d) => sum + d - 50, 0),
          ms: performance.now() - started,
          frames,
        });
      }, 1000);
    };
    const frame = () => {
      frames++;
      g.scrollTop = Math.min(target, g.scrollTop + plan.rowsPerFrame * rowHeight);
      if (g.scrollTop >= target - 1) return finish();
      if (frames % plan.framesPerBurst === 0) setTimeout(() => requestAnimationFrame(frame), plan.pauseMs);
      else requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
}

/** The outcome of the measurement armed last. */
export function outcomeInPage(): Promise<Outcome> {
  return (window as unknown as ProbeWindow).__benchDone!;
}

/** The opened catalogue is ready: rows in view, the count, the tree's first level. */
export function settledInPage(): boolean {
  const rows = Array.from(document.querySelectorAll('[role="grid"] [role="row"]')).slice(1, 4);
  const count = document.querySelector('[data-testid="grid-count"]')?.textContent ?? '';
  return (
    rows.length > 0 &&
    rows.every((row) => (row.querySelector('[role="gridcell"]')?.textContent ?? '') !== '') &&
    /\d/.test(count) &&
    document.querySelectorAll('[role="tree"] [role="treeitem"][aria-level="2"]').length > 0
  );
}

/** Resolves in the page's next idle period (what the opening started has run). */
export function idleInPage(): Promise<void> {
  return new Promise((resolve) => requestIdleCallback(() => resolve(), { timeout: 2000 }));
}

/** Where the grid's scrollbar is, 0 (top) to 1 (bottom). */
export function scrollFractionInPage(): number {
  const g = document.querySelector('[role="grid"]')!;
  return g.scrollTop / (g.scrollHeight - g.clientHeight);
}
