/**
 * The JSON-RPC 2.0 client of one long-lived hook process: one message per line on stdin and
 * stdout. Requests are `{"jsonrpc":"2.0","id":N,"method":"hook","params":PAYLOAD}`; several may be
 * in flight, and answers match by `id` in any order. Each request has its own deadline.
 *
 * The process is *broken* — and killed, failing every request still in flight — when it exits,
 * writes a line that is not a JSON-RPC message, writes a line longer than the cap, or lets a
 * request pass its deadline (a hung process would hang every later event too). Whoever owns it
 * (the process hook runner) starts a fresh one for the next event, with backoff.
 */
import { formatDuration } from '../duration.ts';
import type { HookProcessExit, SpawnedHookProcess } from './spawn-hook-process.ts';

/** What one request got back. */
export type RpcReply =
  | { readonly kind: 'result'; readonly value: unknown }
  /** A JSON-RPC `error` answer: the process is fine, the hook failed. */
  | { readonly kind: 'error'; readonly code: number | undefined; readonly message: string }
  /** No answer: the deadline passed, the request was cancelled or the process broke. */
  | {
      readonly kind: 'failure';
      readonly status: 'timeout' | 'error' | 'warning';
      readonly what: string;
    };

/** Why a process was taken out of service. */
export interface BreakReason {
  readonly status: 'timeout' | 'error' | 'warning';
  readonly what: string;
}

export interface JsonRpcProcessOptions {
  /** The longest line accepted from the process, in UTF-16 code units. Default 4 MiB. */
  readonly maxLineLength?: number;
  /** SIGTERM → SIGKILL grace when the process is killed. */
  readonly killGraceMs: number;
  /** Called once when the process breaks (not when it is closed on purpose). */
  readonly onBreak?: (reason: BreakReason) => void;
}

interface Pending {
  readonly resolve: (reply: RpcReply) => void;
  /** Clears the deadline timer and removes the abort listener. */
  readonly cleanup: () => void;
}

const DEFAULT_MAX_LINE = 4 * 1024 * 1024;
const STDERR_TAIL = 2000;

function describeExit(exit: HookProcessExit): string {
  if (exit.spawnError !== undefined) return `could not start: ${exit.spawnError}`;
  if (exit.signal !== null) return `exited on ${exit.signal}`;
  return `exited (code ${String(exit.code)})`;
}

function shorten(line: string): string {
  return line.length > 120 ? `${line.slice(0, 120)}…` : line;
}

export class JsonRpcProcess {
  readonly #process: SpawnedHookProcess;
  readonly #options: JsonRpcProcessOptions;
  readonly #maxLine: number;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  #buffer = '';
  #stderr = '';
  #broken: BreakReason | undefined;
  #closing: Promise<void> | undefined;

  constructor(spawned: SpawnedHookProcess, options: JsonRpcProcessOptions) {
    this.#process = spawned;
    this.#options = options;
    this.#maxLine = options.maxLineLength ?? DEFAULT_MAX_LINE;
    spawned.stdout.setEncoding('utf8');
    spawned.stdout.on('data', (chunk: string) => {
      this.#onData(chunk);
    });
    spawned.stderr.setEncoding('utf8');
    spawned.stderr.on('data', (chunk: string) => {
      this.#stderr = (this.#stderr + chunk).slice(-STDERR_TAIL);
    });
    void spawned.exited.then((exit) => {
      const tail = this.#stderr.trim();
      this.#break({
        status: 'error',
        what: `(its process) ${describeExit(exit)} before it answered${tail === '' ? '' : `: ${tail.slice(-500)}`}`,
      });
    });
  }

  /** True until the process broke or was closed: it may take requests. */
  get usable(): boolean {
    return this.#broken === undefined && this.#closing === undefined;
  }

  /** Requests in flight. */
  get inFlight(): number {
    return this.#pending.size;
  }

  get pid(): number | undefined {
    return this.#process.pid;
  }

  /**
   * Sends one `hook` request whose `params` is `paramsJson` (already-serialised JSON) and
   * resolves with the reply. Never rejects. `deadlineMs` (default `timeoutMs`) is the deadline
   * named in the timeout message, when part of it was spent before the request.
   */
  request(
    paramsJson: string,
    timeoutMs: number,
    signal?: AbortSignal,
    deadlineMs = timeoutMs,
  ): Promise<RpcReply> {
    if (!this.usable)
      return Promise.resolve({
        kind: 'failure',
        status: this.#broken?.status ?? 'error',
        what: this.#broken?.what ?? 'was not sent: its process is stopping',
      });
    if (signal?.aborted === true)
      return Promise.resolve({
        kind: 'failure',
        status: 'error',
        what: 'was cancelled before it answered',
      });
    const id = this.#nextId++;
    return new Promise<RpcReply>((resolve) => {
      const onAbort = (): void => {
        if (!this.#pending.has(id)) return;
        this.#settle(id, {
          kind: 'failure',
          status: 'error',
          what: 'was cancelled before it answered',
        });
        // Tell the process it may drop the work; it owes no answer (LSP's `$/cancelRequest`).
        this.#write(`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":${id}}}\n`);
      };
      const timer = setTimeout(() => {
        if (!this.#pending.has(id)) return;
        this.#settle(id, {
          kind: 'failure',
          status: 'timeout',
          what: `timed out after ${formatDuration(deadlineMs)}`,
        });
        this.#break({
          status: 'error',
          what: `was cancelled: its process was restarted after another request timed out`,
        });
      }, timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#pending.set(id, {
        resolve,
        cleanup: () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
        },
      });
      // Written once the request is pending: writing it before the set-up measured slower
      // (decision 0031, round 4).
      this.#write(`{"jsonrpc":"2.0","id":${id},"method":"hook","params":${paramsJson}}\n`);
    });
  }

  /** Stops the process on purpose: requests in flight fail, the group is killed. Idempotent. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#failAll({ status: 'error', what: 'was cancelled: its process was stopped' });
      this.#process.stdin.end();
      await this.#process.kill(this.#options.killGraceMs);
    })();
    return this.#closing;
  }

  #write(line: string): void {
    if (this.#process.stdin.writable) this.#process.stdin.write(line);
  }

  #settle(id: number, reply: RpcReply): void {
    const pending = this.#pending.get(id);
    if (pending === undefined) return;
    this.#pending.delete(id);
    // Released at once: deferring it to a `setImmediate` measured slower (decision 0031).
    pending.cleanup();
    pending.resolve(reply);
  }

  #failAll(reason: BreakReason): void {
    for (const id of [...this.#pending.keys()])
      this.#settle(id, { kind: 'failure', status: reason.status, what: reason.what });
  }

  #break(reason: BreakReason): void {
    if (this.#broken !== undefined || this.#closing !== undefined) {
      this.#failAll(reason);
      return;
    }
    this.#broken = reason;
    this.#failAll(reason);
    this.#options.onBreak?.(reason);
    void this.#process.kill(this.#options.killGraceMs);
  }

  #onData(chunk: string): void {
    let text = this.#buffer + chunk;
    let newline = text.indexOf('\n');
    while (newline !== -1) {
      const line = text.slice(0, newline);
      text = text.slice(newline + 1);
      this.#onLine(line);
      if (this.#broken !== undefined) return;
      newline = text.indexOf('\n');
    }
    if (text.length > this.#maxLine) {
      this.#buffer = '';
      this.#break({
        status: 'warning',
        what: `(its process) wrote a line longer than ${this.#maxLine} characters, so it was restarted`,
      });
      return;
    }
    this.#buffer = text;
  }

  #onLine(raw: string): void {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') return;
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      this.#garbage(line);
      return;
    }
    if (typeof message !== 'object' || message === null || Array.isArray(message)) {
      this.#garbage(line);
      return;
    }
    const fields = message as Record<string, unknown>;
    const id = fields['id'];
    // A notification or a request from the process (e.g. a log line): nothing to answer.
    if (typeof fields['method'] === 'string' && id === undefined) return;
    if (typeof id !== 'number' || fields['jsonrpc'] !== '2.0') {
      this.#garbage(line);
      return;
    }
    if ('result' in fields) {
      this.#settle(id, { kind: 'result', value: fields['result'] });
      return;
    }
    const error = fields['error'];
    if (typeof error === 'object' && error !== null) {
      const { code, message: text } = error as { code?: unknown; message?: unknown };
      this.#settle(id, {
        kind: 'error',
        code: typeof code === 'number' ? code : undefined,
        message: typeof text === 'string' ? text : JSON.stringify(error),
      });
      return;
    }
    this.#garbage(line);
  }

  #garbage(line: string): void {
    this.#break({
      status: 'warning',
      what: `(its process) wrote a line that is not a JSON-RPC 2.0 answer (${JSON.stringify(shorten(line))}), so it was restarted`,
    });
  }
}
