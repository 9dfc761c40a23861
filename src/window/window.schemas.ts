import { Type, type Static } from '@sinclair/typebox';
import { Id } from '../domain/common.schemas.js';

/** Requests of the window's own endpoints (/ui/api). Responses are the envelope, as on REST. */
export const LoginRequest = Type.Object(
  {
    username: Type.String({ minLength: 1, maxLength: 64 }),
    password: Type.String({ minLength: 1, maxLength: 1024 }),
  },
  { additionalProperties: false },
);

export const RestSettingsRequest = Type.Object(
  {
    enabled: Type.Boolean(),
    port: Type.Integer({ minimum: 1024, maximum: 65535 }),
    host: Type.String({ minLength: 1, maxLength: 253 }),
  },
  { additionalProperties: false },
);

export const OpenWorkspaceWindowRequest = Type.Object({ workspaceId: Id }, { additionalProperties: false });

// The service trims the name and checks its rules; the body limit bounds it.
export const CreateWorkspaceWindowRequest = Type.Object(
  {
    name: Type.String({ minLength: 1 }),
    language: Type.Optional(Type.String({ minLength: 1, maxLength: 16 })),
  },
  { additionalProperties: false },
);

export type LoginBody = Static<typeof LoginRequest>;
export type RestSettingsBody = Static<typeof RestSettingsRequest>;
