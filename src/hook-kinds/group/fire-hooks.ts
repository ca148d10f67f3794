/**
 * `hookwire hooks fire`: runs the hooks configured for one event against a given payload exactly
 * as the loop would — the payload becomes the in-process event, which is dispatched through a
 * `HookStack` of the adapted groups — and reports the combined outcome as one JSON object.
 */
import { randomUUID } from '../../content/random-id.ts';
import { HookwireError } from '../../content/index.ts';
import {
  HOOK_EVENT_NAMES,
  canonicalEventName,
  externalDefinition,
  hookInputSchemas,
  type Awaitable,
  type CombinedOutcome as Combined,
  type HookContext,
  type HookEventName,
} from '../../events/index.ts';
import { createHookContext } from '../../hooks/hook-context.ts';
import { HookStack } from '../../hooks/stack/hook-stack.ts';
import type { CombinedOutcome } from './combine-outcomes.ts';
import { commandHookForGroup } from './external-hook.ts';
import type { HookRunRecord } from '../hook-run.ts';
import type { HookProcessOptions } from './run-hook-group.ts';
import type { CommandRunner } from '../../supervision/index.ts';
import type { HookKindStates } from '../hook-kind.ts';
import { hookGroupsFor, type EffectiveSettings } from '../settings/index.ts';

/** One hook run in the output of `hookwire hooks fire`. */
export type FireHookEntry = Omit<HookRunRecord, 'event' | 'detail'> & {
  /** The same as `target` (the field `hooks fire` has always printed). */
  readonly command: string;
};

/** What `hookwire hooks fire` prints. */
export interface FireResult {
  /** The event as given (canonical name or alias). */
  readonly event: string;
  readonly decision: 'allow' | 'deny';
  readonly reason: string | null;
  readonly continue: boolean;
  readonly stopReason: string | null;
  readonly systemMessage: string | null;
  readonly additionalContext: string | null;
  readonly suppressOutput: boolean;
  /** What the combined outcome changes, in the event's own output fields. */
  readonly hookSpecificOutput: Readonly<Record<string, unknown>>;
  /** One entry per hook run, in configuration order. */
  readonly hooks: readonly FireHookEntry[];
  /** Warnings (non-blocking failures, ignored flow control), in configuration order. */
  readonly warnings: readonly string[];
}

export interface FireCommandHooksOptions {
  readonly runner: CommandRunner;
  /** The project directory hooks run in, and the payload's default `cwd`. */
  readonly projectDir: string;
  readonly signal?: AbortSignal;
  /** The session's resources of the kinds that keep some (see `HookKindStates`). */
  readonly kinds?: HookKindStates;
  /** How hooks with `"environment": "scrubbed"` or `"sandbox": true` are confined. */
  readonly confinement?: HookProcessOptions;
}

function inputError(message: string): HookwireError {
  return new HookwireError('hook_input_invalid', message);
}

function joined(parts: readonly string[]): string | null {
  return parts.length === 0 ? null : parts.join('\n');
}

/**
 * Runs the hooks that match `eventName` for `payload` (base fields it lacks are filled in:
 * a fresh `session_id`, an empty `transcript_path`, `cwd` = the project directory, `timestamp`
 * = now, and for a tool event (a payload with `tool_name`) a fresh `tool_call_id`). Throws `HookwireError` (`hook_input_invalid`) for an unknown event or a payload that
 * does not match the event's input schema.
 */
export async function fireCommandHooks(
  settings: EffectiveSettings,
  eventName: string,
  payload: Readonly<Record<string, unknown>>,
  options: FireCommandHooksOptions,
): Promise<FireResult> {
  const event = canonicalEventName(eventName);
  if (event === undefined)
    throw inputError(
      `unknown event "${eventName}": use one of ${HOOK_EVENT_NAMES.join(', ')} (or an alias: BeforeAgent, BeforeTool, AfterTool, AfterAgent, PreCompress)`,
    );
  const complete = {
    session_id: `fire-${randomUUID()}`,
    transcript_path: '',
    cwd: options.projectDir,
    timestamp: new Date().toISOString(),
    // A tool event's call id is the loop's own bookkeeping: a payload written by hand (as the
    // CLI's own example, {"tool_name": "shell", "tool_input": {...}}) need not invent one.
    ...(typeof payload['tool_name'] === 'string'
      ? { tool_call_id: `fire-call-${randomUUID()}` }
      : {}),
    ...payload,
    hook_event_name: eventName,
  };
  const checked = hookInputSchemas[event].safeParse(complete);
  if (!checked.success) {
    const problems = checked.error.issues
      .map(
        (issue) =>
          `${issue.path.length === 0 ? '$' : `$.${issue.path.join('.')}`}: ${issue.message}`,
      )
      .join('; ');
    throw inputError(`the ${eventName} payload is invalid: ${problems}`);
  }

  const records: HookRunRecord[] = [];
  // The stack runs the groups one after another in configuration order (stopping at the first
  // deny or stop), so what the callbacks collect is already in configuration order.
  const outcomes: CombinedOutcome[] = [];
  const hooks = hookGroupsFor(settings, event).map((group) =>
    commandHookForGroup(group, {
      runner: options.runner,
      projectDir: options.projectDir,
      ...(options.kinds === undefined ? {} : { kinds: options.kinds }),
      ...(options.confinement === undefined ? {} : { confinement: options.confinement }),
      onGroupRun: (_group, run) => {
        outcomes.push(run.combined);
        records.push(...run.outcomes.map((outcome) => outcome.record));
      },
    }),
  );
  const stack = new HookStack(hooks, { name: `${eventName} command hooks` });
  const context = createHookContext({
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    session: {
      sessionId: complete.session_id,
      transcriptPath: complete.transcript_path,
      cwd: complete.cwd,
    },
  });
  const specific = await dispatch(stack, context, event, complete, outcomes);
  const denyReasons = outcomes.flatMap((outcome) => outcome.denyReasons);
  const stopReasons = outcomes.flatMap((outcome) => outcome.stopReasons);
  return {
    event: eventName,
    decision: denyReasons.length > 0 ? 'deny' : 'allow',
    reason: joined(denyReasons),
    continue: !outcomes.some((outcome) => outcome.stopped),
    stopReason: joined(stopReasons),
    systemMessage: joined(outcomes.flatMap((outcome) => outcome.systemMessages)),
    additionalContext: joined(outcomes.flatMap((outcome) => outcome.additionalContexts)),
    suppressOutput: outcomes.some((outcome) => outcome.suppressOutput),
    hookSpecificOutput: specific,
    // The fields in the order the issue lists them.
    hooks: records.map((record) => ({
      name: record.name,
      // `command` as `hooks fire` has always printed it (scripts read it); `kind` and `target`
      // say what it is for any kind.
      command: record.target,
      kind: record.kind,
      target: record.target,
      exitCode: record.exitCode,
      signal: record.signal,
      durationMs: record.durationMs,
      status: record.status,
      stdoutTruncated: record.stdoutTruncated,
      stderrTruncated: record.stderrTruncated,
    })),
    warnings: outcomes.flatMap((outcome) => outcome.warnings),
  };
}

/**
 * Dispatches the payload as its in-process event (`external.fromPayload`) and returns what the
 * stack's action changes, in the event's output fields (`external.describeAction`).
 */
async function dispatch(
  stack: HookStack,
  context: HookContext,
  event: HookEventName,
  payload: Readonly<Record<string, unknown>>,
  outcomes: readonly Combined[],
): Promise<Record<string, unknown>> {
  const definition = externalDefinition(event);
  // One event's view, widened: the event is only known at run time.
  const external = definition.external as {
    fromPayload(payload: unknown): unknown;
    describeAction(action: unknown, outcomes: readonly Combined[]): Record<string, unknown>;
  };
  const handlers = stack as unknown as Readonly<
    Record<string, (context: HookContext, event: unknown) => Awaitable<unknown>>
  >;
  const action = await handlers[definition.method]?.(context, external.fromPayload(payload));
  return external.describeAction(action, outcomes);
}
