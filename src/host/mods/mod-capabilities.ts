/**
 * What `$` serves a mod in hookwire (the methods `SERVED_CAPABILITIES` lists; the static scan
 * refuses a mod that calls any other). Each runs on the main thread, for the calling mod:
 *
 * - `ui.log|toast|status|notice`: a line in the run's reports. `ui.ask` rejects: nobody is there
 *   to ask (as under `claude -p`).
 * - `session.cwd|root|id|model|turns|messages`: read-only views of the session (`messages` and
 *   `turns` read its transcript: `{ role, text, toolUses, toolResults? }` per message).
 * - `clock.now|sleep|after|every`: the waits are the host's timers (a mod has no timer globals);
 *   `after` and `every` resolve one wait per call (per period), and every wait of a hook is
 *   cancelled when the hook's run ends. `env.get` reads this process's environment.
 * - `model.complete({ model, prompt, system?, maxTokens? })`: one text completion through the
 *   prompt hook kind's models (the run's model for an alias such as `haiku`, a bare id through
 *   the run's provider, `PROVIDER:MODEL` resolved as a prompt hook's `model`); the reply's text.
 * - `fs.read|write|list|exists|stat`: confined to the project and the plugin's directory (a path
 *   that leaves both, also through a symbolic link, is refused), 4 MiB per file.
 * - `process.run(argv, init?)`: through the session's supervised runner in argv mode (the program
 *   spawned with its arguments as given, no shell); 30 s by default, 10 minutes at most;
 *   `{ exitCode, stdout, stderr }`.
 * - `http.fetch(url, init?)`: `{ status, ok, headers, text }`, the body cut at 4 MiB.
 * - `turn.abort(reason?)`: the event being handled answers `stop`, so the run ends after it.
 * - `store.get|set|delete|keys`: a JSON file per plugin under `~/.hookwire/mods/store/`, 4 MiB.
 * - `state.get|set`: named values held for the session (`{ value, version }`, a write only to the
 *   plugin's own values, `ifVersion` for a conditional one); the `claude-code` helpers `atom`,
 *   `read`, `update`, `derive`, `memberOf` run over them in the worker.
 * - `command.register|list|run`: as under `claude -p`, a registered command is listed and runs
 *   only when asked: `$.command.run` raises `command.run` through the mods (the chain builds the
 *   event), and this is its core, for a command no hook answered. Nobody types a slash command
 *   in a hookwire run, so nothing else raises it.
 */
import { mkdir, readdir, readFile, realpath, rename, stat, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { LanguageModel, Message } from '../../content/index.ts';
import { historyOf, readTranscript } from '../../loop/transcript.ts';
import type { CommandRunner } from '../../supervision/index.ts';
import { isRecord, type CapabilityCore, type DispatchScope, type LoadedMod } from './mods-chain.ts';

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
  'session.model',
  'session.turns',
  'session.messages',
  'clock.now',
  'clock.sleep',
  'clock.after',
  'clock.every',
  'model.complete',
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
  'state.get',
  'state.set',
  'command.register',
  'command.list',
  'command.run',
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
  /** The run's model (the prompt hook kind's judge): `model.complete`, `session.model`. */
  readonly promptModel?: () => Promise<LanguageModel>;
  /** Resolves a `PROVIDER:MODEL` spec (as a prompt hook's `model`). */
  readonly resolveModel?: (spec: string) => Promise<LanguageModel>;
}

/** Claude Code's model aliases: in hookwire they name the run's model. */
const MODEL_ALIASES = new Set(['haiku', 'sonnet', 'opus', 'default', 'best', 'opusplan']);
/** `model.complete`'s default token cap (Claude Code's). */
const COMPLETE_MAX_TOKENS = 1024;

/** Claude Code's `SessionMessage` of one hookwire message (tool responses go to the user side). */
function sessionMessage(message: Message): Record<string, unknown> {
  const text = message.blocks
    .map((block) => (block.type === 'text' ? block.text : ''))
    .filter((part) => part !== '')
    .join('\n');
  const toolUses = message.blocks.flatMap((block) =>
    block.type === 'tool_call' ? [{ id: block.id, tool: block.name, input: block.parameters }] : [],
  );
  const toolResults = message.blocks.flatMap((block) =>
    block.type === 'tool_response'
      ? [
          {
            tool_use_id: block.callId,
            result: block.result,
            ...(block.error === undefined ? {} : { isError: true, text: block.error }),
          },
        ]
      : [],
  );
  return {
    role: message.speaker === 'ai' ? 'assistant' : 'user',
    text,
    toolUses,
    ...(toolResults.length === 0 ? {} : { toolResults }),
  };
}

/** The session's messages so far, from its transcript (none before the first is written). */
async function transcriptMessages(path: string): Promise<Message[]> {
  try {
    return historyOf((await readTranscript(path)).records);
  } catch {
    return [];
  }
}

/** Waits `ms` on the host's clock; rejects when `signal` aborts. */
function hostWait(ms: number, signal: AbortSignal, what: string): Promise<void> {
  return new Promise<void>((done, fail) => {
    if (signal.aborted) {
      fail(new Error(`${what}: cancelled`));
      return;
    }
    const timer = setTimeout(
      () => {
        signal.removeEventListener('abort', onAbort);
        done();
      },
      Number.isFinite(ms) && ms > 0 ? ms : 0,
    );
    const onAbort = (): void => {
      clearTimeout(timer);
      fail(new Error(`${what}: cancelled (the hook's run ended, or the run was cancelled)`));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
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

/** The run's cancellation, and the hook run's own end when given. */
const signalOf = (scope: DispatchScope, signal: AbortSignal | undefined): AbortSignal =>
  signal === undefined ? scope.context.signal : AbortSignal.any([scope.context.signal, signal]);

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

  // `$.state`: the session's named values, each with a version (0 while never written).
  const state = new Map<string, { value: unknown; version: number }>();
  const stateKey = (given: unknown, what: string): { key: string; plugin: string } => {
    if (!isRecord(given) || typeof given.plugin !== 'string' || typeof given.key !== 'string')
      throw new Error(`${what}: ref is { plugin, key, id? }`);
    const id = typeof given.id === 'string' || typeof given.id === 'number' ? given.id : undefined;
    return { key: JSON.stringify([given.plugin, given.key, id]), plugin: given.plugin };
  };
  // `$.command.register`: the session's commands, by name.
  const commands = new Map<string, Record<string, unknown>>();

  const complete = async (request: unknown, signal: AbortSignal): Promise<string> => {
    if (typeof request !== 'object' || request === null)
      throw new Error(
        '$.model.complete(request): request is { model, prompt, system?, maxTokens? }',
      );
    const { model, prompt, system, maxTokens } = request as Record<string, unknown>;
    if (typeof prompt !== 'string') throw new Error('$.model.complete: prompt must be a string');
    const spec = typeof model === 'string' ? model : '';
    let language: LanguageModel;
    let id: string;
    if (spec.includes(':')) {
      if (options.resolveModel === undefined)
        throw new Error(`$.model.complete: this host cannot resolve the model "${spec}"`);
      language = await options.resolveModel(spec);
      id = language.modelId;
    } else {
      if (options.promptModel === undefined)
        throw new Error('$.model.complete: this host gives mods no model');
      language = await options.promptModel();
      id = spec === '' || MODEL_ALIASES.has(spec) ? language.modelId : spec;
    }
    const response = await language.generate(
      {
        model: id,
        contents: [{ speaker: 'human', blocks: [{ type: 'text', text: prompt }] }],
        settings: {
          ...(typeof system === 'string' && system !== '' ? { systemInstruction: system } : {}),
          maxOutputTokens:
            typeof maxTokens === 'number' && maxTokens > 0 ? maxTokens : COMPLETE_MAX_TOKENS,
        },
      },
      { signal },
    );
    const text = response.content.blocks
      .map((block) => (block.type === 'text' ? block.text : ''))
      .join('');
    if (text === '') throw new Error('$.model.complete: the reply has no text');
    return text;
  };

  return async (mod, noun, method, args, scope: DispatchScope, signal?: AbortSignal) => {
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
      case 'clock.sleep':
        await hostWait(Number(args[0] ?? 0), signalOf(scope, signal), '$.clock.sleep');
        return undefined;
      case 'clock.after':
        // One wait of a timer: the worker runs the mod's function when it resolves.
        await hostWait(Number(args[0] ?? 0), signalOf(scope, signal), '$.clock.after');
        return undefined;
      case 'clock.every':
        // One period of an interval (at least 1 ms): the worker asks for the next after it.
        await hostWait(Math.max(1, Number(args[0] ?? 1)), signalOf(scope, signal), '$.clock.every');
        return undefined;
      case 'session.model': {
        if (options.promptModel === undefined)
          throw new Error('$.session.model: this host gives mods no model');
        return (await options.promptModel()).modelId;
      }
      case 'session.messages':
        return (await transcriptMessages(scope.context.session.transcriptPath)).map(sessionMessage);
      case 'session.turns':
        return (await transcriptMessages(scope.context.session.transcriptPath)).filter(
          (message) =>
            message.speaker === 'human' && message.blocks.some((block) => block.type === 'text'),
        ).length;
      case 'model.complete':
        return complete(args[0], signalOf(scope, signal));
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
          signal: signalOf(scope, signal),
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
        const response = await fetch(url, { ...init, signal: signalOf(scope, signal) });
        const body = await response.text();
        return {
          status: response.status,
          ok: response.ok,
          headers: Object.fromEntries(response.headers.entries()),
          text: body.length > FILE_LIMIT_BYTES ? body.slice(0, FILE_LIMIT_BYTES) : body,
        };
      }
      case 'state.get': {
        const entry = state.get(stateKey(args[0], '$.state.get(ref)').key);
        return { value: entry?.value, version: entry?.version ?? 0 };
      }
      case 'state.set': {
        const { key, plugin } = stateKey(args[0], '$.state.set(ref, value)');
        if (plugin !== mod.name)
          throw new Error(
            `$.state.set: ${plugin}'s values are its own (${mod.name} may hook its state.set instead)`,
          );
        if (args[1] === undefined) throw new Error('$.state.set: the value is never undefined');
        const value: unknown = JSON.parse(jsonText(args[1]));
        const current = state.get(key)?.version ?? 0;
        const options = isRecord(args[2]) ? args[2] : {};
        if (typeof options.ifVersion === 'number' && options.ifVersion !== current)
          return { isSet: false, version: current };
        state.set(key, { value, version: current + 1 });
        return { isSet: true, version: current + 1 };
      }
      case 'command.register': {
        const spec = isRecord(args[0]) ? args[0] : {};
        const command = spec.name;
        if (typeof command !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(command))
          throw new Error(
            '$.command.register(command): name is 1 to 64 letters, digits, _ or - (no slash)',
          );
        commands.set(command, {
          name: command,
          description: typeof spec.description === 'string' ? spec.description : '',
          source: 'plugin',
          plugin: mod.name,
        });
        return { command };
      }
      case 'command.list':
        return [...commands.values()];
      case 'command.run': {
        // The core of `command.run` (ModsChain raised the event): no hook answered it.
        const input = isRecord(args[0]) ? args[0] : {};
        const command = typeof input.command === 'string' ? input.command : '';
        if (!commands.has(command))
          throw new Error(
            `$.command.run: no command /${command} (hookwire has no built-in commands; a mod registers one with $.command.register)`,
          );
        return { text: `/${command}: no hook answered the command` };
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
