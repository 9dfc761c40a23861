import type { DesktopSessionEnded } from '../domain/sessions/desktop-slot.js';
import { EventStreams, type EventStream } from './event-stream.js';
import type { WindowDeps } from './window-deps.js';
import { windowStatus, type WindowStatus } from './window-status.js';

const STATUS_CHECK_MS = 250;

/**
 * The window's server push. The end of the desktop session is sent at once (the session service
 * reports it); the status (user, workspace, REST server) is compared every 250 ms while a window
 * listens, and sent when it changed, whoever changed it (REST, an agent, the CLI).
 */
export class WindowEvents {
  /** Every open stream of this window server (events and monitor): none outlives its session. */
  readonly all = new EventStreams();
  private readonly streams = new Set<EventStream>();
  private timer: NodeJS.Timeout | undefined;
  private last = '';
  private readonly stopListening: () => void;

  constructor(private readonly deps: WindowDeps) {
    this.stopListening = deps.sessions.onDesktopSessionEnded((event) => this.ended(event));
  }

  /** The session ended: every stream ends now (none outlives it, no status follows), each once it has said why. */
  private ended(event: DesktopSessionEnded): void {
    const listening = new Set(this.streams);
    this.streams.clear();
    this.all.endAll(listening);
    for (const stream of listening) {
      stream.send('session-ended', event);
      stream.end();
    }
  }

  async status(): Promise<WindowStatus> {
    return windowStatus(this.deps, this.deps.sessions.desktopUser());
  }

  subscribe(stream: EventStream): () => void {
    this.streams.add(stream);
    this.timer ??= setInterval(() => {
      this.check().catch((error: unknown) =>
        console.error('pim: the window status could not be read:', error),
      );
    }, STATUS_CHECK_MS);
    return () => {
      this.streams.delete(stream);
      if (this.streams.size === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = undefined;
      }
    };
  }

  private async check(): Promise<void> {
    const status = await this.status();
    const json = JSON.stringify(status);
    if (json === this.last) return;
    this.last = json;
    for (const stream of this.streams) stream.send('status', status);
  }

  close(): void {
    this.stopListening();
    this.all.endAll();
    if (this.timer) clearInterval(this.timer);
    this.streams.clear();
  }
}
