/**
 * `analyzeShellCommand`: the shell analysis (`shell-analysis.ts`) of a command, done in a helper
 * process started on first use (`shell-analysis-process.ts`, see there for why) and kept for later
 * calls. The helper never keeps this process alive while no analysis is pending. When it cannot
 * start or answer, the command is reported as unknown, so rules fail closed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { extname } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { ShellAnalysis } from './shell-analysis.ts';

const HELPER_SCRIPT = fileURLToPath(
  new URL(`./shell-analysis-process${extname(fileURLToPath(import.meta.url))}`, import.meta.url),
);
// Long enough for a cold start on a loaded machine; a helper that answers nothing in this time is
// taken for dead.
const ANSWER_TIMEOUT_MS = 60_000;

interface Pending {
  resolve(analysis: ShellAnalysis): void;
  timer: NodeJS.Timeout;
}

interface Helper {
  readonly child: ChildProcess;
  readonly pending: Map<number, Pending>;
}

let helper: Helper | undefined;
let nextId = 0;

function unknown(reason: string): ShellAnalysis {
  return { commands: [], unknown: [reason] };
}

/** Holds this process open while an answer is due, and lets it exit when none is. */
function hold(current: Helper): void {
  const streams = [current.child.stdout, current.child.stdin] as ({
    ref?: () => void;
    unref?: () => void;
  } | null)[];
  for (const stream of streams) {
    if (current.pending.size > 0) stream?.ref?.();
    else stream?.unref?.();
  }
}

function fail(current: Helper, reason: string): void {
  if (helper === current) helper = undefined;
  for (const [id, entry] of current.pending) {
    clearTimeout(entry.timer);
    current.pending.delete(id);
    entry.resolve(unknown(reason));
  }
  current.child.kill('SIGKILL');
}

function startHelper(): Helper {
  const child = spawn(
    process.execPath,
    ['--liftoff-only', '--max-old-space-size=128', HELPER_SCRIPT],
    { stdio: ['pipe', 'pipe', 'ignore'], windowsHide: true },
  );
  const current: Helper = { child, pending: new Map() };
  child.unref();
  child.once('error', (error) => {
    fail(current, `the shell analysis could not start (${error.message})`);
  });
  child.once('exit', (code, signal) => {
    fail(current, `the shell analysis stopped (${signal ?? `exit code ${String(code)}`})`);
  });
  child.stdin.on('error', () => undefined);
  const lines = createInterface({
    input: child.stdout,
    crlfDelay: Infinity,
  });
  lines.on('line', (line) => {
    let answer: { id?: unknown; analysis?: ShellAnalysis; error?: unknown };
    try {
      answer = JSON.parse(line) as typeof answer;
    } catch {
      return;
    }
    if (typeof answer.id !== 'number') return;
    const entry = current.pending.get(answer.id);
    if (entry === undefined) return;
    current.pending.delete(answer.id);
    clearTimeout(entry.timer);
    entry.resolve(
      answer.analysis ?? unknown(`the shell analysis failed (${String(answer.error)})`),
    );
    hold(current);
  });
  hold(current);
  return current;
}

/**
 * Parses `command` with the bash grammar and lists what it would run (see `ShellAnalysis`). Never
 * rejects: a helper that cannot start or answer leaves the command unknown.
 */
export function analyzeShellCommand(command: string): Promise<ShellAnalysis> {
  let current: Helper;
  try {
    helper ??= startHelper();
    current = helper;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return Promise.resolve(unknown(`the shell analysis could not start (${message})`));
  }
  const id = nextId++;
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      fail(current, `the shell analysis did not answer within ${ANSWER_TIMEOUT_MS / 1000} s`);
    }, ANSWER_TIMEOUT_MS);
    current.pending.set(id, { resolve, timer });
    hold(current);
    current.child.stdin?.write(`${JSON.stringify({ id, command })}\n`);
  });
}

/**
 * Starts the helper now, so that it loads while the run starts instead of when the first command
 * is checked. Harmless when it is already running; it still never keeps this process alive.
 */
export function startShellAnalysis(): void {
  try {
    helper ??= startHelper();
  } catch {
    // analyzeShellCommand will try again, and report the command unknown if it fails
  }
}
