import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createInterface } from 'node:readline';
import { AHP_ERROR, AhpBackend } from '../ahp-backend.ts';
import { CliError } from '../cli-error.ts';
import { writeStdout } from '../output/stdout.ts';
import {
  openCommandHookSession,
  printSettingsWarnings,
  untrustedNotice,
  type SettingsCommandOptions,
} from '../settings-options.ts';
import { fireInSession } from './hooks-fire.ts';

/** Options of `hookwire ahp serve`. */
export interface AhpServeOptions extends SettingsCommandOptions {
  /** `--http HOST:PORT`: serve loopback HTTP instead of stdio (PORT 0 picks a free port). */
  readonly http?: string;
  /**
   * `--token-env VAR` (with `--http`): every POST must carry `Authorization: Bearer <the value of
   * VAR>`, the binding an AHP harness's `authentication: {type: "bearer", tokenEnv}` sends.
   */
  readonly tokenEnv?: string;
}

const MAX_BODY = 1024 * 1024;

function warn(line: string): void {
  process.stderr.write(`hookwire: ahp serve: ${line}\n`);
}

/** The loopback host and port of `--http`; anything else is refused. */
function listenAddress(value: string): { readonly host: string; readonly port: number } {
  const match = /^(\[::1\]|localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}):(\d{1,5})$/.exec(value);
  const port = Number(match?.[2]);
  if (match === null || port > 65535)
    throw new CliError(
      `--http ${value}: give a loopback address and port, e.g. --http 127.0.0.1:8787 (0 picks a free port); hookwire serves AHP over plain HTTP on loopback only`,
    );
  return { host: (match[1] ?? '').replace(/^\[|\]$/g, ''), port };
}

/** The bearer token `--token-env` names, read once at start; refused when unusable. */
function bearerToken(options: AhpServeOptions): Buffer | undefined {
  const variable = options.tokenEnv;
  if (variable === undefined) return undefined;
  if (options.http === undefined)
    throw new CliError(
      '--token-env applies to --http only: the stdio binding carries no credentials (the harness starts the backend itself)',
    );
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(variable))
    throw new CliError(`--token-env ${variable}: give the name of an environment variable`);
  const value = process.env[variable];
  if (value === undefined || value === '')
    throw new CliError(
      `--token-env ${variable}: the variable is unset or empty, so no request could authenticate`,
    );
  return Buffer.from(value, 'utf8');
}

/**
 * `hookwire ahp serve [--http 127.0.0.1:PORT]`: hookwire as an AHP backend for the project's
 * hooks (see `AhpBackend`). stdio (the default) reads one JSON-RPC message per line on stdin and
 * writes each answer as one line on stdout (nothing else goes there), until stdin ends; `--http`
 * answers one message per POST (200 with the answer, 202 for a notification) until SIGINT or
 * SIGTERM. The project's hooks must all be trusted (its trust record, or `--trust-project`):
 * a backend answering with some guards skipped would allow what they deny, so it refuses to
 * start (exit 1) and names the command that trusts them.
 */
export async function ahpServeCommand(options: AhpServeOptions): Promise<number> {
  const address = options.http === undefined ? undefined : listenAddress(options.http);
  const token = bearerToken(options);
  // node:crypto is loaded only when a token is required (`hooks list` must not pay for it).
  const authorize =
    token === undefined
      ? undefined
      : bearerCheck(token, (await import('node:crypto')).timingSafeEqual);
  const session = await openCommandHookSession(options);
  try {
    const notice = untrustedNotice(session.settings, options);
    if (notice !== undefined)
      throw new CliError(
        `ahp serve answers only with every project hook in force; ${notice.replace(/^hookwire: /, '')}\n(or pass --trust-project for this invocation)`,
        { code: 'hooks_untrusted' },
      );
    printSettingsWarnings(session.settings);
    const backend = new AhpBackend({
      binding: { transport: address === undefined ? 'stdio' : 'http', bearer: token !== undefined },
      fire: (event, payload) => fireInSession(session, event, payload),
      projectDir: session.projectDir,
      warn,
    });
    if (address === undefined) await serveStdio(backend);
    else await serveHttp(backend, address, authorize);
    await backend.drain();
    return 0;
  } finally {
    await session.close();
  }
}

async function serveStdio(backend: AhpBackend): Promise<void> {
  const pending = new Set<Promise<void>>();
  for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
    if (line.trim() === '') continue;
    const handled = backend.handle(line).then((answer) => {
      if (answer !== undefined) writeStdout(`${answer}\n`);
    });
    pending.add(handled);
    void handled.finally(() => pending.delete(handled));
  }
  await Promise.all([...pending]);
}

function readBody(request: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > MAX_BODY) {
        resolve(undefined);
        request.resume();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => {
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    request.on('error', reject);
  });
}

/**
 * Whether a request carries `Authorization: Bearer <token>`, compared in constant time with
 * `equal` (`node:crypto`'s `timingSafeEqual`).
 */
function bearerCheck(
  token: Buffer,
  equal: (given: Buffer, expected: Buffer) => boolean,
): (request: IncomingMessage) => boolean {
  return (request) => {
    const match = /^Bearer +(\S+) *$/i.exec(request.headers.authorization ?? '');
    if (match?.[1] === undefined) return false;
    const given = Buffer.from(match[1], 'utf8');
    return given.length === token.length && equal(given, token);
  };
}

/** The 401 answer: a JSON-RPC error (id null: the body of an unauthenticated request is not read). */
const UNAUTHORIZED = JSON.stringify({
  jsonrpc: '2.0',
  id: null,
  error: {
    code: AHP_ERROR.unauthorized,
    message: 'Unauthorized: this backend requires Authorization: Bearer <token>',
  },
});

async function answerHttp(
  backend: AhpBackend,
  request: IncomingMessage,
  response: ServerResponse,
  authorize: ((request: IncomingMessage) => boolean) | undefined,
): Promise<void> {
  if (request.method !== 'POST') {
    response.writeHead(405, { allow: 'POST' }).end();
    return;
  }
  if (authorize !== undefined && !authorize(request)) {
    request.resume();
    response
      .writeHead(401, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(UNAUTHORIZED),
        'www-authenticate': 'Bearer realm="hookwire ahp serve"',
      })
      .end(UNAUTHORIZED);
    return;
  }
  const body = await readBody(request);
  if (body === undefined) {
    response.writeHead(413).end();
    return;
  }
  const answer = await backend.handle(body);
  if (answer === undefined) response.writeHead(202).end();
  else
    response
      .writeHead(200, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(answer),
      })
      .end(answer);
}

async function serveHttp(
  backend: AhpBackend,
  address: { readonly host: string; readonly port: number },
  authorize: ((request: IncomingMessage) => boolean) | undefined,
): Promise<void> {
  const server = createServer((request, response) => {
    answerHttp(backend, request, response, authorize).catch((error: unknown) => {
      warn(`HTTP request failed: ${error instanceof Error ? error.message : String(error)}`);
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        new CliError(
          `--http: cannot listen on ${address.host}:${address.port} (${error.code ?? error.message})`,
        ),
      );
    });
    server.listen(address.port, address.host, resolve);
  });
  const bound = server.address();
  const port = typeof bound === 'object' && bound !== null ? bound.port : address.port;
  const host = address.host.includes(':') ? `[${address.host}]` : address.host;
  warn(`listening on http://${host}:${port}/`);
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      server.close(() => {
        resolve();
      });
      server.closeAllConnections();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
