import type { FastifyInstance } from 'fastify';
import { UnauthorizedError } from '../../domain/errors.js';
import { ok, okEmpty } from '../../http/envelope.js';
import type { AuthenticatedUser } from '../../domain/sessions/authenticated-user.js';
import type { WindowDeps } from '../window-deps.js';
import { clearSessionCookie, sessionCookie, setSessionCookie } from '../window-guard.js';
import type { WindowEvents } from '../window-events.js';
import { LoginRequest, type LoginBody } from '../window.schemas.js';

/** The desktop session: who is logged in to this instance's window, login, logout, and the push channel. */
export function sessionRoutes(app: FastifyInstance, deps: WindowDeps, events: WindowEvents): void {
  app.get('/ui/api/session', { config: { windowPublic: true } }, async (request) => {
    let user = null;
    try {
      const current = await deps.sessions.authenticateDesktop(sessionCookie(request));
      user = { username: current.username, role: current.role, rights: current.rights };
    } catch (error) {
      // No session, or it ended: the login screen. Anything else (the shared database down) is
      // answered as such: the session may be alive, and the window waits instead of logging out.
      if (!(error instanceof UnauthorizedError)) throw error;
    }
    // The machine id and version are for the logged-in window (About); a stranger learns nothing.
    return ok(user ? { user, machineId: deps.machineId, version: deps.version } : { user: null });
  });

  app.post<{ Body: LoginBody }>(
    '/ui/api/session/login',
    { config: { windowPublic: true }, schema: { body: LoginRequest } },
    async (request, reply) => {
      const { username, password } = request.body;
      const result = await deps.sessions.loginDesktop(username, password, {
        address: request.socket.remoteAddress ?? '',
        window: true,
      });
      setSessionCookie(reply, result.token);
      const user = result.user;
      return ok({
        user: { username: user.username, role: user.role, rights: user.rights },
        replaced: result.replaced,
      });
    },
  );

  app.post('/ui/api/session/logout', async (request, reply) => {
    await deps.sessions.logoutDesktop(sessionCookie(request)!);
    clearSessionCookie(reply);
    return okEmpty();
  });

  /**
   * The window's push channel: `status` whenever the status bar changes, `catalogue` whenever the
   * open workspace's catalogue does (and each once at the start), `job` as the user's jobs here
   * start, progress and end (at the start: those running), `session-ended` once.
   */
  app.get('/ui/api/events', async (request, reply) => {
    const stream = events.all.open(reply, () => unsubscribe());
    const unsubscribe = events.subscribe(stream);
    if (!sameSession(deps, request.user!)) return stream.end();
    stream.send('status', await events.status());
    const catalogue = await events.catalogueAtStart();
    if (catalogue) stream.send('catalogue', catalogue);
    for (const job of events.jobsAtStart()) stream.send('job', job);
  });
}

/** Whether the session that opened a stream is still the desktop session (it may have ended meanwhile). */
export function sameSession(deps: WindowDeps, user: AuthenticatedUser): boolean {
  return deps.sessions.desktopUser()?.tokenHash === user.tokenHash;
}
