/** What one chunk of a mass edit or of its undo did: shared by the actions (mass-edit-actions.ts, mass-edit-delete.ts). */

/** A product a chunk changed, with what the action changed of it as it was before (stored for undo). */
export interface ChunkChange {
  id: number;
  before: unknown;
}

export interface ChunkOutcome {
  /** delete: the variants deleted along with their main products (selected or not). */
  deletedAlong?: number[];
  changes: ChunkChange[];
  unchanged: number;
  /** delete: the variants deleted with the products. */
  variantsDeleted: number;
}

/** What an undo chunk could not restore: products left alone (with why), notes of what was lost. */
export interface RestoreOutcome {
  skipped: { id: number; reason: string }[];
  lost: string[];
}
