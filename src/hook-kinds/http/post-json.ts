/**
 * One JSON `POST` for the kinds that speak HTTP (`http` hooks, the `ahp` kind's HTTP transport):
 * `node:http`/`node:https` on shared keep-alive agents, so consecutive requests to one backend
 * reuse one connection, without the WHATWG `fetch` machinery (request/response objects, web
 * streams, `AbortSignal.any`) that cost more per request than the exchange itself on loopback.
 *
 * - Redirects are never followed (the caller sees the 3xx and its `location`).
 * - One deadline covers connect, send, the wait and reading the body; a cancel signal ends it
 *   too. Either destroys the request (and its connection).
 * - The body is read only when `readBody(status)` says so, and capped: a longer body ends the
 *   request (`too-long`).
 * - A request that fails on a reused keep-alive connection before any answer (the server closed
 *   it while idle) is sent once more on a new connection, inside the same deadline: the request
 *   never reached a live server, so the backend sees it once.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import type * as Https from 'node:https';
import { createRequire } from 'node:module';

export interface PostJsonRequest {
  readonly url: URL;
  /** The JSON text sent. */
  readonly body: string;
  /** Extra request headers (`content-type` and `content-length` are set here). */
  readonly headers?: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  readonly maxBodyBytes: number;
  /** Whether to read the body of a response with this status (else it is discarded). */
  readonly readBody: (status: number) => boolean;
}

export type PostJsonResult =
  | {
      readonly kind: 'response';
      readonly status: number;
      readonly statusText: string;
      readonly location: string | undefined;
      /** The body when `readBody(status)`; '' otherwise. */
      readonly text: string;
    }
  | { readonly kind: 'too-long'; readonly status: number }
  | { readonly kind: 'timeout' }
  | { readonly kind: 'aborted' }
  | { readonly kind: 'error'; readonly message: string };

const httpAgent = new HttpAgent({ keepAlive: true });
/**
 * `node:https` (and with it TLS and `node:crypto`), loaded on the first https request: every
 * command loads this module with the kinds' registry, and `hooks list` or a run without an https
 * hook must not pay for them (test/cli/bin.test.ts).
 */
const requireBuiltin = createRequire(import.meta.url);
let https: { readonly request: typeof Https.request; readonly agent: Https.Agent } | undefined;
function secureClient(): { readonly request: typeof Https.request; readonly agent: Https.Agent } {
  if (https === undefined) {
    const loaded = requireBuiltin('node:https') as typeof Https;
    https = { request: loaded.request, agent: new loaded.Agent({ keepAlive: true }) };
  }
  return https;
}

/** POSTs `request.body` to `request.url`; never rejects. */
export function postJson(request: PostJsonRequest): Promise<PostJsonResult> {
  if (request.signal?.aborted === true) return Promise.resolve({ kind: 'aborted' });
  return new Promise<PostJsonResult>((resolve) => {
    let settled = false;
    let current: ReturnType<typeof httpRequest> | undefined;
    const finish = (result: PostJsonResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
      resolve(result);
    };
    const timer = setTimeout(() => {
      finish({ kind: 'timeout' });
      current?.destroy();
    }, request.timeoutMs);
    const onAbort = (): void => {
      finish({ kind: 'aborted' });
      current?.destroy();
    };
    request.signal?.addEventListener('abort', onAbort, { once: true });
    const send = (retry: boolean): void => {
      const secure = request.url.protocol === 'https:';
      let outgoing: ReturnType<typeof httpRequest>;
      try {
        const client = secure ? secureClient() : { request: httpRequest, agent: httpAgent };
        outgoing = client.request(request.url, {
          method: 'POST',
          agent: client.agent,
          headers: {
            ...request.headers,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(request.body),
          },
        });
      } catch (error) {
        // A header value the client refuses (a control character from the environment).
        finish({ kind: 'error', message: error instanceof Error ? error.message : String(error) });
        return;
      }
      current = outgoing;
      let answered = false;
      outgoing.on('response', (response: IncomingMessage) => {
        answered = true;
        const status = response.statusCode ?? 0;
        const base = {
          status,
          statusText: response.statusMessage ?? '',
          location: response.headers.location,
        };
        if (!request.readBody(status)) {
          response.resume();
          response.on('end', () => {
            finish({ kind: 'response', ...base, text: '' });
          });
          response.on('error', () => {
            finish({ kind: 'response', ...base, text: '' });
          });
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.byteLength;
          if (size > request.maxBodyBytes) {
            finish({ kind: 'too-long', status });
            outgoing.destroy();
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () => {
          finish({
            kind: 'response',
            ...base,
            text:
              chunks.length === 1
                ? (chunks[0]?.toString('utf8') ?? '')
                : Buffer.concat(chunks).toString('utf8'),
          });
        });
        response.on('error', (error: Error) => {
          finish({ kind: 'error', message: error.message });
        });
      });
      outgoing.on('error', (error: NodeJS.ErrnoException) => {
        if (settled) return;
        if (!answered && !retry && outgoing.reusedSocket && error.code === 'ECONNRESET') {
          send(true);
          return;
        }
        finish({ kind: 'error', message: error.message });
      });
      outgoing.end(request.body);
    };
    send(false);
  });
}
