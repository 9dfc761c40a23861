/**
 * The SHA-256 of bearer tokens that recently proved live, so that the token check of nearly
 * every request (SessionService.cachedUser) does not hash the same token again.
 *
 * A pure function's results, nothing more: the session itself is still looked up by its hash
 * in the session cache on every request, so a session ended here or elsewhere is noticed exactly
 * as before. Keyed by the token exactly as sent (two spellings of one token are two entries, each
 * with its own hash computed from it): a token is never answered with another's hash.
 *
 * Bounded, and only tokens whose session the cache held are remembered, so tokens made up by a
 * client cannot push the live ones out; the owner forgets everything whenever its session cache
 * forgets anything, so the plain text of an ended session's token is not kept around.
 */
export class TokenHashMemo {
  private readonly hashes = new Map<string, string>();

  constructor(
    private readonly hash: (token: string) => string,
    private readonly capacity = 10_000,
  ) {}

  /** The token's hash: remembered, or computed (and not remembered: see remember). */
  hashOf(token: string): string {
    return this.hashes.get(token) ?? this.hash(token);
  }

  /** Remembers a token's hash (hashOf's answer) once its session turned out to be live. */
  remember(token: string, tokenHash: string): void {
    if (this.hashes.has(token)) return;
    // The oldest goes first (a Map iterates in insertion order).
    if (this.hashes.size >= this.capacity) this.hashes.delete(this.hashes.keys().next().value!);
    this.hashes.set(token, tokenHash);
  }

  forgetAll(): void {
    this.hashes.clear();
  }

  get size(): number {
    return this.hashes.size;
  }
}
