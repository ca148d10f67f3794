/**
 * `type: "http"` hooks against a real server on 127.0.0.1: the payload arrives as the POSTed
 * JSON body, the response body answers as command-hook stdout does, and every way of not
 * answering (status, redirect, refused connection, deadline, garbage) is a failed hook.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runHookGroup } from '../../src/hook-kinds/group/index.ts';
import { createDirectRunner } from '../../src/supervision/index.ts';
import { createHttpHookRunner, expandHeaderValue } from '../../src/hook-kinds/http/index.ts';
import type { HttpHookConfig } from '../../src/hook-kinds/http/index.ts';
import { groupOf, httpHook, toolPayload, kindStates } from './support.ts';

interface Received {
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

const received: Received[] = [];
const routes = new Map<string, (response: ServerResponse, body: string) => void>();
let server: Server;
let base = '';
const commands = createDirectRunner();
const http = createHttpHookRunner({
  env: { TOKEN: 'secret-token', TEAM: 'blue', HOME_SECRET: 'never' },
});

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = request.url ?? '/';
      received.push({ path, headers: request.headers, body });
      const route = routes.get(path);
      if (route === undefined) response.writeHead(404).end('no such hook');
      else route(response, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  routes.set('/deny', (response, body) => {
    const payload = JSON.parse(body) as { tool_name: string };
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ decision: 'deny', reason: `no ${payload.tool_name}` }));
  });
  routes.set('/empty', (response) => response.writeHead(204).end());
  routes.set('/echo', (response, body) =>
    response.writeHead(200).end(JSON.stringify({ systemMessage: body })),
  );
  routes.set('/down', (response) => response.writeHead(503, 'Service Unavailable').end('down'));
  routes.set('/moved', (response) => response.writeHead(302, { location: '/deny' }).end());
  routes.set('/text', (response) => response.writeHead(200).end('looks fine to me'));
  routes.set('/slow', (response) => {
    setTimeout(() => response.writeHead(200).end('{}'), 2000).unref();
  });
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await commands.close();
});

function fire(hook: HttpHookConfig, signal?: AbortSignal) {
  return runHookGroup(groupOf('PreToolUse', [hook]), toolPayload('allow'), {
    runner: commands,
    projectDir: '/tmp',
    sessionId: 'session-1',
    kinds: kindStates({ http }),
    ...(signal === undefined ? {} : { signal }),
  });
}

describe('http hooks', () => {
  it('POSTs the payload as JSON and reads a JSON answer as command-hook output', async () => {
    const run = await fire(httpHook(`${base}/deny`));
    expect(run.combined.denyReasons).toEqual(['no shell']);
    expect(run.outcomes[0]?.record).toMatchObject({
      status: 'blocked',
      kind: 'http',
      target: `${base}/deny`,
    });
    const request = received.find((entry) => entry.path === '/deny');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request?.body ?? '')).toEqual(toolPayload('allow'));
  });

  it('sends exactly the bytes a command hook reads on stdin', async () => {
    const run = await fire(httpHook(`${base}/echo`));
    expect(run.combined.systemMessages).toEqual([JSON.stringify(toolPayload('allow'))]);
  });

  it('takes an empty 2xx body as no opinion', async () => {
    const run = await fire(httpHook(`${base}/empty`));
    expect(run.outcomes[0]?.record.status).toBe('ok');
    expect(run.combined.denied).toBe(false);
    expect(run.combined.warnings).toEqual([]);
  });

  it('counts a non-2xx status as a failed hook: a warning, or a denial when failClosed', async () => {
    const open = await fire(httpHook(`${base}/down`));
    expect(open.combined.warnings).toEqual([
      'hook "http" (PreToolUse) answered HTTP 503 Service Unavailable',
    ]);
    const closed = await fire(httpHook(`${base}/down`, { failClosed: true }));
    expect(closed.combined.denied).toBe(true);
    expect(closed.outcomes[0]?.record.status).toBe('failed-closed');
  });

  it('does not follow redirects', async () => {
    const before = received.filter((entry) => entry.path === '/deny').length;
    const run = await fire(httpHook(`${base}/moved`));
    expect(run.combined.denied).toBe(false);
    expect(run.combined.warnings[0]).toBe(
      'hook "http" (PreToolUse) answered HTTP 302 (a redirect to /deny; redirects are not followed)',
    );
    expect(received.filter((entry) => entry.path === '/deny')).toHaveLength(before);
  });

  it('counts a 2xx body that is not JSON as a failed hook', async () => {
    const run = await fire(httpHook(`${base}/text`));
    expect(run.combined.warnings).toEqual([
      'hook "http" (PreToolUse) answered a body that is not a JSON object',
    ]);
  });

  it('counts a refused connection as a failed hook', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const run = await fire(httpHook(`http://127.0.0.1:${port}/hook`, { failClosed: true }));
    expect(run.outcomes[0]?.record.status).toBe('failed-closed');
    expect(run.combined.denyReasons[0]).toContain(`could not reach http://127.0.0.1:${port}/hook`);
    expect(run.combined.denyReasons[0]).toContain('ECONNREFUSED');
  });

  it('fails at the deadline', async () => {
    // The timeout status is the evidence the deadline fired before the slow answer; no
    // wall-clock bound, which a loaded machine can miss.
    const run = await fire(httpHook(`${base}/slow`, { timeoutMs: 200 }));
    expect(run.outcomes[0]?.record.status).toBe('timeout');
    expect(run.combined.warnings).toEqual(['hook "http" (PreToolUse) timed out after 200ms']);
  });

  it('fails a cancelled request as cancelled', async () => {
    const controller = new AbortController();
    const pending = fire(httpHook(`${base}/slow`), controller.signal);
    setTimeout(() => {
      controller.abort();
    }, 50);
    const run = await pending;
    expect(run.combined.warnings).toEqual([
      'hook "http" (PreToolUse) was cancelled before it answered',
    ]);
  });

  it('expands $VAR and ${VAR} in headers only for allowedEnvVars', async () => {
    await fire(
      httpHook(`${base}/empty`, {
        headers: {
          authorization: 'Bearer $TOKEN',
          'x-team': 'team-${TEAM}',
          'x-leak': '$HOME_SECRET|${HOME_SECRET}',
        },
        allowedEnvVars: ['TOKEN', 'TEAM'],
      }),
    );
    const request = received.filter((entry) => entry.path === '/empty').at(-1);
    expect(request?.headers['authorization']).toBe('Bearer secret-token');
    expect(request?.headers['x-team']).toBe('team-blue');
    expect(request?.headers['x-leak']).toBe('|');
  });

  it('expandHeaderValue leaves text without references alone and empties unset variables', () => {
    expect(expandHeaderValue('plain value', ['A'], {})).toBe('plain value');
    expect(expandHeaderValue('$A-${A}', ['A'], {})).toBe('-');
    expect(expandHeaderValue('$A_B $A', ['A', 'A_B'], { A: '1', A_B: '2' })).toBe('2 1');
  });
});
