/**
 * Random identifiers (run and session ids, temporary file names) from the kernel's random source,
 * without loading `node:crypto`.
 *
 * Why not `crypto.randomUUID()`: loading `node:crypto` costs about 13 ms of a process's start
 * (measured on Node 24: `node -e 0` 50 ms, with `randomUUID()` 64 ms, reading `/dev/urandom`
 * 52 ms), a tenth of a whole `hookwire run`. The bytes are the same kind: `/dev/urandom` is the
 * source `crypto.randomUUID` draws from on Linux. Bytes are read 512 at a time and handed out in
 * order, so an id costs one `readSync` per 32 ids. Where the device cannot be read (another
 * platform, a sandbox without `/dev`), `node:crypto` is loaded after all.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as NodeCrypto from 'node:crypto';

/** `node:crypto`, loaded only where `/dev/urandom` cannot be read. */
function crypto(): typeof NodeCrypto {
  return createRequire(import.meta.url)('node:crypto') as typeof NodeCrypto;
}

const POOL_SIZE = 512;
let pool: Buffer | undefined;
let offset = POOL_SIZE;
let deviceMissing = false;

function fillFromDevice(target: Buffer): boolean {
  if (deviceMissing) return false;
  let fd: number | undefined;
  try {
    fd = openSync('/dev/urandom', 'r');
    let filled = 0;
    while (filled < target.length) {
      const read = readSync(fd, target, filled, target.length - filled, null);
      if (read <= 0) return false;
      filled += read;
    }
    return true;
  } catch {
    deviceMissing = true;
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** `count` random bytes (a fresh Buffer). */
export function randomBytes(count: number): Buffer {
  if (count > POOL_SIZE) {
    const bytes = Buffer.allocUnsafe(count);
    if (fillFromDevice(bytes)) return bytes;
    return crypto().randomBytes(count);
  }
  if (pool === undefined || offset + count > POOL_SIZE) {
    pool ??= Buffer.allocUnsafe(POOL_SIZE);
    if (!fillFromDevice(pool)) return crypto().randomBytes(count);
    offset = 0;
  }
  const bytes = Buffer.from(pool.subarray(offset, offset + count));
  // Handed-out bytes are cleared so that no later reader of the pool sees them.
  pool.fill(0, offset, offset + count);
  offset += count;
  return bytes;
}

/** `count` random bytes as lower-case hex (`2 * count` characters). */
export function randomHex(count: number): string {
  return randomBytes(count).toString('hex');
}

/** A random (version 4, RFC 9562) UUID in its lower-case 8-4-4-4-12 form, as `crypto.randomUUID()`. */
export function randomUUID(): string {
  const bytes = randomBytes(16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
