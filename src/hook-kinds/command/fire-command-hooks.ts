/**
 * `hookwire hooks fire`: runs the hooks configured for one event against a given payload exactly
 * as the loop would — the payload becomes the in-process event, which is dispatched through a
 * `HookStack` of the adapted groups — and reports the combined outcome as one JSON object.
 */
import { randomUUID } from 'node:crypto';
import type { Message, ModelRequest, ModelResponse, ToolDeclaration } from '../../content/index.ts';
import { HookwireError } from '../../content/index.ts';
import {
  HOOK_EVENT_NAMES,
  canonicalEventName,
  hookInputSchemas,
  mergeLLMRequestOverrides,
  type HookEventName,
} from '../../wire/index.ts';
import { createHookContext } from '../../hooks/hook-context.ts';
import { HookStack } from '../../hooks/hook-stack.ts';
import type { CombinedOutcome } from './combine-outcomes.ts';
import { commandHookForGroup } from './command-hook.ts';
import type { HookRunRecord } from './hook-run.ts';
import type { CommandRunner } from './runner/index.ts';
import { hookGroupsFor, type EffectiveSettings } from '../settings/index.ts';
import { isJsonObject } from '../../wire/json-object.ts';

/** One hook run in the output of `hookwire hooks fire`. */
export type FireHookEntry = Omit<HookRunRecord, 'event' | 'detail'>;

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
}

function inputError(message: string): HookwireError {
  return new HookwireError('hook_input_invalid', message);
}

function lastHumanPrompt(contents: readonly Message[]): Message {
  for (let index = contents.length - 1; index >= 0; index--) {
    const candidate = contents[index];
    if (candidate?.speaker === 'human') return candidate;
  }
  return { speaker: 'human', blocks: [] };
}

function joined(parts: readonly string[]): string | null {
  return parts.length === 0 ? null : parts.join('\n');
}

/**
 * Runs the hooks that match `eventName` for `payload` (base fields it lacks are filled in:
 * a fresh `session_id`, an empty `transcript_path`, `cwd` = the project directory, `timestamp`
 * = now). Throws `HookwireError` (`hook_input_invalid`) for an unknown event or a payload that
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
  const specific = await dispatch(stack, context, event, complete);

  if (event === 'BeforeModel' && !('llm_response' in specific)) {
    const override = mergeLLMRequestOverrides(outcomes.map((outcome) => outcome.llmRequest));
    if (override !== undefined) specific['llm_request'] = override;
  }
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
      command: record.command,
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

/** Dispatches the payload as its in-process event and returns what the outcome changes. */
async function dispatch(
  stack: HookStack,
  context: ReturnType<typeof createHookContext>,
  event: HookEventName,
  payload: Readonly<Record<string, unknown>>,
): Promise<Record<string, unknown>> {
  const field = (name: string): unknown => payload[name];
  switch (event) {
    case 'PreToolUse': {
      const args = field('tool_input');
      const resolution = await stack.resolveToolCall(context, {
        toolName: field('tool_name') as string,
        toolCallId: field('tool_call_id') as string,
        args,
        originalArgs: args,
      });
      return resolution.rewritten ? { tool_input: resolution.args } : {};
    }
    case 'PostToolUse': {
      const result = field('tool_response');
      const action = await stack.onToolResult(context, {
        toolName: field('tool_name') as string,
        toolCallId: field('tool_call_id') as string,
        args: field('tool_input'),
        presentation: result,
        raw: { result },
        skipped: false,
      });
      return action.kind === 'rewrite' ? { updatedToolOutput: action.presentation } : {};
    }
    case 'PostToolUseFailure':
      await stack.onToolFailure(context, {
        toolName: field('tool_name') as string,
        toolCallId: field('tool_call_id') as string,
        args: field('tool_input'),
        error: field('error') as string,
      });
      return {};
    case 'BeforeModel': {
      const request = field('llm_request') as ModelRequest;
      const action = await stack.onCompletionCall(context, {
        prompt: lastHumanPrompt(request.contents),
        history: request.contents,
        turn: 1,
        request,
      });
      if (action.kind === 'respond') return { llm_response: { version: 2, ...action.response } };
      // A patch is reported in the wire's own terms below, from the hooks' llm_request outputs.
      return {};
    }
    case 'BeforeToolSelection': {
      const request = field('llm_request') as ModelRequest & { tools: readonly ToolDeclaration[] };
      const action = await stack.onToolSelection(context, {
        request,
        tools: request.tools,
        toolChoice: request.settings?.toolChoice,
      });
      return action.kind === 'choose' ? { toolChoice: action.toolChoice } : {};
    }
    case 'AfterModel': {
      const response = field('llm_response') as ModelResponse;
      const action = await stack.onModelOutput(context, {
        request: field('llm_request') as ModelRequest,
        response,
        isChunk: false,
        isTerminal: true,
      });
      return action.kind === 'replace' ? { llm_response: { version: 2, ...action.response } } : {};
    }
    case 'UserPromptSubmit':
      await stack.onPromptSubmit(context, { prompt: field('prompt') as string });
      return {};
    case 'SessionStart':
      await stack.onSessionStart(context, { source: field('source') as never });
      return {};
    case 'Stop': {
      const action = await stack.onStop(context, {
        stopHookActive: field('stop_hook_active') as boolean,
        prompt: field('prompt') as string,
        promptResponse: field('prompt_response') as string,
        continuations: 0,
        continuationBudget: 1,
      });
      return action.kind === 'block' ? { continueWith: action.reason } : {};
    }
    case 'StopFailure':
      await stack.onStopFailure(context, {
        error: field('error') as string,
        finishReason: undefined,
        rawStopReason: undefined,
        prompt: (field('prompt') as string | undefined) ?? '',
      });
      return {};
    case 'Interrupt':
      await stack.onInterrupt(context, { prompt: (field('prompt') as string | undefined) ?? '' });
      return {};
    case 'PreCompact':
      await stack.onPreCompact(context, {
        trigger: field('trigger') as never,
        customInstructions: field('custom_instructions') as string | undefined,
      });
      return {};
    case 'Notification':
      await stack.onNotification(context, {
        notificationType: field('notification_type') as string,
        message: field('message') as string,
        details: isJsonObject(payload['details']) ? payload['details'] : undefined,
      });
      return {};
    case 'SessionEnd':
      await stack.onSessionEnd(context, { reason: field('reason') as never });
      return {};
  }
}
