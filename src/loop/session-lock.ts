/**
 * The session lock: one process at a time runs a session. The lock is a file beside the transcript
 * (`<transcript>.lock`) created atomically — written under a unique temporary name, then
 * `link(2)`ed to the lock name, which fails if it exists — so no reader ever sees a half-written
 * lock and exactly one of two racing processes wins.
 *
 * The lock names its holder: pid, host, start time, and (on Linux) the boot id, the process's
 * start tick from `/proc/<pid>/stat` and its PID namespace (`/proc/self/ns/pid`, e.g.
 * `pid:[4026531836]`: what its pid means). A lock is stale, and taken over, when its holder is on
 * this host, in this PID namespace, and is gone: no such pid, a different boot, or a pid that now
 * belongs to a process started at another tick (pid reuse). A lock held on another host, or from
 * another PID namespace (a container sharing the project volume and the host name, `unshare
 * --pid`), is never taken over: its pid names another process here, so its liveness cannot be
 * checked; the error names the file to delete once that process is gone. (A boot id that changed
 * still marks it stale: every namespace of the old boot is gone.) A process whose `/proc` is not
 * its own PID namespace's (`unshare --pid` without `--mount-proc`) cannot check any pid, and
 * takes no lock over.
 * Takeovers serialize on `<lock>.takeover` (an exclusive `mkdir`), so two processes finding the
 * same stale lock cannot both win; a takeover directory older than 10 s (its taker died) is
 * removed.
 *
 * The lock is released on `release()` and, as a last resort, when the process exits normally; a
 * process killed with SIGKILL leaves it behind, and the next process takes it over.
 */
import { randomUUID } from '../content/random-id.ts';
import { readFileSync, readlinkSync, unlinkSync } from 'node:fs';
import { link, mkdir, readFile, rmdir, stat, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, join, basename } from 'node:path';
import { LoopError } from './loop-error.ts';
import { writeProblem } from './write-problem.ts';

/** Who holds a session lock, as written in the lock file. */
export interface SessionLockHolder {
  readonly pid: number;
  readonly host: string;
  /** ISO 8601 time the lock was taken. */
  readonly startedAt: string;
  readonly sessionId: string;
  /** Linux: `/proc/sys/kernel/random/boot_id` when the lock was taken. */
  readonly bootId?: string;
  /** Linux: field 22 of `/proc/<pid>/stat` (start time in clock ticks since boot). */
  readonly processStart?: string;
  /**
   * Linux: the holder's PID namespace, as `readlink /proc/self/ns/pid` names it
   * (`pid:[4026531836]`); a lock from another one is never taken over.
   */
  readonly pidNamespace?: string;
}

/** A held session lock. */
export interface SessionLock {
  readonly path: string;
  readonly holder: SessionLockHolder;
  /** Removes the lock file (if it is still ours). Releasing twice does nothing. */
  release(): Promise<void>;
}

const TAKEOVER_STALE_MS = 10_000;
const TAKEOVER_ATTEMPTS = 50;

function readProc(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** Field 22 of `/proc/<pid>/stat` (after the parenthesised command, which may hold spaces). */
function processStartOf(pid: number): string | undefined {
  const stat = readProc(`/proc/${pid}/stat`);
  if (stat === undefined) return undefined;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields after the command start at field 3 (state); field 22 is index 19.
  return fields[19];
}

/** This process's PID namespace (`pid:[inode]`), or undefined off Linux. */
function ownPidNamespace(): string | undefined {
  try {
    return readlinkSync('/proc/self/ns/pid');
  } catch {
    return undefined;
  }
}

/**
 * Whether `/proc` shows pids as this process sees them: its own entry there bears its pid. Not
 * so in a PID namespace whose `/proc` was not remounted (`unshare --pid` without `--mount-proc`),
 * where `/proc/<pid>` is another process.
 */
function procIsOurs(): boolean {
  const stat = readProc('/proc/self/stat');
  return stat === undefined || stat.slice(0, stat.indexOf(' ')) === String(process.pid);
}

function currentHolder(sessionId: string): SessionLockHolder {
  const bootId = readProc('/proc/sys/kernel/random/boot_id');
  const processStart = procIsOurs() ? processStartOf(process.pid) : undefined;
  const pidNamespace = ownPidNamespace();
  return {
    pid: process.pid,
    host: hostname(),
    startedAt: new Date().toISOString(),
    sessionId,
    ...(bootId === undefined ? {} : { bootId }),
    ...(processStart === undefined ? {} : { processStart }),
    ...(pidNamespace === undefined ? {} : { pidNamespace }),
  };
}

function parseHolder(text: string): SessionLockHolder | undefined {
  try {
    const value = JSON.parse(text) as Partial<SessionLockHolder> | null;
    if (
      value === null ||
      typeof value !== 'object' ||
      typeof value.pid !== 'number' ||
      typeof value.host !== 'string' ||
      typeof value.startedAt !== 'string'
    )
      return undefined;
    return value as SessionLockHolder;
  } catch {
    return undefined;
  }
}

/**
 * Why the holder's pid cannot be checked from here, or undefined when it can: it is from another
 * PID namespace, or this process's `/proc` is not its own namespace's.
 */
function unverifiable(holder: SessionLockHolder): string | undefined {
  const own = ownPidNamespace();
  if (holder.pidNamespace !== undefined && own !== undefined && holder.pidNamespace !== own)
    return `it runs in another PID namespace (${holder.pidNamespace}; this process is in ${own}), a container or an unshare --pid, where pid ${holder.pid} is another process than here`;
  if (!procIsOurs())
    return `this process's /proc is not its PID namespace's (unshare --pid without --mount-proc?), so no pid can be checked`;
  return undefined;
}

/** Whether the holder (on this host) is certainly gone. */
function isDead(holder: SessionLockHolder): boolean {
  if (holder.bootId !== undefined) {
    const bootId = readProc('/proc/sys/kernel/random/boot_id');
    if (bootId !== undefined && bootId !== holder.bootId) return true;
  }
  if (unverifiable(holder) !== undefined) return false;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: the pid exists (another user's process); ESRCH: it does not.
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
  if (holder.processStart !== undefined) {
    const start = processStartOf(holder.pid);
    if (start !== undefined && start !== holder.processStart) return true;
  }
  return false;
}

function describeHolder(holder: SessionLockHolder): string {
  return `pid ${holder.pid} on host ${holder.host}, since ${holder.startedAt}`;
}

function busyError(path: string, sessionId: string, holder: SessionLockHolder): LoopError {
  const here = holder.host === hostname();
  const unchecked = here ? unverifiable(holder) : undefined;
  return new LoopError(
    'session_locked',
    `Session ${sessionId} is in use by another hookwire process (${describeHolder(holder)}; lock ${path}): ${
      !here
        ? `it runs on another host, whose liveness cannot be checked from here; once it is gone, delete ${path}.`
        : unchecked !== undefined
          ? `${unchecked}, so its liveness cannot be checked from here and the lock is never taken over; once it is gone, delete ${path}.`
          : 'wait for it to finish or stop it (a lock left by a process that died is taken over automatically).'
    }`,
  );
}

async function tryLink(temporary: string, path: string): Promise<boolean> {
  try {
    await link(temporary, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

async function readHolder(path: string): Promise<{ text: string } | undefined> {
  try {
    return { text: await readFile(path, 'utf8') };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Takes the takeover mutex; false when another process holds it (and it is not stale). */
async function enterTakeover(directory: string): Promise<boolean> {
  try {
    await mkdir(directory);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  try {
    const { mtimeMs } = await stat(directory);
    if (Date.now() - mtimeMs > TAKEOVER_STALE_MS) await rmdir(directory);
  } catch {
    // Gone already, or removed by another process: retry.
  }
  return false;
}

/**
 * Takes the lock of session `sessionId` whose transcript is `transcriptPath`, or throws a
 * `LoopError` (`session_locked`) naming the holder. A stale lock (see the module comment) is taken
 * over.
 */
export async function acquireSessionLock(
  transcriptPath: string,
  sessionId: string,
): Promise<SessionLock> {
  const path = `${transcriptPath}.lock`;
  const directory = dirname(path);
  const holder = currentHolder(sessionId);
  const temporary = join(directory, `.${basename(path)}.${process.pid}.${randomUUID()}`);
  try {
    await mkdir(directory, { recursive: true });
    await writeFile(temporary, `${JSON.stringify(holder)}\n`, { flag: 'wx' });
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    const errno = (error as NodeJS.ErrnoException).code;
    throw new LoopError(
      'session_lock_failed',
      `${writeProblem(errno)}: the lock of session ${sessionId} could not be written (${error instanceof Error ? error.message : String(error)}); fix that, then run again.`,
      { cause: error },
    );
  }
  try {
    for (let attempt = 0; attempt < TAKEOVER_ATTEMPTS; attempt++) {
      if (await tryLink(temporary, path)) return heldLock(path, holder);
      const existing = await readHolder(path);
      if (existing === undefined) continue; // Released meanwhile: try again.
      const other = parseHolder(existing.text);
      // An unreadable lock cannot be half-written (it is linked whole): it is not ours to judge.
      if (other === undefined) {
        throw new LoopError(
          'session_locked',
          `Session ${sessionId} has a lock file that is not a hookwire lock (${path}); delete it if no hookwire process runs the session.`,
        );
      }
      if (other.host !== holder.host || !isDead(other)) throw busyError(path, sessionId, other);
      // Stale: take it over, one taker at a time, re-checking under the mutex.
      const takeover = `${path}.takeover`;
      if (!(await enterTakeover(takeover))) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        continue;
      }
      try {
        const again = await readHolder(path);
        if (again?.text === existing.text) await unlink(path);
        if (await tryLink(temporary, path)) return heldLock(path, holder);
      } finally {
        await rmdir(takeover).catch(() => undefined);
      }
    }
    throw new LoopError(
      'session_locked',
      `Session ${sessionId} could not be locked (${path}): other processes keep taking it; try again.`,
    );
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
}

// Locks this process holds, removed on a normal exit that skipped `release()` (one listener for
// all of them).
const held = new Set<() => void>();
let exitListener = false;

function heldLock(path: string, holder: SessionLockHolder): SessionLock {
  let released = false;
  const text = `${JSON.stringify(holder)}\n`;
  // Only our own lock is removed: a lock another process took over after ours went stale stays.
  const removeIfOurs = (): void => {
    try {
      if (readFileSync(path, 'utf8') === text) unlinkSync(path);
    } catch {
      // Gone already.
    }
  };
  held.add(removeIfOurs);
  if (!exitListener) {
    exitListener = true;
    process.once('exit', () => {
      for (const remove of held) remove();
    });
  }
  return {
    path,
    holder,
    release() {
      if (released) return Promise.resolve();
      released = true;
      held.delete(removeIfOurs);
      removeIfOurs();
      return Promise.resolve();
    },
  };
}
