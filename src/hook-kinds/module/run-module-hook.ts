/**
 * Runs one module hook for one payload (see `module-kind.ts`): loads the file by its content
 * hash, turns the payload into the event's in-process event, calls the hook's method for it under
 * the hook's deadline, and turns the action it answers into hookwire's JSON answer.
 */
import { sha256 } from '../../wire/sha256.ts';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { externalDefinition, isPromiseLike, type HookEventName } from '../../events/index.ts';
import type { AgentHook } from '../../hooks/agent-hook.ts';
import { createHookContext } from '../../hooks/hook-context.ts';
import { formatDuration } from '../duration.ts';
import type { SessionInfo } from '../../events/context.ts';
import type { NamedFileState } from '../settings/named-files.ts';
import {
  failureAnswer,
  type HookAnswer,
  type HookExecution,
  type HookRunRequest,
} from '../hook-kind.ts';
import type { ModuleHookConfig } from './module-kind.ts';

/**
 * Loaded modules by absolute path: the content hash, the import (one per version) and, once it
 * settled, the hook it gave (called without an await on every later run).
 */
const loaded = new Map<string, LoadedModule>();

interface LoadedModule {
  readonly hash: string;
  readonly hook: Promise<AgentHook>;
  value?: AgentHook;
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  try {
    // `JSON.stringify` gives undefined for undefined, functions and symbols.
    const text = JSON.stringify(value) as string | undefined;
    return typeof text === 'string' ? text : typeof value;
  } catch {
    return typeof value;
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The `AgentHook` the file exports by default, in the version whose content hashes to `hash`. */
function load(file: string, hash: string): LoadedModule {
  const known = loaded.get(file);
  if (known?.hash === hash) return known;
  const hook = (async () => {
    const module: unknown = await import(`${pathToFileURL(file).href}?sha256=${hash}`);
    const value = isRecord(module) ? module['default'] : undefined;
    if (!isRecord(value))
      throw new TypeError(
        `its default export is ${value === undefined ? 'missing' : typeof value}, not an AgentHook object (export default { onToolCall(context, call) { … } })`,
      );
    // An object whose methods are checked where they are called.
    return value as AgentHook;
  })();
  const entry: LoadedModule = { hash, hook };
  // A failed import is not kept: the next run (perhaps of a fixed file) tries again.
  hook.then(
    (value) => {
      entry.value = value;
    },
    () => {
      if (loaded.get(file) === entry) loaded.delete(file);
    },
  );
  loaded.set(file, entry);
  return entry;
}

/**
 * The hash of the module's content, from `state` (`sha256:HEX`) when a check of the file vouches
 * for it (the trust check's `stat` before this run, `namedFileStateNow`), else read and hashed.
 */
function contentHash(file: string, state: NamedFileState | undefined): string {
  if (state?.startsWith('sha256:') === true) return state.slice('sha256:'.length);
  // A module is a small file (its hash is its version): read at once, without a thread-pool
  // round trip.
  return sha256().update(readFileSync(file)).digest('hex');
}

/** The `HookAnswer` for the action a module answered at `event` (hookwire's v2 output). */
export function answerOfAction(event: HookEventName, action: unknown): HookAnswer {
  if (action === undefined) return { kind: 'json', value: null };
  const kind = isRecord(action) ? action['kind'] : undefined;
  const definition = externalDefinition(event);
  if (typeof kind !== 'string' || !(definition.actionKinds as readonly string[]).includes(kind))
    return failureAnswer(
      'warning',
      `answered ${describe(action)}, which is not an action of ${event} (one of ${definition.actionKinds.join(', ')})`,
    );
  const fields = action as Readonly<Record<string, unknown>>;
  const specific = (value: Record<string, unknown>): HookAnswer => ({
    kind: 'json',
    value: { hookSpecificOutput: { hookEventName: event, ...value } },
  });
  const context =
    typeof fields['additionalContext'] === 'string'
      ? { additionalContext: fields['additionalContext'] }
      : undefined;
  switch (kind) {
    case 'stop':
      return { kind: 'json', value: { continue: false, stopReason: fields['reason'] } };
    case 'skip':
      return specific({
        permissionDecision: 'deny',
        permissionDecisionReason: fields['reason'],
      });
    case 'deny':
      return event === 'PermissionRequest'
        ? specific({ decision: { behavior: 'deny', message: fields['message'] } })
        : { kind: 'json', value: { decision: 'deny', reason: fields['reason'] } };
    case 'allow':
      return specific({
        decision:
          fields['updatedInput'] === undefined
            ? { behavior: 'allow' }
            : { behavior: 'allow', updatedInput: fields['updatedInput'] },
      });
    case 'block':
      return { kind: 'json', value: { decision: 'block', reason: fields['reason'] } };
    case 'rewrite':
      return event === 'PreToolUse'
        ? specific({ updatedInput: fields['args'] })
        : specific({ updatedToolOutput: fields['presentation'], ...context });
    case 'run':
    case 'keep':
    case 'continue':
      return context === undefined ? { kind: 'json', value: null } : specific(context);
    default:
      return failureAnswer(
        'warning',
        `answered "${kind}", which a module hook cannot give at ${event}`,
      );
  }
}

/** The session a module's context names, from the payload's base fields. */
function sessionOf(fields: Readonly<Record<string, unknown>>, projectDir: string): SessionInfo {
  return {
    sessionId: typeof fields['session_id'] === 'string' ? fields['session_id'] : '',
    transcriptPath: typeof fields['transcript_path'] === 'string' ? fields['transcript_path'] : '',
    cwd: typeof fields['cwd'] === 'string' ? fields['cwd'] : projectDir,
  };
}

/** The payload as an object: as the group runner handed it over, else decoded from its JSON. */
function payloadOf(request: HookRunRequest): Readonly<Record<string, unknown>> {
  if (request.payload !== undefined) return request.payload;
  const payload: unknown = JSON.parse(request.input);
  return isRecord(payload) ? payload : {};
}

/**
 * Runs `hook` once for `request`; never rejects, never outlives the hook's deadline. `state` is
 * the module file's state (`sha256:HEX`) when a check made just before this run vouches for it
 * (the trust check's): the file is then neither read nor hashed again. A module already loaded
 * whose method answers at once runs without a promise, a timer or a JSON round trip: it gets the
 * payload as the group runner built it (`request.payload`), and its action is interpreted as it
 * is; one that answers with a promise runs under the deadline.
 */
export function runModuleHook(
  hook: ModuleHookConfig,
  request: HookRunRequest,
  state?: NamedFileState,
): HookExecution | Promise<HookExecution> {
  const started = performance.now();
  const done = (answer: HookAnswer): HookExecution => ({
    answer,
    durationMs: performance.now() - started,
  });
  const file = resolve(request.projectDir, hook.modulePath);
  let hash: string;
  try {
    hash = contentHash(file, state);
  } catch (error) {
    return done(failureAnswer('error', `could not read ${file}: ${errorText(error)}`));
  }
  const module = load(file, hash);
  const controller = new AbortController();
  const loaded = module.value;
  const answered =
    loaded === undefined
      ? module.hook.then((agentHook) => invoke(agentHook, request, controller.signal))
      : invoke(loaded, request, controller.signal);
  if (!isPromiseLike(answered)) return done(answered);
  return runUnderDeadline(hook, request, done, answered, controller);
}

/**
 * Calls the hook's method for the event with a context whose signal is `signal`: the answer at
 * once when the method answers at once (a throw is a failed hook), else a promise of it.
 */
function invoke(
  agentHook: AgentHook,
  request: HookRunRequest,
  signal: AbortSignal,
): HookAnswer | Promise<HookAnswer> {
  const definition = externalDefinition(request.event);
  const method = (agentHook as Readonly<Record<string, unknown>>)[definition.method];
  if (method === undefined) return { kind: 'json', value: null };
  if (typeof method !== 'function')
    return failureAnswer('warning', `its ${definition.method} is not a function`);
  const fields = payloadOf(request);
  const external = definition.external as { fromPayload(payload: unknown): unknown };
  let action: unknown;
  try {
    action = (method as (this: AgentHook, context: unknown, event: unknown) => unknown).call(
      agentHook,
      createHookContext({ signal, session: sessionOf(fields, request.projectDir) }),
      external.fromPayload(fields),
    );
  } catch (error) {
    return failureAnswer('error', `threw: ${errorText(error)}`);
  }
  return isPromiseLike(action)
    ? Promise.resolve(action).then((settled) => answerOfAction(request.event, settled))
    : answerOfAction(request.event, action);
}

/**
 * The rest of a run that did not answer at once (`pending`: the module's import, then its method,
 * or a method that answered with a promise; `controller` aborts its context's signal): raced
 * against the deadline and the run's cancellation, which also abort the hook's signal.
 */
async function runUnderDeadline(
  hook: ModuleHookConfig,
  request: HookRunRequest,
  done: (answer: HookAnswer) => HookExecution,
  pending: Promise<HookAnswer>,
  controller: AbortController,
): Promise<HookExecution> {
  const onAbort = (): void => {
    controller.abort(request.signal?.reason);
  };
  request.signal?.addEventListener('abort', onAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<HookAnswer>((settle) => {
    timer = setTimeout(() => {
      controller.abort(new Error('deadline'));
      settle(failureAnswer('timeout', `timed out after ${formatDuration(hook.timeoutMs)}`));
    }, hook.timeoutMs);
    request.signal?.addEventListener(
      'abort',
      () => {
        settle(failureAnswer('error', 'was cancelled'));
      },
      { once: true },
    );
  });
  if (request.signal?.aborted === true) controller.abort(request.signal.reason);
  const answered = pending.catch((error: unknown) =>
    failureAnswer('error', `threw: ${errorText(error)}`),
  );
  try {
    return done(await Promise.race([answered, deadline]));
  } finally {
    clearTimeout(timer);
    request.signal?.removeEventListener('abort', onAbort);
  }
}
