/**
 * The reaper: the native helper's `--reaper` mode (native/hookwire-spawn.c), a child subreaper
 * that hookwire puts above every process it starts — the spawn helper (which runs command hooks
 * and the shell tool), each process hook, each stdio MCP server — without being their children's
 * parent. An orphan anywhere below it (its parent killed: the spawn helper by a hook's
 * `kill -9 $PPID`, a double fork, `setsid`, a cleared environment) is reparented to the reaper,
 * not to init, and is killed when the reaper's program ends, when hookwire dies or lets go (fd 3
 * ends) or when the reaper gets SIGTERM (a kill of its process group, which its program shares).
 * Decision: docs/decisions/0025-containment-reaper.md.
 *
 * In force on Linux where the native helper was built, unless `HOOKWIRE_REAPER=off`; elsewhere
 * processes start directly and are contained as before (process groups, tags, the watchdog).
 */
import type { ChildProcess } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { packageFile } from './package-files.ts';

/** The native helper binary, which is also the reaper. */
const NATIVE_BINARY = packageFile('native', 'build', 'hookwire-spawn');

/** Whether processes start under the reaper here (see the module's doc). */
export function reaperInForce(): boolean {
  if (process.platform !== 'linux' || process.env['HOOKWIRE_REAPER'] === 'off') return false;
  try {
    accessSync(NATIVE_BINARY, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** What to spawn to run `file args` (under the reaper when it is in force). */
export interface ReaperSpawn {
  readonly file: string;
  readonly args: readonly string[];
  /**
   * Whether the spawn is the reaper: then give it a fourth stdio pipe (fd 3) and keep its end
   * open for as long as the program should live; the reaper kills everything when it ends.
   */
  readonly reaped: boolean;
}

/**
 * `file args` as spawned under the reaper (`hookwire-spawn --reaper GRACE file args…`), or as
 * is when the reaper is not in force. The reaper leads the process group the caller asks for
 * (`detached`), and its program stays in it, so signalling the group reaches both.
 */
export function underReaper(
  file: string,
  args: readonly string[],
  graceMs: number,
  inForce: boolean = reaperInForce(),
): ReaperSpawn {
  if (!inForce) return { file, args, reaped: false };
  return {
    file: NATIVE_BINARY,
    args: ['--reaper', String(Math.max(1, Math.round(graceMs))), file, ...args],
    reaped: true,
  };
}

/**
 * Keeps the reaper's fd 3 (a pipe only this process holds) open without keeping this process
 * alive: it closes when this process exits, however it dies, and the reaper then kills
 * everything below it.
 */
export function holdReaper(child: ChildProcess): void {
  const control = child.stdio[3] as
    | (NodeJS.ReadableStream & {
        unref?: () => void;
        on(event: 'error', listener: () => void): unknown;
      })
    | null
    | undefined;
  if (control === null || control === undefined) return;
  control.on('error', () => undefined);
  control.unref?.();
}
