/**
 * The Node relay client and the daemon's starter (decision 0035). The client hands one payload
 * to the project's daemon and returns its answer; a missing daemon (no socket, a stale socket
 * whose process died, one of another build) is started once, and a daemon that still cannot be
 * reached gets the calling tool's fail-closed answer (`unreachableAnswer`). The native client
 * (`native/hookwire-relay.c`) does the same and runs `hookwire daemon start` to start one.
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { connect } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import {
  formatToolSpec,
  unreachableAnswer,
  type RelayAnswer,
  type RelayToolSpec,
} from './relay-dialects.ts';
import { decodeAnswer, encodeRequest } from './relay-protocol.ts';
import type { RelayPaths } from './relay-paths.ts';

/** How long a starter waits for a daemon to listen. */
const START_DEADLINE_MS = 15_000;

/** One exchange with the daemon at `socket`: its answer, `stale`, or the connection's error. */
export function exchange(
  socket: string,
  request: Buffer,
): Promise<RelayAnswer | 'stale' | { readonly error: string }> {
  return new Promise((settle) => {
    const chunks: Buffer[] = [];
    const client = connect(socket);
    client.on('connect', () => {
      client.end(request);
    });
    client.on('data', (chunk: Buffer) => chunks.push(chunk));
    client.on('error', (error: NodeJS.ErrnoException) => {
      settle({ error: error.code ?? error.message });
    });
    client.on('close', () => {
      const answer = decodeAnswer(Buffer.concat(chunks));
      settle(answer ?? { error: 'the daemon closed the connection without an answer' });
    });
  });
}

/** True when a daemon accepts connections on `socket`. */
export function answers(socket: string): Promise<boolean> {
  return new Promise((settle) => {
    const client = connect(socket);
    client.on('connect', () => {
      client.destroy();
      settle(true);
    });
    client.on('error', () => {
      settle(false);
    });
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Waits (bounded) until a daemon answers on `socket`. */
async function listening(socket: string, deadline: number): Promise<boolean> {
  for (let wait = 5; Date.now() < deadline; wait = Math.min(wait * 2, 100)) {
    if (await answers(socket)) return true;
    await delay(wait);
  }
  return false;
}

/**
 * Starts the project's daemon unless one answers: under the project's lock (`<hash>.lock`, made
 * with O_EXCL and holding the starter's pid), so two agents starting it at once start one; a lock
 * whose starter died is taken over. A socket no daemon answers on is removed first. Resolves true
 * once a daemon answers.
 */
export async function startDaemon(
  paths: RelayPaths,
  command: { readonly node: string; readonly entry: string; readonly idle?: string },
): Promise<boolean> {
  const deadline = Date.now() + START_DEADLINE_MS;
  while (Date.now() < deadline) {
    if (await answers(paths.socket)) return true;
    let lock: number;
    try {
      lock = openSync(paths.lock, 'wx', 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(readFileSync(paths.lock, 'utf8').trim() || '0');
      if (holder > 0 && alive(holder)) {
        // Another starter is at it: wait for its daemon.
        if (await listening(paths.socket, Math.min(deadline, Date.now() + 2000))) return true;
        continue;
      }
      unlinkSync(paths.lock);
      continue;
    }
    try {
      writeSync(lock, String(process.pid));
      if (await answers(paths.socket)) return true;
      try {
        unlinkSync(paths.socket);
      } catch {
        // No socket, or already gone.
      }
      const log = openSync(paths.log, 'a', 0o600);
      const child = spawn(
        command.node,
        [
          command.entry,
          'daemon',
          'run',
          '--cwd',
          paths.projectDir,
          ...(command.idle === undefined ? [] : ['--idle', command.idle]),
        ],
        { detached: true, stdio: ['ignore', log, log], cwd: paths.projectDir },
      );
      child.unref();
      closeSync(log);
      return await listening(paths.socket, deadline);
    } finally {
      closeSync(lock);
      try {
        unlinkSync(paths.lock);
      } catch {
        // Taken over by a starter that judged this one dead.
      }
    }
  }
  return false;
}

/** The answer for one relayed event: from the daemon (started when needed), or fail-closed. */
export async function relayEvent(
  spec: RelayToolSpec,
  payload: string,
  options: {
    readonly paths: RelayPaths;
    readonly build: string;
    readonly node: string;
    readonly entry: string;
  },
): Promise<RelayAnswer> {
  const request = encodeRequest({ build: options.build, tool: formatToolSpec(spec), payload });
  let event = spec.event ?? '';
  try {
    const parsed = JSON.parse(payload) as { hook_event_name?: unknown };
    if (event === '' && typeof parsed.hook_event_name === 'string') event = parsed.hook_event_name;
  } catch {
    // The daemon says what is wrong with it.
  }
  let why = '';
  for (let attempt = 0; attempt < 2; attempt++) {
    const reply = await exchange(options.paths.socket, request);
    if (reply !== 'stale' && !('error' in reply)) return reply;
    why = reply === 'stale' ? 'a daemon of another build answered' : reply.error;
    if (attempt === 1) break;
    if (reply === 'stale') await waitGone(options.paths.socket);
    const started = await startDaemon(options.paths, {
      node: options.node,
      entry: options.entry,
    }).catch((error: unknown) => {
      why = error instanceof Error ? error.message : String(error);
      return false;
    });
    if (!started) break;
  }
  return unreachableAnswer(
    spec.tool,
    event,
    `no hookwire daemon answers on ${options.paths.socket}: ${why}`,
  );
}

/** Waits (bounded) until the stale daemon has stopped answering on `socket`. */
async function waitGone(socket: string): Promise<void> {
  const deadline = Date.now() + 5000;
  for (let wait = 2; Date.now() < deadline; wait = Math.min(wait * 2, 50)) {
    if (!(await answers(socket))) return;
    await delay(wait);
  }
}
