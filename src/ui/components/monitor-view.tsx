import { Button, Group, Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFocusOnMount } from '../use-focus-on-mount.js';
import type { MonitorEpoch, NumberedMonitorEntry } from '../api.js';

const KEEP = 1000;
const ROW_HEIGHT = 28;
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'MCP'];
const STATUS_CLASSES = ['2xx', '3xx', '4xx', '5xx'];
const STATUS_COLOR: Record<string, string> = { '2': 'green', '3': 'blue', '4': 'orange', '5': 'red' };

/**
 * Window › REST API Monitor: every request to the REST server and every agent tool call, live.
 * Entries arrive in batches (server push) and are drawn as a virtual list: a burst of thousands
 * a second stays smooth. Newest at the bottom; following stops while the user scrolls up.
 */
export function MonitorView() {
  const { t } = useTranslation();
  const heading = useFocusOnMount<HTMLHeadingElement>();
  const [entries, setEntries] = useState<NumberedMonitorEntry[]>([]);
  const [paused, setPaused] = useState(false);
  const pausedRef = useRef(false);
  pausedRef.current = paused;
  const [method, setMethod] = useState<string | null>(null);
  const [statusClass, setStatusClass] = useState<string | null>(null);
  const [pathFilter, setPathFilter] = useState('');
  const follow = useRef(true);
  const lastTop = useRef(0);
  const scroller = useRef<HTMLDivElement>(null);

  // The newest entry this window has had (shown, paused over or cleared), by the server's
  // number: every connection resends the latest entries, and none may show twice or come back.
  const seen = useRef({ epoch: '', seq: 0 });

  useEffect(() => {
    const source = new EventSource('/ui/api/monitor/stream');
    source.addEventListener('epoch', (event) => {
      const { epoch } = JSON.parse((event as MessageEvent<string>).data) as MonitorEpoch;
      // pim was restarted: its numbers start again at 1.
      if (epoch !== seen.current.epoch) seen.current = { epoch, seq: 0 };
    });
    source.addEventListener('entries', (event) => {
      const all = JSON.parse((event as MessageEvent<string>).data) as NumberedMonitorEntry[];
      const batch = all.filter((e) => e.seq > seen.current.seq);
      if (batch.length === 0) return;
      seen.current.seq = batch[batch.length - 1]!.seq;
      if (pausedRef.current) return;
      setEntries((old) => [...old, ...batch].slice(-KEEP));
    });
    return () => source.close();
  }, []);

  const visible = useMemo(
    () =>
      entries.filter(
        (e) =>
          (!method || e.method === method) &&
          (!statusClass || String(e.status)[0] === statusClass[0]) &&
          (!pathFilter || e.path.toLowerCase().includes(pathFilter.toLowerCase())),
      ),
    [entries, method, statusClass, pathFilter],
  );
  const virtualizer = useVirtualizer({
    count: visible.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 20,
  });
  useEffect(() => {
    if (follow.current && visible.length > 0) virtualizer.scrollToIndex(visible.length - 1, { align: 'end' });
  }, [visible.length, virtualizer]);

  return (
    <Stack h={VIEW_HEIGHT} component="section" aria-labelledby="monitor-title">
      <Group justify="space-between">
        <Title order={1} size="h3" id="monitor-title" ref={heading} tabIndex={-1}>
          {t('monitor.title')}
        </Title>
        <Text size="sm" data-testid="monitor-count">
          {t('monitor.count', { count: visible.length })}
        </Text>
      </Group>
      <Group>
        <Select
          aria-label={t('monitor.method')}
          placeholder={t('monitor.allMethods')}
          data={METHODS}
          value={method}
          onChange={setMethod}
          clearable
          w={150}
        />
        <Select
          aria-label={t('monitor.status')}
          placeholder={t('monitor.allStatus')}
          data={STATUS_CLASSES}
          value={statusClass}
          onChange={setStatusClass}
          clearable
          w={150}
        />
        <TextInput
          aria-label={t('monitor.filterPath')}
          placeholder={t('monitor.filterPath')}
          value={pathFilter}
          onChange={(e) => setPathFilter(e.currentTarget.value)}
        />
        <Button variant="default" onClick={() => setPaused((p) => !p)}>
          {paused ? t('monitor.resume') : t('monitor.pause')}
        </Button>
        <Button variant="default" onClick={() => setEntries([])}>
          {t('monitor.clear')}
        </Button>
      </Group>
      <Paper
        withBorder
        role="table"
        aria-label={t('monitor.title')}
        aria-rowcount={visible.length + 1}
        // Narrower than its columns need, the table scrolls sideways inside its frame, not the page.
        style={{ flex: 1, minHeight: 0, display: 'flex', overflowX: 'auto' }}
      >
        <div
          role="presentation"
          style={{ flex: 1, minWidth: TABLE_MIN_WIDTH, display: 'flex', flexDirection: 'column' }}
        >
          <div role="rowgroup">
            <div
              role="row"
              style={{ display: 'grid', gridTemplateColumns: COLUMNS, padding: '4px 8px', fontWeight: 600 }}
            >
              <span role="columnheader">{t('monitor.time')}</span>
              <span role="columnheader">{t('monitor.method')}</span>
              <span role="columnheader">{t('monitor.path')}</span>
              <span role="columnheader">{t('monitor.status')}</span>
              <span role="columnheader">{t('monitor.duration')}</span>
              <span role="columnheader">{t('monitor.user')}</span>
            </div>
          </div>
          {visible.length === 0 && <Text p="md">{t('monitor.empty')}</Text>}
          <div
            ref={scroller}
            role="rowgroup"
            tabIndex={0}
            aria-label={t('monitor.title')}
            style={{ flex: 1, overflow: 'auto', position: 'relative' }}
            onScroll={(e) => {
              // Only a scroll up stops following: the event of our own scroll to the end may
              // arrive after the next burst made the list longer, and read as "not at the end".
              const el = e.currentTarget;
              if (el.scrollHeight - el.scrollTop - el.clientHeight < ROW_HEIGHT * 2) follow.current = true;
              else if (el.scrollTop < lastTop.current) follow.current = false;
              lastTop.current = el.scrollTop;
            }}
          >
            <div style={{ height: virtualizer.getTotalSize() }} role="presentation" />
            {virtualizer.getVirtualItems().map((item) => {
              const e = visible[item.index]!;
              return (
                <div
                  key={item.key}
                  role="row"
                  aria-rowindex={item.index + 2}
                  data-testid="monitor-row"
                  style={{
                    position: 'absolute',
                    top: 0,
                    transform: `translateY(${item.start}px)`,
                    height: ROW_HEIGHT,
                    width: '100%',
                    display: 'grid',
                    gridTemplateColumns: COLUMNS,
                    alignItems: 'center',
                    padding: '0 8px',
                    fontFamily: 'monospace',
                    fontSize: 13,
                  }}
                >
                  <span role="cell">{new Date(e.timestamp).toLocaleTimeString()}</span>
                  <span role="cell">{e.method}</span>
                  <span
                    role="cell"
                    style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
                  >
                    {e.path}
                  </span>
                  <span role="cell">
                    <StatusCode status={e.status} />
                  </span>
                  <span role="cell">{e.durationMs}</span>
                  <span role="cell">{e.user ?? ''}</span>
                </div>
              );
            })}
          </div>
        </div>
      </Paper>
    </Stack>
  );
}

const COLUMNS = '110px 70px minmax(160px, 1fr) 70px 70px 120px';
/** The fixed columns and a path column still worth reading, with the rows' padding. */
const TABLE_MIN_WIDTH = 620;
/** What the shell leaves between its bars (they grow in a narrow window, where they wrap). */
const VIEW_HEIGHT =
  'calc(100dvh - var(--app-shell-header-offset, 0rem) - var(--app-shell-footer-offset, 0rem) - 2 * var(--app-shell-padding))';

/** The status with its class's colour as a mark beside the number (the number itself stays dark: contrast). */
function StatusCode({ status }: { status: number }) {
  const color = STATUS_COLOR[String(status)[0]!] ?? 'gray';
  return (
    <span
      style={{ display: 'inline-flex', alignItems: 'center', gap: 6, fontWeight: 600 }}
      data-status-class={String(status)[0]}
    >
      <span
        aria-hidden
        style={{ width: 10, height: 10, borderRadius: 2, background: `var(--mantine-color-${color}-6)` }}
      />
      {status}
    </span>
  );
}
