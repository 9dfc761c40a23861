import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { CatalogueChange } from '../window/window-api.types.js';
import { api, WindowError, type SessionInfo, type WindowStatus } from './api.js';
import { forgetEarly } from './early-requests.js';
import { jobKeys, receiveJob, type WindowJob } from './jobs.js';
import { takeOpeningCatalogue } from './opening-requests.js';

/** The query keys' first parts of what the catalogue views show (refetched on a `catalogue` event). */
export const CATALOGUE_QUERIES = ['grid', 'groups', 'product'];

/** The window event that tells views with forms of their own that the catalogue changed. */
export const CATALOGUE_CHANGED = 'pim:catalogue-changed';

/** How often the window asks whether pim is back after losing the connection. */
const RETRY_MS = 1_000;

/**
 * The window's push channel: status changes go into the query cache (the status bar follows),
 * the end of the desktop session sends the window back to the login screen at once, the user's
 * jobs (imports) go into the cache as they start, progress and end.
 *
 * When the stream breaks (pim stopped, network gone), the browser's own reconnect would not
 * tell "unreachable" from "refused": instead the window asks for its session every second
 * (api() reports the connection lost or back) and reopens the stream once pim answers,
 * refetching what the views show, since they may have failed meanwhile.
 *
 * In team mode the stream itself needs the shared database (its session is checked there): while
 * the database is down, pim refuses it with 503 and no status can come. The window asks for its
 * session then too, and pim's answer, 503 DATABASE_UNAVAILABLE, is the status bar's fact until the
 * stream is back: else a window whose stream was refused (opened, or its stream broken, as the
 * database went down) would show the database reachable for the whole outage.
 */
export function useServerEvents(onSessionEnded: (reason: string) => void): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    let source: EventSource | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    // The counter the opening read the catalogue at: the stream's first, if the same, changes nothing.
    let opening: CatalogueChange | undefined = takeOpeningCatalogue();
    const connect = () => {
      source = new EventSource('/ui/api/events');
      // The stream's start names every job running now: those heard of before may have ended meanwhile.
      source.addEventListener('open', () => queryClient.setQueryData<WindowJob[]>(jobKeys.running, []));
      source.addEventListener('job', (event) => {
        receiveJob(queryClient, JSON.parse((event as MessageEvent<string>).data) as WindowJob);
      });
      source.addEventListener('status', (event) => {
        queryClient.setQueryData<WindowStatus>(['status'], JSON.parse((event as MessageEvent<string>).data));
      });
      // The catalogue changed (here, through REST or MCP, or on another instance): every catalogue
      // view refetches what it shows; TanStack keeps the rows on screen until the new ones arrive.
      source.addEventListener('catalogue', (event) => {
        const change = JSON.parse((event as MessageEvent<string>).data) as CatalogueChange;
        const unchanged = opening?.workspaceId === change.workspaceId && opening.counter === change.counter;
        opening = undefined;
        if (unchanged) return;
        // Answers asked for before the change are not taken any more (early-requests.ts).
        forgetEarly();
        void queryClient.invalidateQueries({
          predicate: (query) => CATALOGUE_QUERIES.includes(query.queryKey[0] as string),
        });
        // Views that keep a form of their own (the editor) decide themselves what to refresh.
        window.dispatchEvent(new Event(CATALOGUE_CHANGED));
      });
      source.addEventListener('session-ended', (event) => {
        stopped = true;
        source?.close();
        const { reason } = JSON.parse((event as MessageEvent<string>).data) as { reason: string };
        onSessionEnded(reason);
      });
      source.addEventListener('error', () => {
        source?.close();
        if (!stopped) retry = setTimeout(() => void reconnect(), RETRY_MS);
      });
    };
    const reconnect = async () => {
      let info: SessionInfo;
      try {
        info = await api<SessionInfo>('GET', '/session');
      } catch (error) {
        if (error instanceof WindowError && error.code === 'DATABASE_UNAVAILABLE') {
          queryClient.setQueryData<WindowStatus>(['status'], databaseUnreachable);
        }
        if (!stopped) retry = setTimeout(() => void reconnect(), RETRY_MS);
        return;
      }
      if (stopped) return;
      // Ended while the window was away (it heard no push): back to the login screen.
      if (!info.user) return onSessionEnded('ended');
      opening = undefined;
      connect();
      void queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== 'session' });
    };
    connect();
    return () => {
      stopped = true;
      clearTimeout(retry);
      source?.close();
    };
  }, [queryClient, onSessionEnded]);
}

/** The status with the shared database unreachable (no status yet: nothing to show either way). */
function databaseUnreachable(status: WindowStatus | undefined): WindowStatus | undefined {
  if (!status || status.database.kind !== 'postgres') return status;
  return { ...status, database: { ...status.database, reachable: false } };
}
