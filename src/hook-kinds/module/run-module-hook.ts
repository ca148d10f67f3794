/**
 * Runs one module hook for one payload (see `module-kind.ts`): loads the file by its content
 * hash, turns the payload into the event's in-process event, calls the hook's method for it under
 * the hook's deadline, and turns the action it answers into hookwire's JSON answer.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { externalDefinition, type HookEventName } from '../../events/index.ts';
import type { AgentHook } from '../../hooks/agent-hook.ts';
import { createHookContext } from '../../hooks/hook-context.ts';
import { formatDuration } from '../duration.ts';
import {
  failureAnswer,
  type HookAnswer,
  type HookExecution,
  type HookRunRequest,
} from '../hook-kind.ts';
import type { ModuleHookConfig } from './module-kind.ts';

/** Loaded modules by absolute path: the content hash and the import (one per version). */
const loaded = new Map<string, { readonly hash: string; readonly hook: Promise<AgentHook> }>();

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

/** The `AgentHook` the file exports by default, in the version whose content is `bytes`. */
function load(file: string, bytes: Buffer): Promise<AgentHook> {
  const hash = createHash('sha256').update(bytes).digest('hex');
  const known = loaded.get(file);
  if (known?.hash === hash) return known.hook;
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
  // A failed import is not kept: the next run (perhaps of a fixed file) tries again.
  hook.catch(() => {
    if (loaded.get(file)?.hook === hook) loaded.delete(file);
  });
  loaded.set(file, { hash, hook });
  return hook;
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

/** Runs `hook` once for `request`; never rejects, never outlives the hook's deadline. */
export async function runModuleHook(
  hook: ModuleHookConfig,
  request: HookRunRequest,
): Promise<HookExecution> {
  const started = performance.now();
  const done = (answer: HookAnswer): HookExecution => ({
    answer,
    durationMs: performance.now() - started,
  });
  const file = resolve(request.projectDir, hook.modulePath);
  let bytes: Buffer;
  try {
    // A module is a small file read on every run (its hash is its version): read at once, without
    // a thread-pool round trip per event.
    bytes = readFileSync(file);
  } catch (error) {
    return done(failureAnswer('error', `could not read ${file}: ${errorText(error)}`));
  }
  const controller = new AbortController();
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
  const answered = (async (): Promise<HookAnswer> => {
    const agentHook = await load(file, bytes);
    const definition = externalDefinition(request.event);
    const method = (agentHook as Readonly<Record<string, unknown>>)[definition.method];
    if (method === undefined) return { kind: 'json', value: null };
    if (typeof method !== 'function')
      return failureAnswer('warning', `its ${definition.method} is not a function`);
    const payload: unknown = JSON.parse(request.input);
    const fields = isRecord(payload) ? payload : {};
    const external = definition.external as { fromPayload(payload: unknown): unknown };
    const context = createHookContext({
      signal: controller.signal,
      session: {
        sessionId: typeof fields['session_id'] === 'string' ? fields['session_id'] : '',
        transcriptPath:
          typeof fields['transcript_path'] === 'string' ? fields['transcript_path'] : '',
        cwd: typeof fields['cwd'] === 'string' ? fields['cwd'] : request.projectDir,
      },
    });
    const action: unknown = await (
      method as (this: AgentHook, context: unknown, event: unknown) => unknown
    ).call(agentHook, context, external.fromPayload(fields));
    return answerOfAction(request.event, action);
  })().catch((error: unknown) => failureAnswer('error', `threw: ${errorText(error)}`));
  try {
    return done(await Promise.race([answered, deadline]));
  } finally {
    clearTimeout(timer);
    request.signal?.removeEventListener('abort', onAbort);
  }
}
