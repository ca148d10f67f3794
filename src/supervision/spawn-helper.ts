/**
 * The spawn helper: a small, long-lived Node process that spawns and supervises command hooks
 * for a helper runner, so that each fork copies this small process and not the large one that
 * runs the agent. Started by `createHelperRunner` with `process.execPath`; requests arrive on
 * stdin and replies leave on stdout, framed as in `helper-protocol.ts`. Nothing else may be
 * written to stdout.
 *
 * The helper runs in its own session (the parent starts it detached), so a signal to the
 * parent's process group (a terminal's SIGINT/SIGHUP, a CI runner's or container's SIGKILL of the
 * group) does not reach it. When stdin ends (the parent closed the runner or died, however) or
 * the helper itself gets SIGTERM, SIGINT or SIGHUP, every run in flight is aborted, their
 * processes are killed (group, and those that left it), then everything else its runs left
 * behind, and the helper exits. See docs/decisions/0008-process-containment.md.
 */
import {
  FrameDecoder,
  decodeRequest,
  encodeFrame,
  type HelperRequest,
  type HelperReply,
} from './helper-protocol.ts';
import { openSync, unlinkSync } from 'node:fs';
import { superviseCommand, type Supervision } from './supervise-command.ts';
import { DEFAULT_KILL_GRACE_MS } from './command-runner.ts';
import { createContainmentScope, killScope } from './containment.ts';

// The parent names the scope (argv[2]) so it can clean up after this helper if it dies.
const scope = createContainmentScope(process.argv[2]);
let graceMs = 0;

const active = new Map<number, Supervision>();
const reaping = new Set<Promise<void>>();
let parentGone = false;

function send(header: HelperReply, body?: readonly Buffer[]): void {
  if (parentGone) return;
  const parts = encodeFrame(header, body);
  process.stdout.cork();
  for (const part of parts) process.stdout.write(part);
  process.stdout.uncork();
}

function openInput(path: string): number | string {
  try {
    const fd = openSync(path, 'r');
    unlinkSync(path);
    return fd;
  } catch (error) {
    return `could not open the stdin payload file: ${error instanceof Error ? error.message : String(error)}`;
  }
}

function startRun(request: HelperRequest & { type: 'run' }, input: Buffer): void {
  graceMs = Math.max(graceMs, request.killGraceMs ?? DEFAULT_KILL_GRACE_MS);
  const inputFd =
    request.inputPipe !== undefined
      ? 'the Node spawn helper takes large payloads as a file (inputFile), not through inputPipe'
      : request.inputFile === undefined
        ? undefined
        : openInput(request.inputFile);
  if (typeof inputFd === 'string') {
    send(
      {
        type: 'result',
        id: request.id,
        exitCode: null,
        signal: null,
        stdoutBytes: 0,
        stdoutTruncated: false,
        stderrTruncated: false,
        durationMs: 0,
        termination: 'spawn-error',
        spawnError: inputFd,
      },
      [],
    );
    return;
  }
  const supervision = superviseCommand({
    inputFd,
    runTag: scope.nextTag(),
    command: request.command,
    argv: request.argv,
    cwd: request.cwd,
    input,
    env: request.env,
    timeoutMs: request.timeoutMs,
    killGraceMs: request.killGraceMs,
    maxOutputBytes: request.maxOutputBytes,
  });
  if (supervision.processId !== undefined) {
    send({ type: 'started', id: request.id, processId: supervision.processId });
  }
  active.set(request.id, supervision);
  const reaped = supervision.reaped.then(() => {
    reaping.delete(reaped);
    exitWhenDone();
  });
  reaping.add(reaped);
  void supervision.outcome.then((outcome) => {
    active.delete(request.id);
    send(
      {
        type: 'result',
        id: request.id,
        exitCode: outcome.exitCode,
        signal: outcome.signal,
        stdoutBytes: outcome.stdout.length,
        stdoutTruncated: outcome.stdoutTruncated,
        stderrTruncated: outcome.stderrTruncated,
        durationMs: outcome.durationMs,
        termination: outcome.termination,
        ...(outcome.spawnError === undefined ? {} : { spawnError: outcome.spawnError }),
      },
      [outcome.stdout, outcome.stderr],
    );
  });
}

let stdinEnded = false;

let exiting = false;

// Once the runs in flight are reaped, whatever the scope left (a `setsid` daemon of a run that
// exited cleanly) is killed too, then the helper exits.
function exitWhenDone(): void {
  if (!stdinEnded || reaping.size > 0 || exiting) return;
  exiting = true;
  void killScope(scope.prefix, graceMs).finally(() => process.exit(0));
}

function shutDown(): void {
  stdinEnded = true;
  for (const supervision of active.values()) supervision.abort();
  exitWhenDone();
}

// The parent is trusted: the header is one of our own HelperRequest frames.
const decoder = new FrameDecoder((header, body) => {
  const request = decodeRequest(header);
  if (request?.type === 'run') startRun(request, body);
  else if (request?.type === 'cancel') active.get(request.id)?.abort();
});

process.stdin.on('data', (chunk: Buffer) => {
  decoder.push(chunk);
});
process.stdin.on('end', shutDown);
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, shutDown);
process.stdin.on('error', shutDown);
process.stdout.on('error', () => {
  // EPIPE: the parent is gone; nobody will read a reply again.
  parentGone = true;
  shutDown();
});
