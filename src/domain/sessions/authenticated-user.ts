import type { SessionKind } from '../../db/system.schema.js';
import type { User } from '../users/user.service.js';

/**
 * A user as a live session vouches for them: the session (by its token's hash), until when, and
 * whether it is a REST token or the window's desktop session. Its own file: the session service,
 * its cache and the desktop slot all speak of it, and none of them should import the others for it.
 */
export interface AuthenticatedUser extends User {
  tokenHash: string;
  expiresAt: string;
  expiresAtMs: number;
  kind: SessionKind;
}
