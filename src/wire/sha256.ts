/**
 * A sha256 hash from `node:crypto`, loaded on the first call: every command loads the hook kinds'
 * registry (hook identities, named files, module hashes, ahp event ids), and `hooks list` or a run
 * with no hook must not pay for `node:crypto` (test/cli/bin.test.ts).
 */
import type * as Crypto from 'node:crypto';
import { createRequire } from 'node:module';

const requireBuiltin = createRequire(import.meta.url);
let crypto: typeof Crypto | undefined;

/** A fresh sha256 `Hash`. */
export function sha256(): Crypto.Hash {
  crypto ??= requireBuiltin('node:crypto') as typeof Crypto;
  return crypto.createHash('sha256');
}
