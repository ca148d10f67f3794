import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { accessSync, constants, mkdtempSync, openSync, rmSync, writeFile } from 'node:fs';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import type { Readable, Writable } from 'node:stream';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CommandResult, CommandRunner, RunCommandOptions } from './command-runner.ts';
import { validateRunCommandOptions } from './command-runner.ts';
import { CommandRunnerError } from './command-runner-error.ts';
import {
  FrameDecoder,
  encodeFrame,
  requestHasNul,
  type HelperReply,
  type HelperRequest,
  type ResultReply,
  type RunRequest,
} from './helper-protocol.ts';
import { signalProcessGroup } from './process-group.ts';
import { createContainmentScope, killScope } from './containment.ts';
import { DEFAULT_KILL_GRACE_MS } from './command-runner.ts';
import { packageFile } from './package-files.ts';
import { holdReaper, underReaper } from './reaper.ts';

/** Options of `createHelperRunner`. */
export interface HelperRunnerOptions {
  /** V8 old-space limit of the spawn helper, in MiB. Default 32: it holds no hook output on its heap. */
  readonly helperHeapMegabytes?: number;
  /**
   * `eager` (default): start the helper when the runner is created, so it is ready before the
   * first hook needs it. `lazy`: on the first run.
   */
  readonly start?: 'eager' | 'lazy';
  /**
   * Which spawn helper: `native` (native/build/hookwire-spawn, built at install where a C
   * compiler exists), `node` (spawn-helper.ts), or `auto` (default): native when built, else
   * node. The environment variable `HOOKWIRE_SPAWN_HELPER=node|native` overrides `auto`.
   */
  readonly helper?: 'auto' | 'native' | 'node';
}

/** Path of the native spawn helper (may not exist: it is built only where `cc` exists). */
export const NATIVE_HELPER_PATH = packageFile('native', 'build', 'hookwire-spawn');

/** True when the native spawn helper was built and can be executed. */
export function nativeHelperAvailable(): boolean {
  try {
    accessSync(NATIVE_HELPER_PATH, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The spawn helper `createHelperRunner` uses for this choice: `node` when asked (by the option or,
 * for `auto`, by `HOOKWIRE_SPAWN_HELPER=node`), else the native one when it was built, else node.
 */
export function resolveHelperKind(
  choice: HelperRunnerOptions['helper'] = 'auto',
): 'native' | 'node' {
  const fromEnvironment = process.env['HOOKWIRE_SPAWN_HELPER'];
  const wanted = choice === 'auto' && fromEnvironment === 'node' ? 'node' : choice;
  if (wanted === 'node') return 'node';
  return nativeHelperAvailable() ? 'native' : 'node';
}

/** A `CommandRunner` that spawns hooks through one long-lived spawn helper process. */
export interface HelperCommandRunner extends CommandRunner {
  /** The pid of the running spawn helper; undefined before the first run and after it exited. */
  readonly helperProcessId: number | undefined;
  /** Which spawn helper this runner starts: the native one or the Node one. */
  readonly helperKind: 'native' | 'node';
}

type HelperProcess = ChildProcessByStdio<Writable, Readable, null>;

/**
 * Payloads of at least this many bytes (1 MiB) do not travel through the helper (two pipes and a
 * copy in between). With the native helper this process writes them straight into the hook's
 * stdin, a FIFO the helper created (`RunRequest.inputPipe`), while the hook reads; with the Node
 * helper they are written once to a private file that the helper opens, unlinks and hands over
 * as stdin (`RunRequest.inputFile`).
 */
export const LARGE_INPUT_BYTES = 1024 * 1024;
const emptyInput = Buffer.alloc(0);

/**
 * Writes the payload in one go: the callback `writeFile` issues one write for the whole buffer,
 * where `fs/promises` splits it into 512 KiB chunks (a thread-pool round trip each).
 */
function writeWhole(path: string, data: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    writeFile(path, data, { mode: 0o600 }, (error) => {
      if (error === null) resolve();
      else reject(error);
    });
  });
}

/** Where payload files go: /dev/shm (memory, no disk write-back) when writable, else the tmpdir. */
function payloadParent(): string {
  try {
    accessSync('/dev/shm', constants.W_OK);
    return '/dev/shm';
  } catch {
    return tmpdir();
  }
}

interface PendingRun {
  readonly request: RunRequest;
  readonly input: Buffer;
  readonly started: number;
  readonly resolve: (result: CommandResult) => void;
  readonly signal: AbortSignal | undefined;
  readonly onAbort: () => void;
  /** The hook's process group, once the helper reported it. */
  processId: number | undefined;
  /** Sent again to a restarted helper already (a run is resent at most once). */
  resent: boolean;
  /** The payload to write into the run's `inputPipe` once the helper reports it started. */
  readonly pipeInput: Buffer | undefined;
  /** The write end of the run's `inputPipe` while the payload is being written. */
  inputStream: Socket | undefined;
}

// Same extension as this module: `.ts` when running from sources, `.js` from dist/.
const helperScript = fileURLToPath(
  new URL(`./spawn-helper${extname(fileURLToPath(import.meta.url))}`, import.meta.url),
);

function resultWithoutProcess(
  started: number,
  termination: 'aborted' | 'spawn-error',
  spawnError?: string,
): CommandResult {
  return {
    exitCode: null,
    signal: null,
    stdout: '',
    stderr: '',
    stdoutTruncated: false,
    stderrTruncated: false,
    durationMs: performance.now() - started,
    termination,
    ...(spawnError === undefined ? {} : { spawnError }),
  };
}

function decodeResult(reply: ResultReply, body: Buffer): CommandResult {
  return {
    exitCode: reply.exitCode,
    signal: reply.signal,
    stdout: body.toString('utf8', 0, reply.stdoutBytes),
    stderr: body.toString('utf8', reply.stdoutBytes),
    stdoutTruncated: reply.stdoutTruncated,
    stderrTruncated: reply.stderrTruncated,
    durationMs: reply.durationMs,
    termination: reply.termination,
    ...(reply.spawnError === undefined ? {} : { spawnError: reply.spawnError }),
  };
}

// An idle helper must not keep the agent's process alive; a busy one must.
function setReferenced(child: HelperProcess, referenced: boolean): void {
  const handles = [child, child.stdin, child.stdout] as unknown as { ref(): void; unref(): void }[];
  for (const handle of handles) {
    if (referenced) handle.ref();
    else handle.unref();
  }
}

/**
 * A `CommandRunner` that starts ONE small spawn helper (`spawn-helper.ts`, a Node process with a
 * small heap, in its own session) when it is created (or on the first run with `start: 'lazy'`)
 * and sends it every run; the helper spawns, supervises, caps and
 * kills exactly as the direct runner does, and replies with the result. Runs are multiplexed by
 * id, so any number run concurrently. Forking the small helper costs the same whatever this
 * process's heap size is.
 *
 * - The helper exits when this process closes the runner or dies (its stdin ends), however it
 *   dies (SIGKILL of its pid or of its whole process group included), after killing every
 *   process its runs started. If the helper itself is killed, this process kills what it left.
 * - If the helper dies, the next run starts a new one. Runs it had not yet started are resent
 *   once; runs it had started resolve as `spawn-error` and their process groups get SIGKILL
 *   (re-running a hook that may have had side effects would not be safe).
 * - An idle helper does not keep this process alive.
 */
export function createHelperRunner(options: HelperRunnerOptions = {}): HelperCommandRunner {
  const heapMegabytes = options.helperHeapMegabytes ?? 32;
  const helperKind = resolveHelperKind(options.helper);
  const pending = new Map<number, PendingRun>();
  let helper: HelperProcess | undefined;
  let helperGone: Promise<void> = Promise.resolve();
  let nextId = 1;
  let closing: Promise<void> | undefined;
  let generation = 0;
  let inputDirectory: string | undefined;
  const scopeName = createContainmentScope().prefix.slice(0, -1);

  function startHelper(): HelperProcess {
    // Each helper gets its own scope, named here so this process can clean up after it.
    const scope = `${scopeName}-${++generation}`;
    // Detached: its own session, so it outlives a kill of our process group and cleans up.
    // Under the reaper (where it is in force): an orphan of a hook whose parent was killed —
    // the helper itself included — is held and killed by it, not reparented to init.
    const target =
      helperKind === 'native'
        ? underReaper(NATIVE_HELPER_PATH, [scope], DEFAULT_KILL_GRACE_MS)
        : underReaper(
            process.execPath,
            [`--max-old-space-size=${heapMegabytes}`, helperScript, scope],
            DEFAULT_KILL_GRACE_MS,
          );
    const child = spawn(target.file, [...target.args], {
      stdio: target.reaped ? ['pipe', 'pipe', 'inherit', 'pipe'] : ['pipe', 'pipe', 'inherit'],
      detached: true,
    }) as HelperProcess;
    holdReaper(child);
    const decoder = new FrameDecoder((header, body) => {
      // The helper is our own code speaking helper-protocol.ts.
      onReply(JSON.parse(header.toString('utf8')) as HelperReply, body);
    });
    child.stdout.on('data', (chunk: Buffer) => {
      decoder.push(chunk);
    });
    // Writing to a helper that just died fails; its 'close' handles the runs it had.
    child.stdin.on('error', () => undefined);
    let markGone!: () => void;
    helperGone = new Promise((resolve) => (markGone = resolve));
    const onGone = (reason: string, cleanExit: boolean) => {
      if (cleanExit) markGone();
      // A helper that died without cleaning up (SIGKILL, OOM) leaves its runs' processes.
      else void killScope(`${scope}.`, DEFAULT_KILL_GRACE_MS).finally(markGone);
      onHelperGone(child, reason);
    };
    child.once('error', (error) => {
      onGone(`the spawn helper could not run: ${error.message}`, false);
    });
    child.once('close', (code, signal) => {
      onGone(
        `the spawn helper exited (${signal ?? `code ${String(code)}`}) while the hook ran`,
        code === 0 && closing !== undefined,
      );
    });
    setReferenced(child, pending.size > 0);
    return child;
  }

  // Frames sent in one tick leave in one write: the runs of a parallel group reach the helper
  // together, so it spawns them as one batch (from two threads, in the native helper).
  let corked: HelperProcess | undefined;
  function flushFrames(): void {
    corked?.stdin.uncork();
    corked = undefined;
  }

  function send(frame: HelperRequest, body?: readonly Buffer[]): void {
    helper ??= startHelper();
    const stdin = helper.stdin;
    if (corked !== helper) {
      flushFrames();
      corked = helper;
      stdin.cork();
      process.nextTick(flushFrames);
    }
    for (const part of encodeFrame(frame, body)) stdin.write(part);
  }

  /**
   * Writes a run's payload into the FIFO the helper made its stdin: opened without blocking
   * (the hook holds the read end; ENXIO means it already exited and wants nothing), then written
   * by the event loop as the hook reads, and closed when written. A hook that stops reading
   * (exit, deadline, kill) breaks the pipe, which ends the write; the run's settling ends it too.
   */
  function writeInputPipe(id: number, run: PendingRun, path: string, data: Buffer): void {
    let fd: number | undefined;
    try {
      fd = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
    } catch {
      // ENXIO: no reader left, the hook exited without reading its stdin.
    }
    rmSync(path, { force: true });
    send({ type: 'opened', id });
    if (fd === undefined) return;
    const stream = new Socket({ fd, readable: false, writable: true });
    run.inputStream = stream;
    stream.on('error', () => undefined); // EPIPE: a hook may ignore its stdin
    stream.write(data, () => {
      stream.destroy();
    });
  }

  function settle(id: number, result: CommandResult): void {
    const run = pending.get(id);
    if (run === undefined) return;
    pending.delete(id);
    run.signal?.removeEventListener('abort', run.onAbort);
    run.inputStream?.destroy();
    // Opened and unlinked by the helper (a file) or by us (a pipe); left only if the helper died.
    const inputPath = run.request.inputFile ?? run.request.inputPipe;
    if (inputPath !== undefined) rmSync(inputPath, { force: true });
    if (pending.size === 0 && helper !== undefined) setReferenced(helper, false);
    run.resolve(result);
  }

  function onReply(reply: HelperReply, body: Buffer): void {
    if (reply.type === 'started') {
      const run = pending.get(reply.id);
      if (run === undefined) return;
      run.processId = reply.processId;
      if (run.pipeInput !== undefined && run.request.inputPipe !== undefined) {
        writeInputPipe(reply.id, run, run.request.inputPipe, run.pipeInput);
      }
    } else {
      settle(reply.id, decodeResult(reply, body));
    }
  }

  function onHelperGone(child: HelperProcess, reason: string): void {
    if (helper !== child) return; // already handled (both 'error' and 'close' fired)
    helper = undefined;
    const resend: PendingRun[] = [];
    for (const [id, run] of pending) {
      if (closing !== undefined) {
        settle(id, resultWithoutProcess(run.started, 'aborted'));
      } else if (run.processId === undefined && !run.resent) {
        resend.push(run);
      } else {
        // Nobody supervises this group any more: end it now rather than let it run unbounded.
        if (run.processId !== undefined) signalProcessGroup(run.processId, 'SIGKILL');
        settle(id, resultWithoutProcess(run.started, 'spawn-error', reason));
      }
    }
    for (const run of resend) {
      run.resent = true;
      // The dead helper may have created the FIFO already.
      if (run.request.inputPipe !== undefined) rmSync(run.request.inputPipe, { force: true });
      send(run.request, [run.input]); // starts the successor, referenced while runs are pending
    }
  }

  if (options.start !== 'lazy') helper = startHelper();

  return {
    get helperProcessId() {
      return helper?.pid;
    },
    helperKind,

    run(runOptions: RunCommandOptions): Promise<CommandResult> {
      try {
        if (closing !== undefined) {
          throw new CommandRunnerError(
            'command_runner_closed',
            'This CommandRunner was closed; create a new runner to run more hooks.',
          );
        }
        validateRunCommandOptions(runOptions);
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
      const started = performance.now();
      const signal = runOptions.signal;
      if (signal?.aborted === true) {
        return Promise.resolve(resultWithoutProcess(started, 'aborted'));
      }
      const id = nextId++;
      const request: RunRequest = {
        type: 'run',
        id,
        command: runOptions.command ?? '',
        ...(runOptions.file === undefined ? {} : { argv: [runOptions.file, ...runOptions.args] }),
        cwd: runOptions.cwd,
        timeoutMs: runOptions.timeoutMs,
        ...(runOptions.env === undefined ? {} : { env: runOptions.env }),
        ...(runOptions.killGraceMs === undefined ? {} : { killGraceMs: runOptions.killGraceMs }),
        ...(runOptions.maxOutputBytes === undefined
          ? {}
          : { maxOutputBytes: runOptions.maxOutputBytes }),
      };
      if (requestHasNul(request)) {
        return Promise.resolve(
          resultWithoutProcess(
            started,
            'spawn-error',
            `could not start ${runOptions.file ?? '/bin/sh'}: the command, working directory or environment holds a NUL byte`,
          ),
        );
      }
      // Encoded once (or passed through as the caller's bytes), then written as the frame body.
      const input =
        typeof runOptions.input === 'string'
          ? Buffer.from(runOptions.input, 'utf8')
          : Buffer.from(
              runOptions.input.buffer,
              runOptions.input.byteOffset,
              runOptions.input.byteLength,
            );
      const dispatch = (
        sent: RunRequest,
        body: Buffer,
        pipeInput?: Buffer,
      ): Promise<CommandResult> => {
        if (signal?.aborted === true) {
          return Promise.resolve(resultWithoutProcess(started, 'aborted'));
        }
        return new Promise<CommandResult>((resolve) => {
          const onAbort = () => {
            if (pending.has(id) && helper !== undefined) send({ type: 'cancel', id });
          };
          pending.set(id, {
            request: sent,
            input: body,
            started,
            resolve,
            signal,
            onAbort,
            processId: undefined,
            resent: false,
            pipeInput,
            inputStream: undefined,
          });
          signal?.addEventListener('abort', onAbort, { once: true });
          send(sent, [body]);
          if (pending.size === 1 && helper !== undefined) setReferenced(helper, true);
        });
      };
      if (input.length < LARGE_INPUT_BYTES) return dispatch(request, input);
      // A large payload is written once: into the hook's stdin pipe (native helper) or to a
      // private file the helper gives the hook as stdin (Node helper).
      inputDirectory ??= mkdtempSync(join(payloadParent(), 'hookwire-input-'));
      if (helperKind === 'native') {
        return dispatch(
          { ...request, inputPipe: join(inputDirectory, String(id)) },
          emptyInput,
          input,
        );
      }
      const inputFile = join(inputDirectory, String(id));
      return writeWhole(inputFile, input).then(
        () => dispatch({ ...request, inputFile }, emptyInput),
        (error: unknown) =>
          resultWithoutProcess(
            started,
            'spawn-error',
            `could not write the stdin payload to ${inputFile}: ${error instanceof Error ? error.message : String(error)}`,
          ),
      );
    },

    close(): Promise<void> {
      closing ??= (async () => {
        const child = helper;
        if (child === undefined) return;
        // Keep this process alive until the helper has aborted the runs and killed their groups.
        setReferenced(child, true);
        child.stdin.end();
        await helperGone;
      })().finally(() => {
        if (inputDirectory !== undefined) rmSync(inputDirectory, { recursive: true, force: true });
      });
      return closing;
    },
  };
}
