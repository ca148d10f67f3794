/**
 * The parent's side of the orphan watchdog (`orphan-watchdog.ts`): what keeps a long-lived
 * process hookwire started (a stdio MCP server) from outliving a hookwire that was SIGKILLed.
 * Such a process is not a hook run, so the spawn helper (which supervises runs with a deadline)
 * does not hold it; the watchdog does: it leads its own session, holds the read end of a pipe
 * only this process writes, and when that pipe closes — however this process ended — kills the
 * process groups it was told about and every process carrying a tag of the scope.
 *
 * Costs one small Node process per scope that has long-lived children (started beside them, not
 * before them), and nothing per message the children exchange: it is not in their data path.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Options of `startWatchdog`. */
export interface WatchdogOptions {
  /** SIGTERM → SIGKILL grace the watchdog gives orphans. Default 2000 ms. */
  readonly graceMs?: number;
}

/** A running watchdog for one containment scope. */
export interface Watchdog {
  /** The watchdog's pid (for tests and `doctor`); undefined when it could not start. */
  readonly pid: number | undefined;
  /** Kill the process group `groupId` (its leader's pid) if this process dies. */
  watch(groupId: number): void;
  /** The group ended normally: forget it (a reused id is never signalled). */
  release(groupId: number): void;
  /**
   * Ends the watchdog once the watched processes were stopped: it kills whatever of the scope
   * is still running (nothing, normally) and exits. Idempotent; resolves when it has exited.
   */
  close(): Promise<void>;
}

const WATCHDOG_SCRIPT = fileURLToPath(
  new URL(`./orphan-watchdog${extname(fileURLToPath(import.meta.url))}`, import.meta.url),
);

/**
 * Starts the watchdog of the scope `scopePrefix` (a `ContainmentScope.prefix`). It never keeps
 * this process's event loop alive. If it cannot start (no `/proc`, a spawn failure), `watch` and
 * `release` do nothing: the processes are then contained only while this process lives.
 */
export function startWatchdog(scopePrefix: string, options: WatchdogOptions = {}): Watchdog {
  let child: ChildProcess | undefined;
  try {
    child = spawn(
      process.execPath,
      ['--max-old-space-size=16', WATCHDOG_SCRIPT, scopePrefix, String(options.graceMs ?? 2000)],
      { detached: true, stdio: ['pipe', 'ignore', 'ignore'], windowsHide: true },
    );
  } catch {
    child = undefined;
  }
  const exited = new Promise<void>((resolve) => {
    if (child === undefined) {
      resolve();
      return;
    }
    child.once('error', () => {
      resolve();
    });
    child.once('exit', () => {
      resolve();
    });
  });
  child?.unref();
  const input = child?.stdin ?? undefined;
  input?.on('error', () => undefined); // the watchdog died: nothing to tell it any more
  (input as { unref?: () => void } | undefined)?.unref?.();
  const send = (line: string): void => {
    if (input !== undefined && !input.destroyed && input.writable) input.write(`${line}\n`);
  };
  let closing: Promise<void> | undefined;
  return {
    pid: child?.pid,
    watch(groupId) {
      send(`+${groupId}`);
    },
    release(groupId) {
      send(`-${groupId}`);
    },
    close() {
      closing ??= (async () => {
        // Held until it exits (bounded), so a process ending its session waits for the sweep.
        child?.ref();
        input?.end();
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          exited,
          new Promise((resolve) => (timer = setTimeout(resolve, (options.graceMs ?? 2000) + 2000))),
        ]);
        clearTimeout(timer);
        child?.unref();
      })();
      return closing;
    },
  };
}
