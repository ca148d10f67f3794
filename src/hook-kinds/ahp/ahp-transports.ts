/**
 * How one `ahp` subscription reaches its backend (AHP §transports):
 *
 * - stdio `per_event`: the argv spawned **without a shell** through the supervised runner's argv
 *   mode (containment, deadline, output cap, reaping); one request line on stdin, then EOF; exit
 *   0 and exactly one response line are required of an intercept.
 * - stdio `persistent`: one long-lived process (argv, no shell, in its own contained group),
 *   one compact JSON object per line, string ids equal to the event id, at most one outstanding
 *   intercept (later ones wait their turn inside their own deadline). A process that breaks
 *   (exits, writes a line that is not a response to the request in flight, misses a deadline) is
 *   killed and restarted for the next event, with backoff.
 * - HTTP: one POST per message with `Content-Type: application/json`; 200 with a body for an
 *   intercept, 202/204 for an observe; redirects are never followed; the body is capped; the
 *   bearer token comes only from the named environment variable.
 *
 * Every exchange returns text to validate (`ahp-wire.ts`) or a classed failure; none rejects.
 */
import { spawnInProcessGroup, type SpawnedHookProcess } from '../process/spawn-hook-process.ts';
import type { CommandRunner } from '../../supervision/index.ts';
import { formatDuration } from '../duration.ts';
import { postJson } from '../http/post-json.ts';
import type { AhpFailureClass } from './ahp-wire.ts';

/** The transport of an `ahp` entry. */
export type AhpTransport =
  | {
      readonly type: 'stdio';
      readonly command: string;
      readonly args: readonly string[];
      readonly lifecycle: 'persistent' | 'per_event';
      readonly cwd?: string;
    }
  | { readonly type: 'http'; readonly url: string };

/** What one exchange got: the response text, or a classed failure. */
export type AhpExchange =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly failure: AhpFailureClass; readonly what: string };

const MAX_BODY = 1024 * 1024;
const KILL_GRACE_MS = 500;
/** How long a persistent backend may take to exit by itself after its stdin ends. */
const CLOSE_GRACE_MS = 1000;

function failed(failure: AhpFailureClass, what: string): AhpExchange {
  return { ok: false, failure, what };
}

/** Sends one message; `expectAnswer` false for a notification. */
export interface AhpConnection {
  exchange(
    line: string,
    id: string | undefined,
    deadline: number,
    signal: AbortSignal | undefined,
    /**
     * Whether a received line is a valid answer to this message. A persistent backend whose
     * answer is not is out of step with its stream (a banner, a stray line): it is replaced
     * before the next message, so a late line is never read as the next message's answer.
     */
    valid?: (text: string) => boolean,
  ): Promise<AhpExchange>;
  close(): Promise<void>;
}

/** stdio `per_event`: one supervised argv run per message. */
export function perEventConnection(
  transport: Extract<AhpTransport, { type: 'stdio' }>,
  runner: () => CommandRunner,
  cwd: string,
  env: () => Readonly<Record<string, string>>,
): AhpConnection {
  return {
    async exchange(line, id, deadline, signal) {
      const timeoutMs = Math.max(1, deadline - Date.now());
      const result = await runner().run({
        file: transport.command,
        args: transport.args,
        cwd: transport.cwd ?? cwd,
        input: `${line}\n`,
        env: env(),
        timeoutMs,
        killGraceMs: KILL_GRACE_MS,
        maxOutputBytes: MAX_BODY,
        ...(signal === undefined ? {} : { signal }),
      });
      if (result.termination === 'timeout')
        return failed('timeout', `did not answer within ${formatDuration(timeoutMs)}`);
      if (result.termination === 'spawn-error')
        return failed('crash', `could not start: ${result.spawnError ?? 'unknown error'}`);
      if (result.termination === 'aborted') return failed('transport', 'was cancelled');
      if (id === undefined) return { ok: true, text: '' };
      if (result.exitCode !== 0)
        return failed(
          result.signal === null ? 'exit' : 'crash',
          result.signal === null
            ? `exited with code ${String(result.exitCode)}`
            : `was killed by ${result.signal}`,
        );
      const lines = result.stdout.split('\n').filter((text) => text.trim() !== '');
      if (result.stdoutTruncated) return failed('malformed', 'wrote more than the output cap');
      if (lines.length !== 1)
        return failed(
          'malformed',
          `wrote ${lines.length} lines on stdout; a per_event backend writes exactly one response`,
        );
      return { ok: true, text: lines[0] ?? '' };
    },
    close: () => Promise.resolve(),
  };
}

/** The intercept in flight on a persistent backend: what settles it when a line comes. */
interface Waiter {
  readonly id: string;
  readonly spawned: SpawnedHookProcess;
  readonly valid: ((text: string) => boolean) | undefined;
  readonly resolve: (exchange: AhpExchange) => void;
  readonly timer: NodeJS.Timeout;
  readonly signal: AbortSignal | undefined;
  readonly onAbort: (() => void) | undefined;
}

/**
 * stdio `persistent`: one process, restarted with backoff after it breaks; one outstanding
 * intercept at a time (a queue in arrival order).
 */
export function persistentConnection(
  transport: Extract<AhpTransport, { type: 'stdio' }>,
  cwd: string,
  env: () => Readonly<Record<string, string>>,
): AhpConnection {
  let process: SpawnedHookProcess | undefined;
  let buffer = '';
  let waiter: Waiter | undefined;
  /** Whether a message's turn is running; later ones wait in `turns`, in arrival order. */
  let busy = false;
  const turns: (() => void)[] = [];
  let failures = 0;
  let notBefore = 0;
  let closed = false;
  const stopping = new Set<Promise<void>>();

  /** Settles the intercept in flight (a line, a failure) and stops its deadline. */
  const settle = (pending: Waiter, exchange: AhpExchange): void => {
    clearTimeout(pending.timer);
    if (pending.onAbort !== undefined)
      pending.signal?.removeEventListener('abort', pending.onAbort);
    if (exchange.ok && pending.valid !== undefined && !pending.valid(exchange.text)) {
      // Inside this message's turn: the next message goes to a new process.
      if (process === pending.spawned) breakProcess('malformed', 'answered out of step');
    } else if (exchange.ok) failures = 0;
    pending.resolve(exchange);
  };

  const breakProcess = (failure: AhpFailureClass, what: string): void => {
    const current = process;
    process = undefined;
    buffer = '';
    failures++;
    // Backoff: 50 ms doubling to 5 s after consecutive breaks; a good answer resets it.
    notBefore = Date.now() + Math.min(5000, 50 * 2 ** Math.min(failures - 1, 7));
    const pending = waiter;
    waiter = undefined;
    if (pending !== undefined) settle(pending, failed(failure, what));
    if (current !== undefined) {
      const killing = current.kill(KILL_GRACE_MS);
      stopping.add(killing);
      void killing.finally(() => stopping.delete(killing));
    }
  };

  const start = (): SpawnedHookProcess => {
    const spawned = spawnInProcessGroup({
      command: '',
      argv: [transport.command, ...transport.args],
      cwd: transport.cwd ?? cwd,
      env: env(),
    });
    spawned.stdout.setEncoding('utf8');
    spawned.stdout.on('data', (chunk: string) => {
      if (process !== spawned) return;
      buffer += chunk;
      if (buffer.length > MAX_BODY && !buffer.includes('\n')) {
        breakProcess('malformed', 'wrote a line longer than the cap');
        return;
      }
      let newline = buffer.indexOf('\n');
      while (newline !== -1 && process === spawned) {
        const line = buffer.slice(0, newline).replace(/\r$/, '');
        buffer = buffer.slice(newline + 1);
        if (line.trim() !== '') onLine(line);
        newline = buffer.indexOf('\n');
      }
    });
    spawned.stderr.resume(); // diagnostics go to stderr; never read as protocol
    void spawned.exited.then((exit) => {
      if (process !== spawned) return;
      breakProcess(
        'crash',
        exit.spawnError !== undefined
          ? `could not start: ${exit.spawnError}`
          : `exited (${exit.signal ?? `code ${String(exit.code)}`})`,
      );
    });
    return spawned;
  };

  const onLine = (line: string): void => {
    const pending = waiter;
    if (pending === undefined) {
      // Nothing is outstanding: a line now is not a response to anything (a banner, noise).
      breakProcess('malformed', `wrote a line while no request was outstanding`);
      return;
    }
    waiter = undefined;
    settle(pending, { ok: true, text: line });
  };

  /** The deadline of the intercept `id`: a late answer would be read as the next one's. */
  const expire = (id: string): void => {
    if (waiter?.id === id) breakProcess('timeout', 'did not answer before its deadline');
  };

  /** One message's turn: the process is free (no other message in flight). */
  const send = async (
    line: string,
    id: string | undefined,
    deadline: number,
    signal: AbortSignal | undefined,
    valid: ((text: string) => boolean) | undefined,
  ): Promise<AhpExchange> => {
    if (closed) return failed('transport', 'was not sent: the session is closing');
    if (Date.now() >= deadline) return failed('timeout', 'waited past its deadline');
    if (process === undefined && Date.now() < notBefore) {
      // Restarting after a failure: wait out the backoff when the deadline allows it.
      if (notBefore >= deadline)
        return failed('crash', 'is restarting after a failure (backoff past the deadline)');
      await new Promise((resolve) => setTimeout(resolve, notBefore - Date.now()));
    }
    process ??= start();
    const spawned = process;
    spawned.stdin.write(`${line}\n`);
    if (id === undefined) return { ok: true, text: '' };
    return new Promise<AhpExchange>((resolve) => {
      // Only a request with a signal gets an abort listener.
      const onAbort =
        signal === undefined
          ? undefined
          : (): void => {
              if (waiter?.id === id) breakProcess('transport', 'was cancelled');
            };
      if (onAbort !== undefined) signal?.addEventListener('abort', onAbort, { once: true });
      waiter = {
        id,
        spawned,
        valid,
        resolve,
        timer: setTimeout(expire, deadline - Date.now(), id),
        signal,
        onAbort,
      };
    });
  };

  /** Ends a turn: the next waiting message's turn starts. */
  const release = (): void => {
    const next = turns.shift();
    if (next === undefined) busy = false;
    else next();
  };

  return {
    async exchange(line, id, deadline, signal, valid) {
      if (busy) await new Promise<void>((resolve) => turns.push(resolve));
      else busy = true;
      try {
        return await send(line, id, deadline, signal, valid);
      } finally {
        release();
      }
    },
    async close() {
      closed = true;
      const current = process;
      process = undefined;
      if (current !== undefined) {
        // EOF first, so the backend reads what was delivered (observe notifications) and may
        // exit by itself; then its group is killed, a second later at most.
        current.stdin.end();
        let timer: NodeJS.Timeout | undefined;
        const ended = Promise.race([
          current.exited,
          new Promise((resolve) => {
            timer = setTimeout(resolve, CLOSE_GRACE_MS);
          }),
        ]).finally(() => {
          clearTimeout(timer);
        });
        stopping.add(ended.then(() => current.kill(KILL_GRACE_MS)));
      }
      await Promise.all([...stopping]);
    },
  };
}

/** True for a loopback host (`http` is allowed only there). */
export function isLoopback(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * HTTP: one POST per message (`postJson`: a keep-alive connection, never a redirect). With a
 * bearer `tokenEnv`, the token is read from that variable on every message; unset or empty, the
 * message is not sent (an `auth` failure: never an unauthenticated fallback, AHP HTTP binding).
 */
export function httpConnection(
  transport: Extract<AhpTransport, { type: 'http' }>,
  tokenEnv: string | undefined,
  env: Readonly<Record<string, string | undefined>> = process.env,
): AhpConnection {
  const url = new URL(transport.url);
  return {
    async exchange(line, id, deadline, signal) {
      const timeoutMs = Math.max(1, deadline - Date.now());
      const bearer = tokenEnv === undefined ? undefined : env[tokenEnv];
      if (tokenEnv !== undefined && (bearer === undefined || bearer === ''))
        return failed(
          'auth',
          `was not sent: its bearer token variable ${tokenEnv} is unset or empty`,
        );
      // The deadline covers connect, send, the backend's work and reading the body.
      const result = await postJson({
        url,
        body: line,
        ...(bearer === undefined ? {} : { headers: { authorization: `Bearer ${bearer}` } }),
        timeoutMs,
        ...(signal === undefined ? {} : { signal }),
        maxBodyBytes: MAX_BODY,
        readBody: (status) => id !== undefined && status === 200,
      });
      switch (result.kind) {
        case 'timeout':
          return failed('timeout', `did not answer within ${formatDuration(timeoutMs)}`);
        case 'aborted':
          return failed('transport', 'was cancelled');
        case 'error':
          return failed('transport', `could not be reached (${result.message})`);
        case 'too-long':
          return failed('malformed', `answered a body over ${MAX_BODY} bytes`);
        case 'response':
          break;
      }
      const status = result.status;
      if (status === 401)
        return failed(
          'auth',
          bearer === undefined
            ? 'answered HTTP 401: it requires authentication, and the entry has none'
            : `answered HTTP 401: it refused the bearer token from ${tokenEnv ?? ''}`,
        );
      if (status >= 300 && status < 400)
        return failed('http-redirect', `answered a redirect (${status}), never followed`);
      if (id === undefined)
        return status === 202 || status === 204
          ? { ok: true, text: '' }
          : failed('http-status', `answered HTTP ${status} to a notification`);
      if (status !== 200) return failed('http-status', `answered HTTP ${status}`);
      return { ok: true, text: result.text };
    },
    close: () => Promise.resolve(),
  };
}
