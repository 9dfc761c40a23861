import type { DesktopSessionEnded } from '../domain/sessions/desktop-slot.js';
import { getCatalogueVersion } from '../domain/changes/change-counter.service.js';
import type { JobEvent } from '../domain/jobs/job.service.js';
import type { CatalogueChange } from './window-api.types.js';
import { EventStreams, type EventStream } from './event-stream.js';
import type { WindowJob } from './job-api.types.js';
import { UploadReads } from './upload-reads.js';
import type { WindowDeps } from './window-deps.js';
import { windowStatus, type WindowStatus } from './window-status.js';

const STATUS_CHECK_MS = 250;

/**
 * The window's server push. The end of the desktop session is sent at once (the session service
 * reports it); the status (user, workspace, REST server) is compared every 250 ms while a window
 * listens, and sent when it changed, whoever changed it (REST, an agent, the CLI). The jobs this
 * instance runs for the desktop user (an import started in the window or over REST) are sent as
 * they start, progress and end (`job`); jobs of other instances in team mode are not pushed.
 */
export class WindowEvents {
  /** Every open stream of this window server (events and monitor): none outlives its session. */
  readonly all = new EventStreams();
  private readonly streams = new Set<EventStream>();
  private timer: NodeJS.Timeout | undefined;
  private last = '';
  private catalogue: CatalogueChange | undefined;
  private readonly stopListening: () => void;
  private readonly stopJobs: () => void;
  /** The files this window uploaded for imports: how much of each is read. */
  readonly reads = new UploadReads();

  constructor(private readonly deps: WindowDeps) {
    this.stopListening = deps.sessions.onDesktopSessionEnded((event) => this.ended(event));
    this.stopJobs = deps.jobs.onEvent((event) => this.job(event));
  }

  /** A job of the desktop user: to every window stream (at most every 250 ms a job, JobService's pace). */
  private job(event: JobEvent): void {
    if (this.deps.sessions.desktopUser()?.id !== event.actorId) return;
    const job = this.reads.withRead(event.job);
    for (const stream of this.streams) stream.send('job', job);
  }

  /** What a stream gets when it opens: the desktop user's jobs running here now. */
  jobsAtStart(): WindowJob[] {
    const user = this.deps.sessions.desktopUser();
    return this.deps.jobs
      .runningJobs()
      .filter((entry) => entry.actorId === user?.id)
      .map((entry) => this.reads.withRead(entry.job));
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
    if (json !== this.last) {
      this.last = json;
      for (const stream of this.streams) stream.send('status', status);
    }
    await this.checkCatalogue();
  }

  /**
   * The open workspace's change counter now (undefined without a desktop user or workspace, or
   * while the shared database is down: the status says so).
   */
  async catalogueVersion(): Promise<CatalogueChange | undefined> {
    const user = this.deps.sessions.desktopUser();
    const workspace = this.deps.workspaces.current();
    if (!user || !workspace) return undefined;
    try {
      return await getCatalogueVersion({ actor: user, clock: this.deps.clock, workspace });
    } catch {
      return undefined;
    }
  }

  /**
   * Sends the counter when it moved, whoever moved it (REST, MCP, the CLI, another instance in
   * team mode): the catalogue views refetch what they show instead of each polling. One cheap
   * read per check while a window listens. A stream gets the counter when it opens too, so a
   * change between a view's load and the stream's start is never missed.
   */
  private async checkCatalogue(): Promise<void> {
    const version = await this.catalogueVersion();
    if (version === undefined) return;
    const last = this.catalogue;
    this.catalogue = version;
    if (last && last.workspaceId === version.workspaceId && last.counter === version.counter) return;
    for (const stream of this.streams) stream.send('catalogue', version);
  }

  /** What a stream gets when it opens: the counter now, which later checks compare with. */
  async catalogueAtStart(): Promise<CatalogueChange | undefined> {
    const version = await this.catalogueVersion();
    if (version && this.catalogue === undefined) this.catalogue = version;
    return version;
  }

  close(): void {
    this.stopListening();
    this.stopJobs();
    this.all.endAll();
    if (this.timer) clearInterval(this.timer);
    this.streams.clear();
  }
}
