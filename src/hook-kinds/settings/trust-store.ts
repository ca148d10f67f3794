import { randomHex } from '../../content/random-id.ts';
import { mkdir, readFile, realpath, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { HookwireError } from '../../content/index.ts';
import { isJsonObject } from '../../wire/json-object.ts';
import type { SettingsEnvironment } from './settings-layer.ts';

/** What the trust record keeps about one trusted hook, to show it again (`hooks untrust`). */
export interface TrustedHookEntry {
  readonly event: string;
  readonly matcher: string;
  /** The command, url or prompt: what the user saw when trusting it. */
  readonly summary: string;
  readonly file: string;
  /** ISO 8601. */
  readonly trustedAt: string;
  /**
   * A hook that runs files of the project: the fingerprint of its definition without them
   * (`definitionFingerprint`) and the files as they were when trusted (`namedFiles`), to say
   * which one changed since.
   */
  readonly definition?: string;
  readonly files?: Readonly<Record<string, string>>;
}

/**
 * The trust record, `~/.hookwire/trusted-hooks.json`: per project (its real path), the
 * SHA-256 fingerprints (`hookFingerprint`) of the hooks the user trusted there.
 */
export interface TrustStore {
  readonly version: 1;
  readonly projects: Readonly<
    Record<string, { readonly hooks: Readonly<Record<string, TrustedHookEntry>> }>
  >;
}

/** The trust record cannot be read or does not hold what hookwire writes there. */
export class TrustStoreError extends HookwireError {
  readonly file: string;
  constructor(file: string, message: string, options?: { cause?: unknown }) {
    super('trust_store_invalid', `${file}: ${message}`, options);
    this.name = 'TrustStoreError';
    this.file = file;
  }
}

const EMPTY: TrustStore = { version: 1, projects: {} };

/** The path of the trust record: `$HOOKWIRE_HOME/.hookwire/trusted-hooks.json` (home by default). */
export function trustStoreFile(env: SettingsEnvironment = process.env): string {
  const home =
    env.HOOKWIRE_HOME === undefined || env.HOOKWIRE_HOME === '' ? homedir() : env.HOOKWIRE_HOME;
  return resolve(home, '.hookwire', 'trusted-hooks.json');
}

/** The real path of a project directory (symbolic links resolved): the trust record's key. */
export async function projectKey(projectDir: string): Promise<string> {
  try {
    return await realpath(projectDir);
  } catch {
    return resolve(projectDir);
  }
}

/**
 * Reads the trust record. A missing file is an empty record; a file that is not the record's
 * JSON throws a `TrustStoreError` (it is never overwritten then: nothing the user trusted is lost).
 */
export async function readTrustStore(file: string): Promise<TrustStore> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return EMPTY;
    throw new TrustStoreError(
      file,
      `the trust record cannot be read (${error instanceof Error ? error.message : String(error)}); make it readable`,
      { cause: error },
    );
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new TrustStoreError(
      file,
      'the trust record is not valid JSON; fix it, or delete it and trust the projects again with "hookwire hooks trust"',
      { cause: error },
    );
  }
  if (!isJsonObject(raw) || raw.version !== 1 || !isJsonObject(raw.projects)) {
    throw new TrustStoreError(
      file,
      'the trust record is not a hookwire trust record ({"version": 1, "projects": {...}}); fix it, or delete it and trust the projects again',
    );
  }
  const projects: Record<string, { hooks: Record<string, TrustedHookEntry> }> = {};
  for (const [project, value] of Object.entries(raw.projects)) {
    if (!isJsonObject(value) || !isJsonObject(value.hooks)) continue;
    const hooks: Record<string, TrustedHookEntry> = {};
    for (const [fingerprint, entry] of Object.entries(value.hooks)) {
      if (/^[0-9a-f]{64}$/.test(fingerprint) && isJsonObject(entry))
        hooks[fingerprint] = entry as unknown as TrustedHookEntry;
    }
    projects[project] = { hooks };
  }
  return { version: 1, projects };
}

/** The fingerprints trusted for the project whose real path is `project`. */
export function trustedFingerprints(store: TrustStore, project: string): ReadonlySet<string> {
  return new Set(Object.keys(store.projects[project]?.hooks ?? {}));
}

/**
 * What the trusted hooks of `project` ran when trusted, by definition fingerprint (see
 * `HookTrust.recorded`): an entry with `definition` and `files` gives its files; an entry from
 * before files were recorded is filed under its own fingerprint with `null`.
 */
export function recordedNamedFiles(
  store: TrustStore,
  project: string,
): Map<string, Readonly<Record<string, string>> | null> {
  const recorded = new Map<string, Readonly<Record<string, string>> | null>();
  for (const [fingerprint, entry] of Object.entries(store.projects[project]?.hooks ?? {})) {
    const files = entry.files;
    if (typeof entry.definition === 'string' && isJsonObject(files))
      recorded.set(entry.definition, files);
    else if (!recorded.has(fingerprint)) recorded.set(fingerprint, null);
  }
  return recorded;
}

/** How long `updateTrustStore` waits for another process's update before giving up. */
const LOCK_WAIT_MS = 30_000;
/** A lock older than this whose owner cannot be checked is taken as left behind by a crash. */
const STALE_LOCK_MS = 60_000;

/** Whether the process `pid` is running (a lock's owner). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the trust record's lock, `FILE.lock` (created exclusively, holding this process's id),
 * waiting while another process holds it; a lock whose process is gone (or older than a minute
 * and unreadable) is removed. Resolves to the function that releases it.
 */
async function lockTrustStore(file: string): Promise<() => Promise<void>> {
  const lock = `${file}.lock`;
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (let attempt = 0; ; attempt += 1) {
    try {
      await writeFile(lock, `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
      return () => unlink(lock).catch(() => undefined);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = Number.parseInt(await readFile(lock, 'utf8').catch(() => ''), 10);
    const age = await stat(lock).then(
      (info) => Date.now() - info.mtimeMs,
      () => 0,
    );
    if (Number.isInteger(owner) && owner > 0 ? !processAlive(owner) : age > STALE_LOCK_MS) {
      await unlink(lock).catch(() => undefined);
      continue;
    }
    if (Date.now() > deadline)
      throw new TrustStoreError(
        file,
        `another hookwire (process ${Number.isInteger(owner) ? owner : 'unknown'}) holds ${lock}; wait for it, or delete the lock if no hookwire is running`,
      );
    // Back off a little more each time, up to 100 ms: updates take milliseconds.
    await new Promise((resolve) => setTimeout(resolve, Math.min(100, 5 * (attempt + 1))));
  }
}

/**
 * Replaces the trusted hooks of `project` with `mutate(current)` and writes the record
 * atomically (a temporary file renamed over it, mode 0600); a project left with no hooks is
 * removed from the record. Returns the new record. The record is read, changed and written under
 * a lock (`FILE.lock`), so concurrent updates from several processes each see the others' (a
 * `hooks trust` running beside a `hooks untrust` cannot write back what the untrust removed).
 */
export async function updateTrustStore(
  file: string,
  project: string,
  mutate: (
    hooks: Readonly<Record<string, TrustedHookEntry>>,
  ) => Readonly<Record<string, TrustedHookEntry>>,
): Promise<TrustStore> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const release = await lockTrustStore(file);
  try {
    const store = await readTrustStore(file);
    const hooks = mutate(store.projects[project]?.hooks ?? {});
    const projects = Object.fromEntries(
      Object.entries(store.projects).filter(([key]) => key !== project),
    );
    if (Object.keys(hooks).length > 0) projects[project] = { hooks };
    const next: TrustStore = { version: 1, projects };
    const temporary = join(dirname(file), `.trusted-hooks.${process.pid}.${randomHex(6)}.tmp`);
    try {
      await writeFile(temporary, JSON.stringify(next, null, 2) + '\n', {
        flag: 'wx',
        mode: 0o600,
      });
      await rename(temporary, file);
    } catch (error) {
      await unlink(temporary).catch(() => undefined);
      throw error;
    }
    return next;
  } finally {
    await release();
  }
}
