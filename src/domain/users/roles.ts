/**
 * Roles and the rights they grant. The spec names only the right `Einstellungen`
 * (settings) and the role ADMIN; the other rights and roles are the project's answer,
 * named in the same (German, desktop) vocabulary.
 */
export const ROLES = ['ADMIN', 'EDITOR', 'VIEWER'] as const;
export type Role = (typeof ROLES)[number];

export const RIGHTS = {
  /** Read products, texts, features, groups and workspaces. */
  read: 'Lesen',
  /** Create, change and delete catalogue data. */
  edit: 'Bearbeiten',
  /** Open and create workspaces. */
  workspaces: 'Arbeitsbereiche',
  /** Change the application settings (REST enabled, port). */
  settings: 'Einstellungen',
  /** Manage users. */
  users: 'Benutzerverwaltung',
} as const;
export type Right = (typeof RIGHTS)[keyof typeof RIGHTS];

const ROLE_RIGHTS: Record<Role, readonly Right[]> = {
  ADMIN: Object.values(RIGHTS),
  EDITOR: [RIGHTS.read, RIGHTS.edit, RIGHTS.workspaces],
  VIEWER: [RIGHTS.read],
};

export function rightsOf(role: Role): readonly Right[] {
  return ROLE_RIGHTS[role];
}

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}
