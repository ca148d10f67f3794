/**
 * The MCP stdio transport hookwire starts servers with: the SDK's message serialization
 * `serializeMessage`: one JSON-RPC message per line) over a child process contained like a hook
 * process (decision 0008): the server leads its own process group and carries a
 * `HOOKWIRE_HOOK_RUN` tag, so closing it kills the group and every process that left it (a
 * `setsid` grandchild, a double fork) but kept the tag.
 *
 * The SDK's own `StdioClientTransport` spawns with neither, so a server's children could outlive
 * the session; this one is a drop-in `Transport` for the SDK's `Client`.
 *
 * With a `watchdog` (the session's orphan watchdog), the server's group is also killed when
 * hookwire dies without closing it (SIGKILL, a crash): the watchdog learns the group when the
 * server starts and forgets it when the server exits.
 *
 * One message from the server is at most `maxMessageBytes` (default 10 MiB, the SDK's own limit):
 * a longer line is discarded as it streams and the request it answers (found by its `id`, or the
 * only request in flight) gets a JSON-RPC error naming the limit, so that call — or, for
 * `initialize` and `tools/list`, that server's start — fails and the session goes on
 * (`BoundedMessageReader`).
 *
 * Where the reaper is in force (`reaper.ts`), the server runs under it: an orphan of the server
 * that cleared its environment and left its group is held by the reaper and killed with it.
 *
 * Closing follows the MCP lifecycle for stdio: close the server's stdin, give it
 * `exitGraceMs` to exit, then SIGTERM to its group and tagged processes, then SIGKILL after
 * `killGraceMs`.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { BoundedMessageReader } from './bounded-message-reader.ts';
import {
  HOOK_RUN_VARIABLE,
  findContainedProcesses,
  signalProcesses,
} from '../supervision/containment.ts';
import { hasRunningMembers, signalProcessGroup } from '../supervision/process-group.ts';
import type { Watchdog } from '../supervision/watchdog.ts';
import { holdReaper, underReaper } from '../supervision/reaper.ts';

/** How a contained stdio server starts. */
export interface ContainedStdioOptions {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  /** The whole environment of the server (the caller merges the inherited one). */
  readonly env: Readonly<Record<string, string>>;
  /** The containment tag, given to the server as `HOOKWIRE_HOOK_RUN`. */
  readonly tag: string;
  /** After stdin closes, how long the server may take to exit by itself. Default 500 ms. */
  readonly exitGraceMs?: number;
  /** SIGTERM → SIGKILL grace. Default 2000 ms. */
  readonly killGraceMs?: number;
  /** Kills the server's group if hookwire dies without closing the transport. */
  readonly watchdog?: Watchdog;
  /** The longest message accepted from the server, in bytes. Default `MAX_MCP_MESSAGE_BYTES`. */
  readonly maxMessageBytes?: number;
}

/** The longest message read from a stdio server: 10 MiB, the SDK's `ReadBuffer` limit. */
export const MAX_MCP_MESSAGE_BYTES = 10 * 1024 * 1024;

/** JSON-RPC's "internal error": what a request whose answer was too long is answered with. */
const INTERNAL_ERROR = -32603;

function formatBytes(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return Number.isInteger(mib) ? `${mib} MiB` : `${bytes} bytes`;
}

/** The last bytes of a server's stderr kept for failure messages. */
const STDERR_TAIL = 2000;
const POLL_MS = 20;

export class ContainedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Called once when the server exits by itself, not because `close()` stopped it. */
  onExit?: () => void;

  readonly #options: ContainedStdioOptions;
  readonly #reader: BoundedMessageReader;
  /** Requests sent and not answered yet: id → method (to answer one whose answer was too long). */
  readonly #pending = new Map<string | number, string>();
  #child: ChildProcessWithoutNullStreams | undefined;
  #exited: Promise<void> | undefined;
  #alive = false;
  #stderr = '';
  #exit: string | undefined;
  #closing: Promise<void> | undefined;

  constructor(options: ContainedStdioOptions) {
    this.#options = options;
    this.#reader = new BoundedMessageReader(options.maxMessageBytes ?? MAX_MCP_MESSAGE_BYTES);
  }

  /** Whether the server process runs (started and not exited). */
  get running(): boolean {
    return this.#alive;
  }

  /** The server's pid (also its process group id) once started. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** The tail of what the server wrote on stderr, and how it exited if it did: for failure messages. */
  describeFailure(): string {
    const parts: string[] = [];
    if (this.#exit !== undefined) parts.push(this.#exit);
    const tail = this.#stderr.trim();
    if (tail !== '') parts.push(`stderr: ${tail.split('\n').slice(-3).join(' | ')}`);
    return parts.join('; ');
  }

  start(): Promise<void> {
    if (this.#child !== undefined) throw new Error('ContainedStdioTransport already started');
    return new Promise((resolve, reject) => {
      // Under the reaper where it is in force (it leads the group; its grace is under ours, so
      // it has killed what is below it before our SIGKILL could reach it).
      const target = underReaper(
        this.#options.command,
        this.#options.args,
        (this.#options.killGraceMs ?? 2000) / 2,
      );
      const child = spawn(target.file, [...target.args], {
        cwd: this.#options.cwd,
        env: { ...this.#options.env, [HOOK_RUN_VARIABLE]: this.#options.tag },
        stdio: target.reaped ? ['pipe', 'pipe', 'pipe', 'pipe'] : ['pipe', 'pipe', 'pipe'],
        detached: true,
        windowsHide: true,
      });
      holdReaper(child);
      this.#child = child;
      this.#exited = new Promise((settle) => {
        child.once('error', () => {
          settle();
        });
        child.once('close', (code, signal) => {
          this.#alive = false;
          if (child.pid !== undefined) this.#options.watchdog?.release(child.pid);
          this.#exit ??=
            signal === null ? `exited with code ${String(code)}` : `exited on ${signal}`;
          settle();
          this.onclose?.();
          if (this.#closing === undefined) this.onExit?.();
        });
      });
      child.once('error', (error) => {
        this.#alive = false;
        this.#exit = `could not start ${JSON.stringify(this.#options.command)}: ${error.message}`;
        reject(new Error(this.#exit));
        this.onerror?.(error);
      });
      child.once('spawn', () => {
        this.#alive = true;
        if (child.pid !== undefined) this.#options.watchdog?.watch(child.pid);
        resolve();
      });
      child.stdin.on('error', (error) => {
        this.onerror?.(error);
      });
      child.stdout.on('data', (chunk: Buffer) => {
        this.#receive(chunk);
      });
      child.stdout.on('error', (error) => {
        this.onerror?.(error);
      });
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (chunk: string) => {
        this.#stderr = (this.#stderr + chunk).slice(-STDERR_TAIL);
      });
    });
  }

  #receive(chunk: Buffer): void {
    for (const line of this.#reader.push(chunk)) {
      if (line.kind === 'oversized') {
        this.#answerOversized(line.bytes, line.id);
        continue;
      }
      if (line.text.trim() === '') continue;
      let message: JSONRPCMessage;
      try {
        message = deserializeMessage(line.text);
      } catch (error) {
        this.onerror?.(error instanceof Error ? error : new Error(String(error)));
        continue;
      }
      if ('id' in message && !('method' in message) && message.id !== undefined)
        this.#pending.delete(message.id);
      this.onmessage?.(message);
    }
  }

  /**
   * A message over the limit was discarded: answer the request it answered (by its id, else the
   * only request in flight, else every request in flight: none of them can be told apart) with
   * an error naming the limit. A notification or request from the server is only reported.
   */
  #answerOversized(bytes: number, id: string | number | undefined): void {
    const limit = this.#options.maxMessageBytes ?? MAX_MCP_MESSAGE_BYTES;
    const ids =
      id !== undefined && this.#pending.has(id)
        ? [id]
        : id === undefined
          ? [...this.#pending.keys()]
          : [];
    if (ids.length === 0) {
      this.onerror?.(
        new Error(
          `the MCP server wrote a message of ${bytes} bytes, over the ${formatBytes(limit)} limit on one message; it was discarded`,
        ),
      );
      return;
    }
    for (const answered of ids) {
      const method = this.#pending.get(answered) ?? 'request';
      this.#pending.delete(answered);
      this.onmessage?.({
        jsonrpc: '2.0',
        id: answered,
        error: {
          code: INTERNAL_ERROR,
          message: `the server's answer to ${method} is ${bytes} bytes, over hookwire's limit of ${formatBytes(limit)} on one MCP message; it was discarded`,
        },
      });
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    const child = this.#child;
    if (child === undefined || !this.#alive || child.stdin.destroyed)
      return Promise.reject(
        new Error(`the server is not running${this.#exit === undefined ? '' : ` (${this.#exit})`}`),
      );
    if ('method' in message && 'id' in message) this.#pending.set(message.id, message.method);
    return new Promise((resolve) => {
      if (child.stdin.write(serializeMessage(message))) resolve();
      else child.stdin.once('drain', resolve);
    });
  }

  /** Stops the server and everything it started (see the module's doc). Idempotent. */
  close(): Promise<void> {
    this.#closing ??= this.#stop();
    return this.#closing;
  }

  async #stop(): Promise<void> {
    const child = this.#child;
    const groupId = child?.pid;
    if (child === undefined || groupId === undefined) {
      this.#reader.clear();
      return;
    }
    child.stdin.end();
    const exitGrace = this.#options.exitGraceMs ?? 500;
    const killGrace = this.#options.killGraceMs ?? 2000;
    const match = { groupIds: [groupId], tag: this.#options.tag };
    const gone = (): boolean =>
      !hasRunningMembers(groupId) && findContainedProcesses(match).length === 0;
    if (!(await this.#waitUntil(gone, exitGrace))) {
      signalProcessGroup(groupId, 'SIGTERM');
      signalProcesses(findContainedProcesses(match), 'SIGTERM');
      if (!(await this.#waitUntil(gone, killGrace))) {
        for (let round = 0; round < 2; round++) {
          signalProcessGroup(groupId, 'SIGKILL');
          signalProcesses(findContainedProcesses(match), 'SIGKILL');
        }
      }
    }
    await this.#exited;
    this.#reader.clear();
    this.#pending.clear();
  }

  async #waitUntil(done: () => boolean, ms: number): Promise<boolean> {
    const deadline = performance.now() + ms;
    while (!done()) {
      if (performance.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    return true;
  }
}
