/**
 * A scripted HTTP server on 127.0.0.1 for provider adapter tests and benchmarks: it records every
 * request (method, path, headers, parsed JSON body) and answers each with the next scripted reply
 * — a JSON body with any status and headers, or a server-sent-event stream written from events.
 * (`recording-server.ts` beside it answers from a handler function instead of a queue.)
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chatPairingError } from './tool-pairing.ts';

/** One server-sent event. An object `data` is sent as JSON; a string is sent as is. */
export interface ServerSentEvent {
  readonly event?: string;
  readonly data: unknown;
}

/** What the server answers one request with. */
export type ScriptedReply =
  | {
      readonly type: 'json';
      readonly status?: number;
      readonly body: unknown;
      readonly headers?: Readonly<Record<string, string>>;
    }
  | {
      readonly type: 'sse';
      readonly events: readonly ServerSentEvent[];
      readonly headers?: Readonly<Record<string, string>>;
      /**
       * Keep the connection open after the events until the client closes it (to test that
       * cancelling a call closes its HTTP request). Default false: the response ends.
       */
      readonly hold?: boolean;
    }
  /** A body sent as is (an HTML page, a truncated text), with the given content type. */
  | {
      readonly type: 'raw';
      readonly status?: number;
      readonly contentType: string;
      readonly body: string;
    };

/** A request as the server received it. */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The parsed JSON body, or the raw text when it is not JSON. */
  readonly body: unknown;
}

/** Encodes events in the SSE wire format (`event:` line when named, `data:` line, blank line). */
export function encodeServerSentEvents(events: readonly ServerSentEvent[]): string {
  let payload = '';
  for (const { event, data } of events) {
    if (event !== undefined) payload += `event: ${event}\n`;
    payload += `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
  }
  return payload;
}

export class LoopbackServer {
  readonly #server: Server;
  readonly #replies: ScriptedReply[] = [];
  readonly #encoded = new WeakMap<ScriptedReply, Buffer>();
  readonly #closeWaiters: (() => void)[] = [];
  #repeat: ScriptedReply | undefined;
  #handler: ((request: RecordedRequest) => ScriptedReply) | undefined;
  #enforcePairing = false;
  /** The OpenAI-style 400 messages sent for requests that broke the tool-call pairing. */
  readonly pairingViolations: string[] = [];
  #closedConnections = 0;
  /** Every request received, in arrival order. */
  readonly requests: RecordedRequest[] = [];
  /** `http://127.0.0.1:<port>/v1`, the base URL to give an OpenAI SDK. */
  readonly baseURL: string;
  /**
   * `http://127.0.0.1:<port>`, the API root to give SDKs that append their own version path
   * (Anthropic's `/v1/messages`, Gemini's `/v1beta/models/…`).
   */
  readonly origin: string;

  constructor(server: Server) {
    this.#server = server;
    const { port } = server.address() as AddressInfo;
    this.origin = `http://127.0.0.1:${port}`;
    this.baseURL = `${this.origin}/v1`;
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      void this.#handle(request, response);
    });
  }

  /** Queues replies, answered in order, one per request. */
  reply(...replies: ScriptedReply[]): this {
    this.#replies.push(...replies);
    return this;
  }

  /** Answers every request with `reply` once the queue is empty (benchmarks). */
  replyAlways(reply: ScriptedReply): this {
    this.#repeat = reply;
    return this;
  }

  /** Answers every request from `handler` once the queue is empty (replies that depend on it). */
  replyWith(handler: (request: RecordedRequest) => ScriptedReply): this {
    this.#handler = handler;
    return this;
  }

  /**
   * Rejects, as OpenAI does, a Chat Completions request whose `messages` break the tool-call
   * pairing (an assistant tool call not followed by its tool results, or a tool result answering
   * no call): HTTP 400 `invalid_request_error`, recorded in `pairingViolations`.
   */
  enforceToolPairing(): this {
    this.#enforcePairing = true;
    return this;
  }

  /** The most recent request; fails loudly when there is none. */
  lastRequest(): RecordedRequest {
    const last = this.requests.at(-1);
    if (last === undefined) throw new Error('the loopback server has received no request');
    return last;
  }

  /** Resolves when a held SSE response's connection has been closed by the client. */
  clientClosedHeldStream(): Promise<void> {
    if (this.#closedConnections > 0) {
      this.#closedConnections--;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#closeWaiters.push(resolve));
  }

  /** Forgets recorded requests and queued replies between tests. */
  reset(): void {
    this.requests.length = 0;
    this.#replies.length = 0;
    this.#repeat = undefined;
    this.#handler = undefined;
    this.pairingViolations.length = 0;
  }

  close(): Promise<void> {
    this.#server.closeAllConnections();
    return new Promise((resolve, reject) => {
      this.#server.close((error) => {
        if (error === undefined) resolve();
        else reject(error);
      });
    });
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: unknown = text;
    try {
      body = JSON.parse(text) as unknown;
    } catch {
      // Not JSON: keep the text.
    }
    const recorded: RecordedRequest = {
      method: request.method ?? '',
      path: request.url ?? '',
      headers: request.headers,
      body,
    };
    this.requests.push(recorded);
    if (this.#enforcePairing && recorded.path.endsWith('/chat/completions')) {
      const problem = chatPairingError(body);
      if (problem !== undefined) {
        this.pairingViolations.push(problem);
        response.writeHead(400, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            error: {
              message: problem,
              type: 'invalid_request_error',
              param: 'messages',
              code: null,
            },
          }),
        );
        return;
      }
    }
    const reply = this.#replies.shift() ?? this.#handler?.(recorded) ?? this.#repeat;
    if (reply === undefined) {
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ error: { message: 'loopback server: no scripted reply left' } }),
      );
      return;
    }
    if (reply.type === 'raw') {
      response.writeHead(reply.status ?? 200, { 'content-type': reply.contentType });
      response.end(reply.body);
      return;
    }
    if (reply.type === 'json') {
      response.writeHead(reply.status ?? 200, {
        'content-type': 'application/json',
        ...reply.headers,
      });
      response.end(JSON.stringify(reply.body));
      return;
    }
    let payload = this.#encoded.get(reply);
    if (payload === undefined) {
      payload = Buffer.from(encodeServerSentEvents(reply.events));
      this.#encoded.set(reply, payload);
    }
    response.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      ...reply.headers,
    });
    if (reply.hold !== true) {
      response.end(payload);
      return;
    }
    response.on('close', () => {
      const waiter = this.#closeWaiters.shift();
      if (waiter === undefined) this.#closedConnections++;
      else waiter();
    });
    response.write(payload);
  }
}

/** Starts a loopback server on 127.0.0.1 on a free port. Stop it with `close()`. */
export async function startLoopbackServer(): Promise<LoopbackServer> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return new LoopbackServer(server);
}
