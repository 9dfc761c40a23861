/**
 * Cuts a Chromium trace of one opening of the window into its steps (bench/window-trace.ts): when
 * the document, the bundle and the opening request were sent and answered, and what the page's
 * main thread did between them, by kind (self time of the trace's complete events).
 */

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { url?: string; documentLoaderURL?: string; requestId?: string } };
}

export interface Steps {
  documentAnswered: number;
  bundleLoaded: number;
  openingSent: number;
  openingAnswered: number;
  openingLoaded: number;
  onScreen: number;
  /** Main thread's busy time by kind, before the opening request left. */
  beforeSent_compile: number;
  beforeSent_script: number;
  beforeSent_other: number;
  /** While the server worked on the opening request. */
  waiting_busy: number;
  /** From the answer to the first rows on screen. */
  afterAnswer_script: number;
  afterAnswer_style: number;
  afterAnswer_layout: number;
  afterAnswer_paint: number;
  afterAnswer_gc: number;
  afterAnswer_other: number;
}

type Kind = 'compile' | 'script' | 'style' | 'layout' | 'paint' | 'gc' | 'other';

function kindOf(e: TraceEvent): Kind {
  const n = e.name;
  if (/GC|Scavenge|MarkCompact/i.test(n)) return 'gc';
  if (/compile|parseOnBackground|Deserialize/i.test(n)) return 'compile';
  if (n === 'UpdateLayoutTree' || n === 'ParseAuthorStyleSheet' || n === 'RecalculateStyles') return 'style';
  if (n === 'Layout' || n === 'UpdateLayout') return 'layout';
  if (/Paint|Layerize|Composit|Commit|Raster/.test(n)) return 'paint';
  if (e.cat.includes('v8') || /Script|FunctionCall|TimerFire|AnimationFrame|EventDispatch|Microtask/.test(n))
    return 'script';
  return 'other';
}

interface Slice {
  start: number;
  end: number;
  kind: Kind;
}

/** Self time of each complete event on one thread (its duration less its children's). */
function selfSlices(events: TraceEvent[]): Slice[] {
  const complete = events.filter((e) => e.ph === 'X' && e.dur !== undefined).sort((a, b) => a.ts - b.ts);
  const slices: Slice[] = [];
  const stack: { e: TraceEvent; cursor: number }[] = [];
  const close = (upTo: number) => {
    while (stack.length && stack[stack.length - 1]!.e.ts + stack[stack.length - 1]!.e.dur! <= upTo) {
      const top = stack.pop()!;
      const end = top.e.ts + top.e.dur!;
      if (end > top.cursor) slices.push({ start: top.cursor, end, kind: kindOf(top.e) });
      if (stack.length) stack[stack.length - 1]!.cursor = end;
    }
  };
  for (const e of complete) {
    close(e.ts);
    const parent = stack[stack.length - 1];
    if (parent && e.ts > parent.cursor)
      slices.push({ start: parent.cursor, end: e.ts, kind: kindOf(parent.e) });
    if (parent) parent.cursor = e.ts + e.dur!;
    stack.push({ e, cursor: e.ts });
  }
  close(Number.POSITIVE_INFINITY);
  return slices;
}

/** Milliseconds of `kinds` between two moments (µs of the trace's clock). */
function busy(slices: Slice[], from: number, to: number, kinds?: Kind[]): number {
  let total = 0;
  for (const s of slices) {
    if (kinds && !kinds.includes(s.kind)) continue;
    total += Math.max(0, Math.min(s.end, to) - Math.max(s.start, from));
  }
  return total / 1000;
}

/** The opening's steps in ms from the navigation's start; `onScreenMs` as the page probe measured it. */
export function openingSteps(raw: unknown[], onScreenMs: number): Steps {
  const events = raw as TraceEvent[];
  const nav = events.find(
    (e) => e.name === 'navigationStart' && e.args?.data?.documentLoaderURL?.includes('#/'),
  );
  if (!nav) throw new Error('the trace has no navigationStart of the window');
  const main = events.filter((e) => e.pid === nav.pid && e.tid === nav.tid);
  const t0 = nav.ts;
  const at = (name: string, urlPart: string) => {
    const sent = events.find((e) => e.name === 'ResourceSendRequest' && e.args?.data?.url?.includes(urlPart));
    const id = sent?.args?.data?.requestId;
    const e =
      name === 'ResourceSendRequest'
        ? sent
        : events.find((x) => x.name === name && x.args?.data?.requestId === id);
    return e ? (e.ts - t0) / 1000 : Number.NaN;
  };
  const slices = selfSlices(main);
  const sentAt = at('ResourceSendRequest', '/ui/api/opening');
  const answeredAt = at('ResourceReceiveResponse', '/ui/api/opening');
  const us = (ms: number) => t0 + ms * 1000;
  const screen = us(onScreenMs);
  const before = (kinds: Kind[]) => busy(slices, t0, us(sentAt), kinds);
  const after = (kinds: Kind[]) => busy(slices, us(answeredAt), screen, kinds);
  const r = (v: number) => Math.round(v);
  return {
    documentAnswered: r(at('ResourceReceiveResponse', '/#/') || at('ResourceReceiveResponse', '/')),
    bundleLoaded: r(at('ResourceFinish', '/assets/index-')),
    openingSent: r(sentAt),
    openingAnswered: r(answeredAt),
    openingLoaded: r(at('ResourceFinish', '/ui/api/opening')),
    onScreen: r(onScreenMs),
    beforeSent_compile: r(before(['compile'])),
    beforeSent_script: r(before(['script', 'gc'])),
    beforeSent_other: r(before(['style', 'layout', 'paint', 'other'])),
    waiting_busy: r(busy(slices, us(sentAt), us(answeredAt))),
    afterAnswer_script: r(after(['script'])),
    afterAnswer_style: r(after(['style'])),
    afterAnswer_layout: r(after(['layout'])),
    afterAnswer_paint: r(after(['paint'])),
    afterAnswer_gc: r(after(['gc'])),
    afterAnswer_other: r(after(['other'])),
  };
}
