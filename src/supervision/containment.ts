import { closeSync, openSync, readSync, readdirSync } from 'node:fs';
import { randomHex } from '../content/random-id.ts';

/**
 * The environment variable every hook process gets: `SCOPE.RUN`, where SCOPE names the runner
 * (or spawn helper) that started it and RUN the run. Children inherit it, including ones that
 * call `setsid` or double-fork to leave the hook's process group, so the runner can find and kill
 * them when the run ends by deadline or cancellation, and when the runner closes or its parent
 * dies. Only a process that clears its environment on purpose loses it.
 */
export const HOOK_RUN_VARIABLE = 'HOOKWIRE_HOOK_RUN';

/** A runner's tag space: `prefix` matches every run it started, `nextTag()` names one run. */
export interface ContainmentScope {
  readonly prefix: string;
  nextTag(): string;
}

/** A fresh scope: this process's pid and 48 random bits, so scopes never collide. */
export function createContainmentScope(name?: string): ContainmentScope {
  const prefix = `${name ?? `${process.pid}-${randomHex(6)}`}.`;
  let next = 1;
  return {
    prefix,
    nextTag: () => `${prefix}${next++}`,
  };
}

/** True where processes can be listed and inspected through /proc (Linux). */
export const canScanProcesses: boolean = (() => {
  try {
    readdirSync('/proc/self/fd');
    return true;
  } catch {
    return false;
  }
})();

let scratch = Buffer.allocUnsafe(64 * 1024);

/** Reads a small /proc file whole into the scratch buffer; undefined when it cannot be read. */
function readProcFile(path: string): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    let length = 0;
    for (;;) {
      if (length === scratch.length) {
        const bigger = Buffer.allocUnsafe(scratch.length * 2);
        scratch.copy(bigger);
        scratch = bigger;
      }
      const count = readSync(fd, scratch, length, scratch.length - length, null);
      if (count === 0) return scratch.subarray(0, length);
      length += count;
    }
  } catch {
    return undefined; // ESRCH: a kernel thread, or the process exited while we read
  } finally {
    closeSync(fd);
  }
}

/** True when the NUL-separated environment block holds `NAME=VALUE` with VALUE === tag (or starting with it). */
function environHolds(environ: Buffer, needle: Buffer, prefix: boolean): boolean {
  let from = 0;
  for (;;) {
    const at = environ.indexOf(needle, from);
    if (at < 0) return false;
    const startsEntry = at === 0 || environ[at - 1] === 0;
    const end = at + needle.length;
    if (startsEntry && (prefix || end === environ.length || environ[end] === 0)) return true;
    from = at + 1;
  }
}

/** What a hook run (or a whole scope) consists of, for `findContainedProcesses`. */
export interface ContainmentMatch {
  /** Process groups whose members belong (the hook's shell leads its own group). */
  readonly groupIds: readonly number[];
  /** A run's tag (exact match), or a scope's prefix with `prefix: true`; none: groups only. */
  readonly tag?: string | undefined;
  readonly prefix?: boolean;
}

/**
 * The pids of the running processes (zombies excluded) that belong to a hook run: members of its
 * process groups, processes whose environment carries its tag, and every descendant of either
 * (so a child that cleared its environment is still found while its parent lives). Never this
 * process or one of its ancestors. One pass over /proc (a few ms for a few hundred processes): a
 * kill path cost, never paid by a run that ends cleanly. Empty where /proc is not available.
 */
export function findContainedProcesses(match: ContainmentMatch): number[] {
  if (!canScanProcesses) return [];
  const needle =
    match.tag === undefined
      ? undefined
      : Buffer.from(`${HOOK_RUN_VARIABLE}=${match.tag}`, 'latin1');
  const groups = new Set(match.groupIds);
  const parents = new Map<number, number>();
  const seeds = new Set<number>();
  const running = new Set<number>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const entry of entries) {
    const first = entry.charCodeAt(0);
    if (first < 48 || first > 57) continue;
    const processId = Number(entry);
    const stat = readProcFile(`/proc/${entry}/stat`);
    if (stat === undefined) continue;
    const text = stat.toString('latin1');
    // Fields after the parenthesised command name: state ppid pgrp …
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const state = fields[0];
    if (state === 'Z' || state === 'X') continue;
    parents.set(processId, Number(fields[1]));
    running.add(processId);
    if (groups.has(Number(fields[2]))) {
      seeds.add(processId);
      continue;
    }
    if (needle === undefined) continue;
    const environ = readProcFile(`/proc/${entry}/environ`);
    if (environ !== undefined && environHolds(environ, needle, match.prefix === true)) {
      seeds.add(processId);
    }
  }
  // Never ourselves or an ancestor (a hookwire started by a hook inherits that hook's tag).
  const protectedIds = new Set<number>();
  for (let id: number | undefined = process.pid; id !== undefined && id > 0; id = parents.get(id)) {
    if (protectedIds.has(id)) break;
    protectedIds.add(id);
  }
  // Walks up each parent chain iteratively (a fork chain may be deep), memoising every answer.
  const belongs = new Map<number, boolean>();
  const decide = (start: number): boolean => {
    const path: number[] = [];
    let answer = false;
    for (let id: number | undefined = start; ; id = parents.get(id)) {
      if (id === undefined || id <= 1) break;
      const known = belongs.get(id);
      if (known !== undefined) {
        answer = known;
        break;
      }
      if (seeds.has(id)) {
        answer = true;
        break;
      }
      belongs.set(id, false); // guards against a cycle while the table changes under us
      path.push(id);
    }
    for (const id of path) belongs.set(id, answer);
    return answer;
  };
  const found: number[] = [];
  for (const processId of running) {
    if (!protectedIds.has(processId) && decide(processId)) found.push(processId);
  }
  return found;
}

/** Sends `signal` to each pid; a pid that is already gone is what we wanted. */
export function signalProcesses(processIds: readonly number[], signal: NodeJS.Signals): void {
  for (const processId of processIds) {
    try {
      process.kill(processId, signal);
    } catch {
      // gone already
    }
  }
}

/**
 * Kills everything a scope started that is still running (stragglers of settled runs that left
 * their process group, e.g. a `setsid` daemon): SIGTERM, then SIGKILL to whatever is left after
 * `graceMs`. Resolves once nothing of the scope runs (or SIGKILL was sent twice). Used when a
 * runner closes and when a spawn helper loses its parent.
 */
export async function killScope(scope: string, graceMs: number): Promise<void> {
  const match: ContainmentMatch = { groupIds: [], tag: scope, prefix: true };
  let found = findContainedProcesses(match);
  if (found.length === 0) return;
  signalProcesses(found, 'SIGTERM');
  const deadline = performance.now() + graceMs;
  while (performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    found = findContainedProcesses(match);
    if (found.length === 0) return;
  }
  for (let round = 0; round < 2 && found.length > 0; round++) {
    signalProcesses(found, 'SIGKILL');
    found = findContainedProcesses(match);
  }
}
