/**
 * A real Restate server and hookwire workers on loopback, for the durable-session tests, the kill
 * campaign and the bench.
 *
 * - `restate-server` comes from the npm package `@restatedev/restate-server` at a pinned version,
 *   installed once into node_modules/.cache (it is 216 MB: a platform package carries the
 *   binary, so it is not a devDependency).
 * - At start-up `restate-server` 1.7.12 asks api.github.com for its latest release and, unless
 *   disabled, reports telemetry to restate.gateway.scarf.sh; neither can be configured away for
 *   the first. To keep every byte on loopback it runs under `unshare --mount` with a hosts file,
 *   bind-mounted over /etc/hosts in that namespace only, that maps both names to 127.0.0.1 (so the
 *   lookup fails at once, on loopback), and with telemetry disabled. That needs root (CI is);
 *   `restateUnavailable()` says why it cannot run otherwise.
 * - Workers are `hookwire worker` processes behind one loopback TCP balancer (`Balancer`): the
 *   deployment Restate knows is the balancer's URL, so when a worker dies Restate's retry reaches
 *   a live one.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import {
  createServer as createHttp2Server,
  type Http2Server,
  type ServerHttp2Session,
} from 'node:http2';
import { createServer, connect, type Server, type Socket, type AddressInfo } from 'node:net';
import type { createEndpointHandler } from '@restatedev/restate-sdk';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

export const RESTATE_SERVER_VERSION = '1.7.12';
const PACKAGE = `@restatedev/restate-server@${RESTATE_SERVER_VERSION}`;
const REPO = resolve(import.meta.dirname, '..', '..');
// Outside the temp directory (the tests' temp-dir guard counts what is left there).
const INSTALL_DIR = join(
  REPO,
  'node_modules',
  '.cache',
  `hookwire-restate-server-${RESTATE_SERVER_VERSION}`,
);
const BINARY = join(
  INSTALL_DIR,
  'node_modules',
  '@restatedev',
  `restate-server-${process.platform}-${process.arch}`,
  'bin',
  'restate-server',
);
/** The names restate-server looks up at start-up (release check, telemetry). */
export const RESTATE_LOOKUPS = ['api.github.com', 'restate.gateway.scarf.sh'] as const;

export const CLI = join(REPO, 'dist', 'bin', 'hookwire.js');

/** Why the real server cannot run here, or `undefined` when it can. */
export function restateUnavailable(): string | undefined {
  if (process.platform !== 'linux') return 'restate-server tests run on Linux only';
  if (process.getuid?.() !== 0)
    return 'restate-server must run in a mount namespace whose /etc/hosts keeps its start-up lookups on loopback, which needs root (CI runs as root)';
  if (spawnSync('unshare', ['--version']).status !== 0) return 'unshare (util-linux) is missing';
  return undefined;
}

/** Installs the pinned restate-server once (npm, into the temp directory); its binary's path. */
export function restateServerBinary(): string {
  if (!existsSync(BINARY)) {
    const installed = spawnSync(
      'npm',
      ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', INSTALL_DIR, PACKAGE],
      { stdio: 'inherit' },
    );
    if (installed.status !== 0 || !existsSync(BINARY))
      throw new Error(`could not install ${PACKAGE} into ${INSTALL_DIR}`);
  }
  return BINARY;
}

/** A free loopback port (bound and released). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((done) =>
    server.close(() => {
      done();
    }),
  );
  return port;
}

/** Waits until `url` answers 200 (the server is up), or throws after `timeoutMs`. */
async function waitHealthy(url: string, process: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (process.exitCode !== null) throw new Error(`restate-server exited (${process.exitCode})`);
    const ok = await fetch(url).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`restate-server did not become healthy at ${url}`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

export interface RestateServer {
  readonly ingress: string;
  readonly admin: string;
  readonly log: string[];
  stop(): Promise<void>;
}

/** Starts restate-server in `dir` on loopback ports, in its own mount namespace. */
export async function startRestateServer(dir: string): Promise<RestateServer> {
  const binary = restateServerBinary();
  await mkdir(dir, { recursive: true });
  const [ingressPort, adminPort, fabricPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const config = join(dir, 'restate.toml');
  await writeFile(
    config,
    [
      'disable-telemetry = true',
      'default-num-partitions = 4',
      'rocksdb-total-memory-size = "256 MiB"',
      `base-dir = "${join(dir, 'data')}"`,
      // A killed worker's turn is retried quickly (the default starts at 500 ms).
      '[default-retry-policy]',
      'initial-interval = "100ms"',
      'exponentiation-factor = 1.5',
      'max-attempts = 500',
      'on-max-attempts = "pause"',
      'max-interval = "1s"',
      '[admin]',
      `bind-address = "127.0.0.1:${adminPort}"`,
      '[ingress]',
      `bind-address = "127.0.0.1:${ingressPort}"`,
      '',
    ].join('\n'),
  );
  const hosts = join(dir, 'hosts');
  await writeFile(
    hosts,
    ['127.0.0.1 localhost', ...RESTATE_LOOKUPS.map((name) => `127.0.0.1 ${name}`), ''].join('\n'),
  );
  const command = `mount --bind "${hosts}" /etc/hosts && exec "${binary}" --no-logo --config-file "${config}" --bind-address 127.0.0.1:${fabricPort} --advertised-address http://127.0.0.1:${fabricPort}/ --listen-mode tcp`;
  const child = spawn('unshare', ['--mount', 'sh', '-c', command], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      RESTATE_LOG_DISABLE_ANSI_CODES: 'true',
      DO_NOT_TRACK: '1',
      TMPDIR: dir,
    },
  });
  const log: string[] = [];
  for (const stream of [child.stdout, child.stderr])
    createInterface({ input: stream }).on('line', (line) => log.push(line));
  const admin = `http://127.0.0.1:${adminPort}`;
  try {
    await waitHealthy(`${admin}/health`, child, 60_000);
    await waitHealthy(`http://127.0.0.1:${ingressPort}/restate/health`, child, 60_000);
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`${(error as Error).message}\n${log.slice(-30).join('\n')}`, { cause: error });
  }
  return {
    ingress: `http://127.0.0.1:${ingressPort}`,
    admin,
    log,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** Registers the deployment at `uri` with the admin API at `admin` (replacing an earlier one). */
export async function registerDeployment(admin: string, uri: string): Promise<void> {
  const response = await fetch(`${admin}/deployments`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ uri, force: true }),
  });
  if (!response.ok) throw new Error(`registration failed: ${await response.text()}`);
}

/**
 * Serves `services` from an HTTP/2 endpoint in this process on a loopback port and registers it
 * with the admin API at `admin`. `onSession` sees each HTTP/2 connection Restate opens (the
 * registration's discovery included). Close the returned server when done. The SDK is loaded
 * here, not at the top, so that a process sets `RESTATE_LOGGING` before it loads.
 */
export async function serveInProcess(
  admin: string,
  services: Parameters<typeof createEndpointHandler>[0]['services'],
  onSession?: (session: ServerHttp2Session) => void,
): Promise<Http2Server> {
  const restate = await import('@restatedev/restate-sdk');
  const endpoint = createHttp2Server(restate.createEndpointHandler({ services }));
  if (onSession !== undefined) endpoint.on('session', onSession);
  await new Promise<void>((done) => endpoint.listen(0, '127.0.0.1', done));
  await registerDeployment(admin, `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}`);
  return endpoint;
}

/** One entry of an invocation's journal, as the admin API's `sys_journal` table reads it. */
export interface JournalEntry {
  /** `Command: Run`, `Notification: Run`, `Command: SetState`, `Command: Output`, … */
  readonly type: string;
  /** A command's name (a `ctx.run`'s), `''` for others. */
  readonly name: string;
  /** A successful completion's value, parsed as JSON (a `ctx.run`'s result). */
  readonly value?: unknown;
}

/**
 * The journal of the latest invocation of `target` (`service/key/handler`), in order, read through
 * the admin API's SQL endpoint (completed invocations keep their journal for a day by default).
 */
export async function journalOf(admin: string, target: string): Promise<JournalEntry[]> {
  const query = async (sql: string): Promise<Record<string, unknown>[]> => {
    const response = await fetch(`${admin}/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ query: sql }),
    });
    if (!response.ok) throw new Error(`admin query failed: ${await response.text()}`);
    return ((await response.json()) as { rows: Record<string, unknown>[] }).rows;
  };
  const quoted = target.replaceAll("'", "''");
  const [latest] = await query(
    `SELECT id FROM sys_invocation WHERE target = '${quoted}' ORDER BY created_at DESC LIMIT 1`,
  );
  if (latest === undefined) throw new Error(`no invocation of ${target}`);
  const rows = await query(
    `SELECT entry_type, name, entry_json FROM sys_journal WHERE id = '${String(latest.id)}' ORDER BY index`,
  );
  return rows.map((row) => {
    const json = JSON.parse(String(row.entry_json)) as {
      Notification?: { Completion?: { Run?: { result?: { Success?: number[] } } } };
    };
    const success = json.Notification?.Completion?.Run?.result?.Success;
    return {
      type: String(row.entry_type),
      name: typeof row.name === 'string' ? row.name : '',
      ...(success === undefined
        ? {}
        : { value: JSON.parse(Buffer.from(success).toString('utf8')) as unknown }),
    };
  });
}

/**
 * A loopback TCP balancer: each connection goes to the first backend that accepts it, starting
 * from the next in turn; a dead backend (refused) is skipped.
 */
export class Balancer {
  readonly #server: Server;
  readonly #backends: number[] = [];
  readonly #sockets = new Map<number, Set<Socket>>();
  #next = 0;
  port = 0;

  constructor() {
    this.#server = createServer((client) => {
      this.#route(client, 0);
    });
  }

  async listen(): Promise<string> {
    await new Promise<void>((done) => this.#server.listen(0, '127.0.0.1', done));
    this.port = (this.#server.address() as AddressInfo).port;
    return `http://127.0.0.1:${this.port}`;
  }

  add(port: number): void {
    this.#backends.push(port);
  }

  remove(port: number): void {
    const index = this.#backends.indexOf(port);
    if (index >= 0) this.#backends.splice(index, 1);
  }

  /**
   * Removes `port` and closes the connections open to it, so the next requests (Restate's
   * pooled HTTP/2 connection included) reconnect to the backends left. Only between requests.
   */
  detach(port: number): void {
    this.remove(port);
    for (const socket of this.#sockets.get(port) ?? []) socket.destroy();
  }

  /** The backends that have a connection open now. */
  busy(): number[] {
    return [...this.#sockets.entries()].filter(([, set]) => set.size > 0).map(([port]) => port);
  }

  #route(client: Socket, tried: number): void {
    if (tried >= this.#backends.length || this.#backends.length === 0) {
      client.destroy();
      return;
    }
    const port = this.#backends[this.#next++ % this.#backends.length] as number;
    const upstream = connect(port, '127.0.0.1');
    let connected = false;
    upstream.once('error', () => {
      if (!connected) this.#route(client, tried + 1);
    });
    upstream.once('connect', () => {
      connected = true;
      const set = this.#sockets.get(port) ?? new Set<Socket>();
      this.#sockets.set(port, set);
      set.add(upstream);
      upstream.on('close', () => set.delete(upstream));
      client.pipe(upstream).pipe(client);
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
  }

  async close(): Promise<void> {
    for (const set of this.#sockets.values()) for (const socket of set) socket.destroy();
    await new Promise<void>((done) =>
      this.#server.close(() => {
        done();
      }),
    );
  }
}

export interface Worker {
  readonly port: number;
  readonly process: ChildProcess;
  readonly output: string[];
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts `hookwire worker` with `args` and waits for its serving line. */
export async function startWorker(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<Worker> {
  const child = spawn(process.execPath, [CLI, 'worker', '--port', '0', ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const registering = args.includes('--restate-admin');
  createInterface({ input: child.stderr }).on('line', (line) => output.push(line));
  // Ready once it serves and, with --restate-admin, once it has registered.
  const port = await new Promise<number>((done, fail) => {
    let serving: number | undefined;
    createInterface({ input: child.stdout }).on('line', (line) => {
      output.push(line);
      const match = /serving hookwire-session on http:\/\/127\.0\.0\.1:(\d+)/.exec(line);
      if (match !== null) serving = Number(match[1]);
      if (serving !== undefined && (!registering || line.includes('hookwire worker: registered')))
        done(serving);
    });
    child.once('exit', (code) => {
      fail(
        new Error(`hookwire worker exited (${code}) before it was ready:\n${output.join('\n')}`),
      );
    });
  });
  return {
    port,
    process: child,
    output,
    async kill(signal: NodeJS.Signals = 'SIGKILL') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((done) => child.once('exit', done));
      child.kill(signal);
      await exited;
    },
  };
}
