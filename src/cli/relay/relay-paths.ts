/**
 * Where a project's relay daemon listens (decision 0035): one Unix socket per project, in the
 * user's runtime directory — `$XDG_RUNTIME_DIR/hookwire/` when `XDG_RUNTIME_DIR` is set, else
 * `/tmp/hookwire-<uid>/` — named by the FNV-1a 64-bit hash of the project's real path
 * (`<hash>.sock`, beside it `<hash>.lock` for starters and `<hash>.log`). The directory must be
 * the user's own and closed to everyone else (mode 0700): a directory that is not is an error,
 * never a reason to listen somewhere else. The native client (`native/hookwire-relay.c`) derives
 * the same path the same way.
 */
import { lstatSync, mkdirSync, realpathSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CliError } from '../cli-error.ts';

/** FNV-1a, 64 bits, as 16 hex digits (the C client computes the same). */
export function fnv1a64(text: string): string {
  let hash = 0xcbf29ce484222325n;
  for (const byte of Buffer.from(text, 'utf8')) {
    hash ^= BigInt(byte);
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString(16).padStart(16, '0');
}

/** The user's runtime directory for hookwire's sockets, created 0700 and checked. */
export function relayRuntimeDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env['XDG_RUNTIME_DIR'];
  const uid = process.getuid?.() ?? 0;
  const dir =
    xdg !== undefined && xdg !== '' ? join(xdg, 'hookwire') : join('/tmp', `hookwire-${uid}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const info = lstatSync(dir);
  if (!info.isDirectory() || info.uid !== uid || (info.mode & 0o077) !== 0)
    throw new CliError(
      `${dir} must be a directory owned by you (uid ${uid}) with mode 0700 (it is ${info.isDirectory() ? `owned by ${info.uid}, mode ${(info.mode & 0o777).toString(8)}` : 'not a directory'}); fix or remove it, then run again`,
      { code: 'relay_runtime_dir_unsafe' },
    );
  return dir;
}

/** The paths of one project's daemon. */
export interface RelayPaths {
  /** The project's real path (what the hash is of). */
  readonly projectDir: string;
  readonly socket: string;
  readonly lock: string;
  readonly log: string;
  /** The running daemon's pid (written once it listens, removed when it stops). */
  readonly pid: string;
}

export function relayPaths(projectDir: string, env: NodeJS.ProcessEnv = process.env): RelayPaths {
  const real = realpathSync(resolve(projectDir));
  const base = join(relayRuntimeDir(env), fnv1a64(real));
  return {
    projectDir: real,
    socket: `${base}.sock`,
    lock: `${base}.lock`,
    log: `${base}.log`,
    pid: `${base}.pid`,
  };
}

/**
 * The build a client and a daemon belong to: the size and modification time (ns) of the CLI
 * entry file both run (`process.argv[1]`), so a rebuilt or upgraded hookwire replaces the daemon
 * an older build left running. The native client reads the same with one `stat`.
 */
export function buildIdOf(entry: string): string {
  const info = statSync(entry, { bigint: true });
  return `${info.size}-${info.mtimeNs}`;
}
