/**
 * The worker thread one Claude Code mod runs in (started by `mod-host.ts`, one per plugin).
 *
 * It imports the plugin's modules (`.ts` with erasable syntax stripped by Node, `.js`, `.mjs`),
 * calls their `register(on, options)`, and then runs hooks when the main thread asks: each run
 * gets `$` (every method a request to the main thread, which serves it and times it) and `next`
 * (a request to run the rest of the chain). Only plain data crosses: `e`, results and `$`
 * arguments are structured-cloned.
 *
 * The module gets the environment Claude Code gives a mod: web APIs, no Node. Before any plugin
 * code loads, the globals a mod does not have (timers, `process`, `Buffer`, `fetch`) are removed,
 * `console` writes to the run's reports, and a resolve hook refuses every import but a relative
 * one inside the plugin and `claude-code` (served by a small shim). Nothing here may use a timer:
 * the main thread owns every clock and budget.
 */
import { registerHooks } from 'node:module';
import { isAbsolute, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';
import { isRelativeSpecifier, resolveModImport } from './resolve-import.ts';
import type {
  HostMessage,
  ModWorkerData,
  RegistrationInfo,
  WorkerMessage,
} from './mod-protocol.ts';

const port = parentPort;
if (port === null) throw new Error('mod-worker.ts runs only as a worker thread');
const data = workerData as ModWorkerData;
const post = (message: WorkerMessage): void => {
  port.postMessage(message);
};

// What `import … from 'claude-code'` gets at run time: the declarations' one runtime constant,
// and the `$.state` helpers (`atom`, `read`, `update`, `derive`, `memberOf`), which run here in
// the mod's environment over `$.state.get` / `$.state.set`, as in Claude Code: a function does
// not cross to the host, so `update`'s read-change-write loop is the plugin's own.
const SHIM_URL = 'hookwire-mods:claude-code';
const SHIM_SOURCE = `
export const TIERS = Object.freeze(['prepend', 'user', 'append', 'builtin', 'core']);
const isAtom = (target) => typeof target === 'object' && target !== null && 'ref' in target && 'initial' in target;
const isDerived = (target) => typeof target === 'object' && target !== null && Array.isArray(target.sources) && typeof target.compute === 'function';
export const atom = (ref, initial, options) => Object.freeze({ ref: Object.freeze({ ...ref }), initial, ...(options?.shape === undefined ? {} : { shape: options.shape }) });
export const memberOf = (target, id) => isAtom(target) ? Object.freeze({ ...target, ref: Object.freeze({ ...target.ref, id }) }) : Object.freeze({ ...target, id });
export const derive = (sources, compute) => Object.freeze({ sources: Object.freeze([...sources]), compute });
export async function read($, target) {
  if (isDerived(target)) return target.compute(...(await Promise.all(target.sources.map((source) => read($, source)))));
  if (isAtom(target)) { const { value } = await $.state.get(target.ref); return value === undefined ? target.initial : value; }
  return (await $.state.get(target)).value;
}
export async function update($, target, change) {
  const ref = isAtom(target) ? target.ref : target;
  for (let attempt = 0; attempt < 100; attempt++) {
    const { value, version } = await $.state.get(ref);
    const next = change(isAtom(target) && value === undefined ? target.initial : value);
    if ((await $.state.set(ref, next, { ifVersion: version })).isSet) return next;
  }
  throw new Error('update: the value kept moving under 100 attempts');
}
`;

const inside = (root: string, path: string): boolean => {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
};

/** True once the plugin's own modules load: the resolve hook polices their imports only. */
let loading = false;

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier === 'claude-code') return { url: SHIM_URL, shortCircuit: true };
    const parent = context.parentURL;
    // The worker's own imports (before the plugin loads) resolve as usual.
    if (parent === undefined || !parent.startsWith('file:') || !loading)
      return nextResolve(specifier, context);
    const parentPath = fileURLToPath(parent);
    if (!inside(data.root, parentPath)) return nextResolve(specifier, context);
    if (!isRelativeSpecifier(specifier))
      throw new Error(
        `${relative(data.root, parentPath)} imports "${specifier}": a mod imports only its own plugin's files and types from 'claude-code' (no Node, no packages)`,
      );
    // Claude Code's resolution (resolve-import.ts): `./rules` finds `rules.ts`, `rules/index.ts`…
    const file = resolveModImport(parentPath, specifier);
    if (file === undefined)
      throw new Error(
        `cannot import "${specifier}" (from ${relative(data.root, parentPath)}): no such file under ${data.root}`,
      );
    if (!inside(data.root, file))
      throw new Error(
        `${relative(data.root, parentPath)} imports "${specifier}", which is outside the plugin`,
      );
    return { url: pathToFileURL(file).href, shortCircuit: true };
  },
  load(url, context, nextLoad) {
    if (url === SHIM_URL) return { format: 'module', source: SHIM_SOURCE, shortCircuit: true };
    if (url.startsWith('file:') && inside(data.root, fileURLToPath(url))) {
      // An ES module whatever its suffix or the nearest package.json says, as in Claude Code.
      const typescript = /\.[mc]?ts$/.test(url);
      return nextLoad(url, { ...context, format: typescript ? 'module-typescript' : 'module' });
    }
    return nextLoad(url, context);
  },
});

// The environment of a mod: no timers, no Node, no network but `$.http`.
const consoleText = (values: readonly unknown[]): string =>
  values.map((value) => (typeof value === 'string' ? value : safeString(value))).join(' ');
const globals = globalThis as Record<string, unknown>;
for (const name of [
  'setTimeout',
  'setInterval',
  'setImmediate',
  'clearTimeout',
  'clearInterval',
  'clearImmediate',
  'process',
  'Buffer',
  'global',
  'fetch',
  'WebSocket',
  'EventSource',
])
  Reflect.deleteProperty(globals, name);
globals.console = Object.freeze(
  Object.fromEntries(
    ['log', 'info', 'warn', 'error', 'debug'].map((level) => [
      level,
      (...values: unknown[]) => {
        post({ type: 'console', text: consoleText(values) });
      },
    ]),
  ),
);

type Handler = ($: unknown, e: unknown, next: unknown) => unknown;
interface Registration {
  readonly info: RegistrationInfo;
  readonly handler: Handler;
  catchHandler: Handler | undefined;
}
const registrations: Registration[] = [];
let registering = true;

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}
const pending = new Map<number, Pending>();
let nextCall = 1;

function request(message: WorkerMessage & { readonly call: number }): Promise<unknown> {
  return new Promise((resolve, reject) => {
    pending.set(message.call, { resolve, reject });
    post(message);
  });
}

function safeString(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    const json: unknown = JSON.stringify(value);
    return typeof json === 'string' ? json : typeof value;
  } catch {
    return 'a value that cannot be shown';
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

function on(pattern: unknown, ...rest: unknown[]): { catch(handler: Handler): void } {
  if (!registering) throw new Error('on() after register() returned');
  if (typeof pattern !== 'string' || pattern === '')
    throw new Error('on(pattern, …): the pattern must be an event name string');
  const handler = rest.length >= 2 ? rest[1] : rest[0];
  const matcher = rest.length >= 2 ? rest[0] : undefined;
  if (typeof handler !== 'function')
    throw new Error(`on("${pattern}", …): the last argument must be the hook function`);
  if (
    matcher === undefined &&
    registrations.some((r) => r.info.pattern === pattern && r.info.matcher === undefined)
  )
    throw new Error(`on("${pattern}") is registered twice without a matcher`);
  const registration: Registration = {
    info: {
      index: registrations.length,
      pattern,
      ...(matcher === undefined ? {} : { matcher }),
      hasCatch: false,
    },
    handler: handler as Handler,
    catchHandler: undefined,
  };
  registrations.push(registration);
  return {
    catch(catchHandler: Handler) {
      if (!registering) throw new Error('.catch() after register() returned');
      if (registration.catchHandler !== undefined)
        throw new Error(`on("${pattern}"): a registration takes one .catch`);
      if (typeof catchHandler !== 'function') throw new Error('.catch takes a function');
      registration.catchHandler = catchHandler;
    },
  };
}

/** The `$` of one hook run: `$.plugin` is data, every other `$.noun.method(…)` a request. */
function engineFor(frame: number): unknown {
  const nouns = new Map<string, unknown>();
  return new Proxy(Object.freeze({ plugin: Object.freeze({ name: data.name, root: data.root }) }), {
    get(target, noun) {
      if (typeof noun !== 'string') return undefined;
      if (noun === 'plugin') return target.plugin;
      if (noun === 'then') return undefined;
      let methods = nouns.get(noun);
      if (methods === undefined) {
        methods = new Proxy(
          {},
          {
            get(_target, method) {
              if (typeof method !== 'string' || method === 'then') return undefined;
              if (noun === 'clock' && (method === 'after' || method === 'every'))
                return (ms: unknown, fn: unknown) => timer(frame, method, ms, fn);
              return (...args: unknown[]) =>
                request({ type: 'cap', frame, call: nextCall++, noun, method, args });
            },
          },
        );
        nouns.set(noun, methods);
      }
      return methods;
    },
  });
}

/**
 * `$.clock.after(ms, fn)` / `$.clock.every(ms, fn)`: a Timer at once. Each wait is one `$` call
 * the host serves (a mod has no timers of its own), so each is a `clock.after` / `clock.every`
 * event other mods see; `fn` stays here and runs when the wait resolves, never after `cancel()`,
 * a refused wait (which also ends an interval), or the end of the hook's run.
 */
function timer(
  frame: number,
  method: 'after' | 'every',
  ms: unknown,
  fn: unknown,
): { cancel(): void } {
  if (typeof fn !== 'function') throw new Error(`$.clock.${method}(ms, fn): fn must be a function`);
  const state = { cancelled: false };
  const cancelled = (): boolean => state.cancelled;
  let waiting: number | undefined;
  const wait = (): void => {
    const call = nextCall++;
    waiting = call;
    request({ type: 'cap', frame, call, noun: 'clock', method, args: [ms] }).then(
      () => {
        waiting = undefined;
        if (cancelled()) return;
        try {
          void Promise.resolve((fn as () => unknown)()).catch(() => undefined);
        } catch {
          // A timer's function that throws is the mod's own business, as in Claude Code.
        }
        // The function may have cancelled its own interval.
        if (method === 'every' && !cancelled()) wait();
      },
      () => {
        waiting = undefined;
      },
    );
  };
  wait();
  return Object.freeze({
    cancel() {
      if (state.cancelled) return;
      state.cancelled = true;
      if (waiting !== undefined) post({ type: 'cancel', call: waiting });
    },
  });
}

function nextFor(
  frame: number,
  event: string,
  origin: unknown,
  budgetMs: number,
  failure?: { readonly kind: string; readonly called: boolean },
): unknown {
  const controller = new AbortController();
  const next = (e: unknown): Promise<unknown> =>
    request({ type: 'next', frame, call: nextCall++, e });
  return Object.assign(next, {
    to: (e: unknown, tier: unknown): Promise<unknown> =>
      request({ type: 'next', frame, call: nextCall++, e, to: String(tier) }),
    event,
    origin: deepFreeze(origin),
    signal: controller.signal,
    budget: Object.freeze({ ms: budgetMs, remainingMs: budgetMs }),
    trace: Object.freeze([]),
    is: (pattern: unknown) => typeof pattern === 'string' && matchesPattern(pattern, event),
    ...(failure === undefined
      ? {}
      : { error: Object.freeze({ kind: failure.kind }), called: failure.called }),
  });
}

function matchesPattern(pattern: string, event: string): boolean {
  if (pattern.startsWith('!')) return !matchesPattern(pattern.slice(1), event);
  if (pattern === '*') return !event.startsWith('telemetry.');
  if (pattern.endsWith('.*')) return event.startsWith(pattern.slice(0, -1));
  return pattern === event;
}

async function load(): Promise<void> {
  loading = true;
  const options = deepFreeze(data.options);
  for (const file of data.modules) {
    const module = (await import(pathToFileURL(file).href)) as { register?: unknown };
    if (typeof module.register !== 'function')
      throw new Error(
        `${relative(data.root, file)} exports no register(on, options) function (export const register = …)`,
      );
    await (module.register as (on: unknown, options: unknown) => unknown)(on, options);
  }
  registering = false;
}

async function runHook(message: Extract<HostMessage, { type: 'run' }>): Promise<void> {
  const registration = registrations[message.index];
  try {
    if (registration === undefined) throw new Error(`no registration ${String(message.index)}`);
    const handler =
      message.failure === undefined ? registration.handler : registration.catchHandler;
    if (handler === undefined) throw new Error('no .catch handler');
    const value = await handler(
      engineFor(message.frame),
      deepFreeze(message.e),
      nextFor(message.frame, message.event, message.origin, message.budgetMs, message.failure),
    );
    post({ type: 'done', frame: message.frame, value });
  } catch (error) {
    post({
      type: 'failed',
      frame: message.frame,
      message: error instanceof Error ? error.message : safeString(error),
    });
  }
}

port.on('message', (message: HostMessage) => {
  if (message.type === 'run') {
    void runHook(message);
    return;
  }
  if (message.type === 'reply') {
    const waiting = pending.get(message.call);
    if (waiting === undefined) return;
    pending.delete(message.call);
    if (message.ok) waiting.resolve(message.value);
    else waiting.reject(new Error(message.message));
    return;
  }
  // A liveness probe: a worker stuck in a synchronous loop never answers it.
  post({ type: 'pong', probe: message.probe });
});

load().then(
  () => {
    postLoaded();
  },
  (error: unknown) => {
    post({
      type: 'load-failed',
      message: error instanceof Error ? error.message : safeString(error),
    });
  },
);

function postLoaded(): void {
  try {
    post({
      type: 'loaded',
      registrations: registrations.map((registration) => ({
        ...registration.info,
        hasCatch: registration.catchHandler !== undefined,
      })),
    });
  } catch (error) {
    post({
      type: 'load-failed',
      message: `a matcher is not plain data (a value, an array, a RegExp or an object of them): ${error instanceof Error ? error.message : safeString(error)}`,
    });
  }
}
