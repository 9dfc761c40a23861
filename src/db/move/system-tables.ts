/**
 * What becomes of each table of system.sqlite when `pim db move` turns a data folder into team
 * mode. Users and the workspace registry move to the shared schema; sessions stay behind (a
 * token names the instance that issued it, and users log in again after the move); settings and
 * the open workspace belong to this instance and stay in its data folder in team mode too. A
 * table missing here stops the move (app/db-move/source-catalogue.ts).
 */
export const SYSTEM_TABLES: Record<string, 'copy' | 'not copied' | 'stays local'> = {
  user: 'copy',
  // A user's window choices go with the user (after it: the rows name it).
  user_preference: 'copy',
  workspace: 'copy',
  session: 'not copied',
  setting: 'stays local',
  app_state: 'stays local',
  // A finished job's record describes work done on this machine's data; the moved data is the result.
  job: 'not copied',
};
