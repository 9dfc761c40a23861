import { Type } from '@sinclair/typebox';

export const LoginRequest = Type.Object(
  {
    username: Type.String({ minLength: 1, maxLength: 256 }),
    password: Type.String({ minLength: 1, maxLength: 1024 }),
  },
  {
    title: 'LoginRequest',
    additionalProperties: false,
    examples: [{ username: 'admin', password: 'secret' }],
  },
);

export const LoginResult = Type.Object(
  {
    token: Type.String({ format: 'uuid', description: 'Bearer token, valid 24 hours from issue' }),
    username: Type.String(),
    role: Type.String({ description: 'ADMIN, EDITOR or VIEWER' }),
    expiresAt: Type.String({ format: 'date-time', description: 'Extension: when the token expires (UTC)' }),
  },
  { title: 'LoginResult', additionalProperties: false },
);
