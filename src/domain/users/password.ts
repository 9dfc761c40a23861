import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import argon2 from 'argon2';

/**
 * Password hashes: argon2id with OWASP's parameters (19 MiB, 2 passes, 1 lane), stored as PHC
 * strings (`$argon2id$v=19$m=19456,p=1,t=2$salt$hash`). Chosen over scrypt at OWASP's N=2^17
 * because both are today's recommendation, and on these machines a verification costs about
 * 45 ms with argon2id against about 840 ms with scrypt: a login flood occupies the CPU a
 * twentieth as long.
 *
 * Hashes of earlier versions (`scrypt$N$r$p$salt$hash`) still verify, and `needsRehash` tells
 * the login to replace them. The parameters of a stored hash are checked against upper bounds
 * before anything is computed: a tampered row must not make a login allocate gigabytes.
 */
export const ARGON2_PARAMETERS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * The test suite's parameters, when PIM_TEST_WEAK_PASSWORD_HASHES=1 (vitest.config.ts sets it):
 * the suite hashes thousands of passwords, and on the 2-core CI machine each OWASP hash costs about
 * 0.1 s of CPU. Never set it for an installation. Verification reads the parameters from the
 * stored hash, so a production hash verifies at production cost either way; the tests that depend
 * on the cost (the production parameters, in-flight logins, the verification bound) turn it off.
 */
const TEST_ARGON2_PARAMETERS = { memoryCost: 64, timeCost: 1, parallelism: 1 } as const;

function currentParameters(): typeof ARGON2_PARAMETERS | typeof TEST_ARGON2_PARAMETERS {
  return process.env.PIM_TEST_WEAK_PASSWORD_HASHES === '1' ? TEST_ARGON2_PARAMETERS : ARGON2_PARAMETERS;
}

const LIMITS = {
  argon2Memory: 262_144,
  argon2Time: 10,
  argon2Lanes: 8,
  scryptN: 2 ** 17,
  scryptR: 16,
  scryptP: 4,
};
const PHC_PARAMETERS = /^m=(\d{1,9}),p=(\d{1,3}),t=(\d{1,3})$/;
const PHC_BASE64 = /^[A-Za-z0-9+/]{11,}$/;

/** The parameters of a PHC argon2id string (`$argon2id$v=19$m=…,p=…,t=…$salt$hash`), if well-formed. */
function argon2Parameters(stored: string): { m: number; t: number; p: number } | undefined {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[1] !== 'argon2id' || parts[2] !== 'v=19') return undefined;
  // The library writes the parameters sorted by name; accept that order only.
  const match = PHC_PARAMETERS.exec(parts[3]!);
  if (!match || !PHC_BASE64.test(parts[4]!) || !PHC_BASE64.test(parts[5]!)) return undefined;
  return { m: Number(match[1]), p: Number(match[2]), t: Number(match[3]) };
}
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

function normalise(password: string): string {
  return password.normalize('NFC');
}

export async function hashPassword(password: string): Promise<string> {
  return argon2.hash(normalise(password), { type: argon2.argon2id, ...currentParameters() });
}

/** True when the password matches; false for a wrong password and for any malformed or out-of-bounds hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  try {
    if (stored.startsWith('$argon2id$')) return await verifyArgon2(password, stored);
    if (stored.startsWith('scrypt$')) return await verifyScrypt(password, stored);
  } catch {
    // A hash the library refuses is a refused login, never an error answer.
  }
  return false;
}

/** Whether a stored hash should be replaced by one with today's scheme and parameters. */
export function needsRehash(stored: string): boolean {
  const parameters = argon2Parameters(stored);
  const current = currentParameters();
  return (
    !parameters ||
    parameters.m !== current.memoryCost ||
    parameters.t !== current.timeCost ||
    parameters.p !== current.parallelism
  );
}

async function verifyArgon2(password: string, stored: string): Promise<boolean> {
  const parameters = argon2Parameters(stored);
  if (!parameters) return false;
  const { m, t, p } = parameters;
  if (
    m < 8 * p ||
    m > LIMITS.argon2Memory ||
    t < 1 ||
    t > LIMITS.argon2Time ||
    p < 1 ||
    p > LIMITS.argon2Lanes
  ) {
    return false;
  }
  return argon2.verify(stored, normalise(password));
}

async function verifyScrypt(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6) return false;
  const [, n, r, p, salt, hash] = parts as [string, string, string, string, string, string];
  const [N, R, P] = [Number(n), Number(r), Number(p)];
  const powerOfTwo = Number.isInteger(N) && N > 1 && (N & (N - 1)) === 0;
  if (!powerOfTwo || N > LIMITS.scryptN || !Number.isInteger(R) || R < 1 || R > LIMITS.scryptR) return false;
  if (!Number.isInteger(P) || P < 1 || P > LIMITS.scryptP || !BASE64.test(salt) || !BASE64.test(hash))
    return false;
  const expected = Buffer.from(hash, 'base64');
  if (expected.length < 16) return false;
  const actual = await new Promise<Buffer>((resolve, reject) => {
    scrypt(
      normalise(password),
      Buffer.from(salt, 'base64'),
      expected.length,
      { N, r: R, p: P, maxmem: 256 * N * R + 1024 * 1024 },
      (error, key) => (error ? reject(error) : resolve(key)),
    );
  });
  return timingSafeEqual(actual, expected);
}

/**
 * A hash of no real password, verified for unknown users so that their answer takes as long: one
 * per parameter set, so that it costs what a user's hash costs now (the test suite changes the
 * set between files that share a process).
 */
const dummyHashes = new Map<ReturnType<typeof currentParameters>, Promise<string>>();
export function dummyPasswordHash(): Promise<string> {
  const parameters = currentParameters();
  let hash = dummyHashes.get(parameters);
  if (!hash) {
    hash = hashPassword(randomBytes(16).toString('hex'));
    dummyHashes.set(parameters, hash);
  }
  return hash;
}
