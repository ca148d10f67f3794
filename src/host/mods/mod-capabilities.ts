/**
 * What `$` serves a mod in hookwire (the methods `SERVED_CAPABILITIES` lists; the static scan
 * refuses a mod that calls any other). Each runs on the main thread, for the calling mod:
 *
 * - `ui.log|toast|status|notice`: a line in the run's reports. `ui.ask` rejects: nobody is there
 *   to ask (as under `claude -p`).
 * - `session.cwd|root|id`: read-only facts of the session.
 * - `clock.now|sleep`, `env.get` (reading this process's environment).
 * - `fs.read|write|list|exists|stat`: confined to the project and the plugin's directory (a path
 *   that leaves both, also through a symbolic link, is refused), 4 MiB per file.
 * - `process.run(argv, init?)`: through the session's supervised runner in argv mode (the program
 *   spawned with its arguments as given, no shell); 30 s by default, 10 minutes at most;
 *   `{ exitCode, stdout, stderr }`.
 * - `http.fetch(url, init?)`: `{ status, ok, headers, text }`, the body cut at 4 MiB.
 * - `turn.abort(reason?)`: the event being handled answers `stop`, so the run ends after it.
 * - `store.get|set|delete|keys`: a JSON file per plugin under `~/.hookwire/mods/store/`, 4 MiB.
 */
import { mkdir, readdir, readFile, realpath, rename, stat, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { CommandRunner } from '../../supervision/index.ts';
import type { CapabilityCore, DispatchScope, LoadedMod } from './mods-chain.ts';

/** Every `$` method hookwire serves, as `noun.method`. */
export const SERVED_CAPABILITIES: ReadonlySet<string> = new Set([
  'ui.log',
  'ui.toast',
  'ui.status',
  'ui.notice',
  'ui.ask',
  'session.cwd',
  'session.root',
  'session.id',
  'clock.now',
  'clock.sleep',
  'env.get',
  'fs.read',
  'fs.write',
  'fs.list',
  'fs.exists',
  'fs.stat',
  'process.run',
  'http.fetch',
  'store.get',
  'store.set',
  'store.delete',
  'store.keys',
  'turn.abort',
]);

/** Claude Code's limit on one `$.fs` file and on a plugin's `$.store`. */
export const FILE_LIMIT_BYTES = 4 * 1024 * 1024;
const RUN_DEFAULT_MS = 30_000;
const RUN_MAX_MS = 10 * 60_000;

export interface CapabilityOptions {
  readonly projectDir: string;
  /** The supervised runner `process.run` spawns through. */
  readonly runner: CommandRunner;
  /** The user's `.hookwire` directory; the plugins' stores live in its `mods/store/`. */
  readonly homeDir: string;
  /** The environment `env.get` reads. Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

const text = (value: unknown): string => {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    for (const key of ['text', 'message', 'title'])
      if (typeof record[key] === 'string') return record[key];
  }
  return jsonText(value);
};

/** `JSON.stringify`, whose result is `undefined` for a value JSON has no text for. */
export function jsonText(value: unknown): string {
  const json: unknown = JSON.stringify(value);
  return typeof json === 'string' ? json : 'undefined';
}

function stringArgument(args: readonly unknown[], at: number, what: string): string {
  const value = args[at];
  if (typeof value !== 'string' || value === '')
    throw new Error(`${what} must be a non-empty string`);
  return value;
}

const within = (root: string, path: string): boolean => {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
};

/** The real path of `path` or, when it does not exist yet, of its nearest existing ancestor plus the rest. */
async function realTarget(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    const parent = dirname(path);
    if (parent === path) return path;
    return join(await realTarget(parent), relative(parent, path));
  }
}

/** A path a mod named, resolved against the project and checked against the allowed roots. */
async function confined(mod: LoadedMod, projectDir: string, given: string): Promise<string> {
  const path = resolve(projectDir, given);
  const real = await realTarget(path);
  const roots = await Promise.all([projectDir, mod.root].map((root) => realTarget(root)));
  if (!roots.some((root) => within(root, real)))
    throw new Error(
      `$.fs: ${given} is outside the project and the plugin's directory (hookwire confines a mod's files to them)`,
    );
  return path;
}

/** The `$` services of a session (see the module's doc). */
export function createCapabilityCore(options: CapabilityOptions): CapabilityCore {
  const env = options.env ?? process.env;
  const stores = new Map<string, Promise<unknown>>();
  const storeFile = (mod: LoadedMod): string =>
    join(options.homeDir, 'mods', 'store', `${mod.name.replaceAll(/[^A-Za-z0-9_.@-]/g, '_')}.json`);
  const readStore = async (mod: LoadedMod): Promise<Record<string, unknown>> => {
    try {
      const parsed: unknown = JSON.parse(await readFile(storeFile(mod), 'utf8'));
      return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
        ? (parsed as Record<string, unknown>)
        : {};
    } catch {
      return {};
    }
  };
  // One store operation at a time per plugin: a read-modify-write never loses another's update.
  const inStore = <T>(
    mod: LoadedMod,
    operation: (store: Record<string, unknown>) => T | Promise<T>,
  ): Promise<T> => {
    const previous = stores.get(mod.name) ?? Promise.resolve();
    const next = previous.then(async () => operation(await readStore(mod)));
    stores.set(
      mod.name,
      next.catch(() => undefined),
    );
    return next;
  };
  const writeStore = async (mod: LoadedMod, store: Record<string, unknown>): Promise<void> => {
    const body = JSON.stringify(store);
    if (Buffer.byteLength(body) > FILE_LIMIT_BYTES)
      throw new Error(`$.store: the plugin's store would pass ${String(FILE_LIMIT_BYTES)} bytes`);
    const file = storeFile(mod);
    await mkdir(dirname(file), { recursive: true });
    const temporary = `${file}.${String(process.pid)}.tmp`;
    await writeFile(temporary, body);
    await rename(temporary, file);
  };

  return async (mod, noun, method, args, scope: DispatchScope) => {
    const name = `${noun}.${method}`;
    switch (name) {
      case 'ui.log':
      case 'ui.toast':
      case 'ui.status':
      case 'ui.notice':
        scope.context.report({
          level: 'message',
          text: `[${mod.name}] ${text(args[0])}`,
          hookName: mod.name,
        });
        return undefined;
      case 'turn.abort':
        // The engine event being handled answers `stop`: the run ends after it.
        scope.aborted = typeof args[0] === 'string' ? args[0] : `${mod.name} aborted the turn`;
        return undefined;
      case 'ui.ask':
        throw new Error('$.ui.ask: nobody to ask in a headless hookwire run (as under claude -p)');
      case 'session.cwd':
      case 'session.root':
        return options.projectDir;
      case 'session.id':
        return scope.context.session.sessionId;
      case 'clock.now':
        return Date.now();
      case 'clock.sleep': {
        const ms = Number(args[0] ?? 0);
        await new Promise<void>((done, fail) => {
          const signal = scope.context.signal;
          const timer = setTimeout(done, Number.isFinite(ms) && ms > 0 ? ms : 0);
          signal.addEventListener(
            'abort',
            () => {
              clearTimeout(timer);
              fail(new Error('$.clock.sleep: the run was cancelled'));
            },
            { once: true },
          );
        });
        return undefined;
      }
      case 'env.get':
        return env[stringArgument(args, 0, '$.env.get(name): name')];
      case 'fs.read': {
        const path = await confined(
          mod,
          options.projectDir,
          stringArgument(args, 0, '$.fs.read(path): path'),
        );
        const info = await stat(path);
        if (info.size > FILE_LIMIT_BYTES)
          throw new Error(`$.fs.read: ${String(args[0])} is over the 4 MiB limit`);
        return readFile(path, 'utf8');
      }
      case 'fs.write': {
        const path = await confined(
          mod,
          options.projectDir,
          stringArgument(args, 0, '$.fs.write(path, text): path'),
        );
        const body = typeof args[1] === 'string' ? args[1] : text(args[1]);
        if (Buffer.byteLength(body) > FILE_LIMIT_BYTES)
          throw new Error(`$.fs.write: the text for ${String(args[0])} is over the 4 MiB limit`);
        await mkdir(dirname(path), { recursive: true });
        await writeFile(path, body);
        return undefined;
      }
      case 'fs.list': {
        const path = await confined(
          mod,
          options.projectDir,
          typeof args[0] === 'string' ? args[0] : '.',
        );
        const entries = await readdir(path, { withFileTypes: true });
        return entries.map((entry) => ({
          name: entry.name,
          kind: entry.isDirectory() ? 'dir' : 'file',
        }));
      }
      case 'fs.exists': {
        const path = await confined(
          mod,
          options.projectDir,
          stringArgument(args, 0, '$.fs.exists(path): path'),
        );
        return stat(path).then(
          () => true,
          () => false,
        );
      }
      case 'fs.stat': {
        const path = await confined(
          mod,
          options.projectDir,
          stringArgument(args, 0, '$.fs.stat(path): path'),
        );
        const info = await stat(path);
        return {
          kind: info.isDirectory() ? 'dir' : 'file',
          size: info.size,
          mtimeMs: info.mtimeMs,
        };
      }
      case 'process.run': {
        const argv = args[0];
        if (
          !Array.isArray(argv) ||
          argv.length === 0 ||
          !argv.every((arg) => typeof arg === 'string')
        )
          throw new Error(
            '$.process.run(argv): argv must be a non-empty array of strings (no shell)',
          );
        const init = (typeof args[1] === 'object' && args[1] !== null ? args[1] : {}) as Record<
          string,
          unknown
        >;
        const timeoutMs = Math.min(
          RUN_MAX_MS,
          typeof init.timeoutMs === 'number' && init.timeoutMs > 0
            ? init.timeoutMs
            : RUN_DEFAULT_MS,
        );
        const result = await options.runner.run({
          file: argv[0] ?? '',
          args: argv.slice(1),
          cwd:
            typeof init.cwd === 'string'
              ? resolve(options.projectDir, init.cwd)
              : options.projectDir,
          input: typeof init.stdin === 'string' ? init.stdin : '',
          timeoutMs,
          signal: scope.context.signal,
          ...(typeof init.env === 'object' && init.env !== null
            ? { env: init.env as Record<string, string> }
            : {}),
        });
        if (result.termination === 'timeout')
          throw new Error(`$.process.run: ${String(argv[0])} ran over ${String(timeoutMs)} ms`);
        if (result.termination !== 'exited')
          throw new Error(
            `$.process.run: ${String(argv[0])} did not run (${result.spawnError ?? result.termination})`,
          );
        return { exitCode: result.exitCode ?? 1, stdout: result.stdout, stderr: result.stderr };
      }
      case 'http.fetch': {
        const url = stringArgument(args, 0, '$.http.fetch(url): url');
        const init = (
          typeof args[1] === 'object' && args[1] !== null ? args[1] : {}
        ) as RequestInit;
        const response = await fetch(url, { ...init, signal: scope.context.signal });
        const body = await response.text();
        return {
          status: response.status,
          ok: response.ok,
          headers: Object.fromEntries(response.headers.entries()),
          text: body.length > FILE_LIMIT_BYTES ? body.slice(0, FILE_LIMIT_BYTES) : body,
        };
      }
      case 'store.get':
        return inStore(mod, (store) => store[stringArgument(args, 0, '$.store.get(key): key')]);
      case 'store.keys':
        return inStore(mod, (store) => Object.keys(store));
      case 'store.set':
        return inStore(mod, async (store) => {
          store[stringArgument(args, 0, '$.store.set(key, value): key')] = args[1];
          await writeStore(mod, store);
          return undefined;
        });
      case 'store.delete':
        return inStore(mod, async (store) => {
          Reflect.deleteProperty(store, stringArgument(args, 0, '$.store.delete(key): key'));
          await writeStore(mod, store);
          return undefined;
        });
      default:
        throw new Error(`$.${name} is not provided by hookwire`);
    }
  };
}
