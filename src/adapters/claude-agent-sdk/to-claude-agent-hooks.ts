/**
 * The Claude Agent SDK bridge: hookwire's hooks (settings files and in-process hooks, composed
 * by one `HookStack`) as the SDK's `options.hooks`, so an agent built on
 * `@anthropic-ai/claude-agent-sdk` runs them with hookwire's composition rules.
 *
 * Each supported SDK event gets one callback (no matcher: hookwire's own matchers decide, on
 * hookwire's tool names) that turns the SDK's input into the in-process event — tool and field
 * names mapped the Claude Code way (`Bash` ↔ `shell`, `file_path` ↔ `path`, see
 * `claude-code-names.ts`) — runs the stack, and answers in the SDK's output shape:
 *
 * | SDK event          | hookwire event        | answer                                              |
 * | ------------------ | --------------------- | --------------------------------------------------- |
 * | PreToolUse         | toolCall              | skip → `permissionDecision: 'deny'` + reason; rewrite → `updatedInput` (no approval implied) |
 * | PermissionRequest  | permissionRequest     | allow → `decision: {behavior: 'allow'}` (+ `updatedInput`); deny → `decision: {behavior: 'deny', message}`; no decision → the SDK asks as usual |
 * | PostToolUse        | toolResult            | rewrite → `updatedToolOutput`; `additionalContext`  |
 * | PostToolUseFailure | toolFailure           | `additionalContext`                                 |
 * | UserPromptSubmit   | promptSubmit          | deny → `decision: 'block'`; `additionalContext`     |
 * | Stop               | stop                  | block → `decision: 'block'` + reason, bounded per turn |
 * | StopFailure        | stopFailure           | observe                                             |
 * | SessionStart       | sessionStart          | `additionalContext`                                 |
 * | SessionEnd         | sessionEnd            | observe                                             |
 * | PreCompact         | preCompact            | observe                                             |
 * | Notification       | notification          | observe                                             |
 *
 * A `stop` from any hook answers `continue: false` with the reason as `stopReason`. Hooks see
 * the agent's own session (`session_id`, `transcript_path`, `cwd` of the SDK input), and the
 * SDK's abort signal as the context's signal.
 */
import type {
  HookCallback,
  HookCallbackMatcher,
  HookEvent,
  HookInput,
  HookJSONOutput,
  SyncHookJSONOutput,
} from '@anthropic-ai/claude-agent-sdk';
import type { HookReport } from '../../events/context.ts';
import type { ObservedHookRun } from '../../events/observed-hook-run.ts';
import type { SessionEndReason, SessionStartSource } from '../../events/index.ts';
import { RunHookContext } from '../../hooks/hook-context.ts';
import type { HookStack } from '../../hooks/stack/hook-stack.ts';
import {
  afterToolCall,
  afterTurn,
  beforeToolCall,
  DEFAULT_STOP_CONTINUATIONS_PER_TURN,
  stackHooks,
  submitPrompt,
  toolFailed,
  type LifecycleHooks,
} from '../../lifecycle/index.ts';
import { fromClaudeTool, toClaudeToolInput } from './claude-code-names.ts';

/** What the bridge needs of a hookwire instance (`createHookwire` of either entry gives it). */
export interface ClaudeBridgeSource {
  readonly hooks: HookStack;
  /** Stop continuations per turn. Default 8, as `hookwire run`. */
  readonly stopContinuationsPerTurn?: number;
  /** Receives hook messages and warnings. */
  report?(report: HookReport): void;
  /**
   * Receives every hook run, with the session id of the input it ran for (the relay daemon
   * records them in that session's transcript, for `hooks stats` and `hookwire trace`).
   */
  recordHookRun?(sessionId: string, run: ObservedHookRun): void;
}

/** The SDK's `options.hooks`. */
export type ClaudeAgentHooks = Partial<Record<HookEvent, HookCallbackMatcher[]>>;

type Input<E extends HookInput['hook_event_name']> = Extract<HookInput, { hook_event_name: E }>;

const CONTINUE: SyncHookJSONOutput = {};

function stopped(reason: string): SyncHookJSONOutput {
  return { continue: false, stopReason: reason };
}

const SESSION_SOURCES: Readonly<Record<string, SessionStartSource>> = {
  startup: 'startup',
  resume: 'resume',
  clear: 'clear',
  compact: 'compact',
  fork: 'resume',
};

const END_REASONS: ReadonlySet<string> = new Set([
  'exit',
  'clear',
  'logout',
  'prompt_input_exit',
  'other',
]);

/**
 * The SDK's `options.hooks` for `hw`: `query({ prompt, options: { hooks: toClaudeAgentHooks(hw) } })`.
 * Only events some hook of `hw` observes get a callback, so an agent with no hooks configured
 * pays nothing.
 */
export function toClaudeAgentHooks(hw: ClaudeBridgeSource): ClaudeAgentHooks {
  const stack = hw.hooks;
  const budget = hw.stopContinuationsPerTurn ?? DEFAULT_STOP_CONTINUATIONS_PER_TURN;
  // Per session: the prompt of the turn in progress and the Stop continuations it spent.
  const turns = new Map<string, { prompt: string; continuations: number }>();
  const turnOf = (sessionId: string): { prompt: string; continuations: number } => {
    let turn = turns.get(sessionId);
    if (turn === undefined) {
      turn = { prompt: '', continuations: 0 };
      turns.set(sessionId, turn);
    }
    return turn;
  };

  const report = (report: HookReport): void => {
    hw.report?.(report);
  };
  // The decision points fire through the stack, in the context of the SDK's input.
  const hooksOf = (context: RunHookContext): LifecycleHooks =>
    stackHooks(stack, () => context, report);

  const contextFor = (input: HookInput, signal: AbortSignal): RunHookContext =>
    new RunHookContext({
      signal,
      session: {
        sessionId: input.session_id,
        transcriptPath: input.transcript_path,
        cwd: input.cwd,
      },
      ...(input.agent_type === undefined ? {} : { agentName: input.agent_type }),
      report: (report) => {
        hw.report?.(report);
      },
      ...(hw.recordHookRun === undefined
        ? {}
        : {
            recordHookRun: (run: ObservedHookRun) => {
              hw.recordHookRun?.(input.session_id, run);
            },
          }),
    });

  const handlers: {
    readonly [E in HookInput['hook_event_name']]?: {
      readonly kind: Parameters<HookStack['observes']>[0];
      readonly handle: (
        input: Input<E>,
        context: RunHookContext,
        toolUseId: string | undefined,
      ) => Promise<SyncHookJSONOutput>;
    };
  } = {
    PreToolUse: {
      kind: 'toolCall',
      async handle(input, context) {
        const call = fromClaudeTool(input.tool_name, input.tool_input);
        // The lifecycle's PreToolUse rule; the SDK's own permission layer runs after it.
        const decision = await beforeToolCall(
          hooksOf(context),
          { toolName: call.toolName, toolCallId: input.tool_use_id, args: call.input },
          undefined,
        );
        if (decision.kind === 'skip') {
          return {
            ...(decision.stop === undefined ? {} : stopped(decision.stop)),
            hookSpecificOutput: {
              hookEventName: 'PreToolUse',
              permissionDecision: 'deny',
              permissionDecisionReason: decision.stop ?? decision.reason,
            },
          };
        }
        if (decision.kind === 'supply') {
          // The SDK's PreToolUse answer cannot hand the model a result of its own: the call is
          // refused, saying why, rather than run.
          const reason = `a hook supplied the result of ${input.tool_name} instead of running it, which the Claude Agent SDK cannot deliver; the call was not run`;
          report({ level: 'warning', text: reason, event: 'toolCall' });
          return {
            hookSpecificOutput: {
              hookEventName: 'PreToolUse',
              permissionDecision: 'deny',
              permissionDecisionReason: reason,
            },
          };
        }
        return decision.rewritten
          ? {
              hookSpecificOutput: {
                hookEventName: 'PreToolUse',
                updatedInput: toClaudeToolInput(input.tool_name, decision.args) as Record<
                  string,
                  unknown
                >,
              },
            }
          : CONTINUE;
      },
    },
    PermissionRequest: {
      kind: 'permissionRequest',
      async handle(input, context, toolUseId) {
        // The SDK's own permission rules and mode decided to ask; hookwire's hooks answer.
        const call = fromClaudeTool(input.tool_name, input.tool_input);
        const action = await stack.onPermissionRequest(context, {
          toolName: call.toolName,
          toolCallId: toolUseId ?? '',
          args: call.input,
          reason: `the agent asks for permission to run ${input.tool_name}`,
          mode: input.permission_mode ?? 'default',
        });
        if (action.kind === 'deny')
          return {
            hookSpecificOutput: {
              hookEventName: 'PermissionRequest',
              decision: { behavior: 'deny', message: action.message },
            },
          };
        if (action.kind !== 'allow') return CONTINUE;
        return {
          hookSpecificOutput: {
            hookEventName: 'PermissionRequest',
            decision:
              action.updatedInput === undefined
                ? { behavior: 'allow' }
                : {
                    behavior: 'allow',
                    updatedInput: toClaudeToolInput(input.tool_name, action.updatedInput) as Record<
                      string,
                      unknown
                    >,
                  },
          },
        };
      },
    },
    PostToolUse: {
      kind: 'toolResult',
      async handle(input, context) {
        const call = fromClaudeTool(input.tool_name, input.tool_input);
        const decision = await afterToolCall(hooksOf(context), {
          toolName: call.toolName,
          toolCallId: input.tool_use_id,
          args: call.input,
          result: input.tool_response,
          skipped: false,
        });
        if (decision === undefined) return CONTINUE;
        if (decision.stop !== undefined) return stopped(decision.stop);
        if (!decision.rewritten && decision.additionalContext === undefined) return CONTINUE;
        const mcp = input.tool_name.startsWith('mcp__');
        return {
          hookSpecificOutput: {
            hookEventName: 'PostToolUse',
            ...(decision.additionalContext === undefined
              ? {}
              : { additionalContext: decision.additionalContext }),
            ...(decision.rewritten
              ? mcp
                ? { updatedMCPToolOutput: decision.presentation }
                : { updatedToolOutput: decision.presentation }
              : {}),
          },
        };
      },
    },
    PostToolUseFailure: {
      kind: 'toolFailure',
      async handle(input, context) {
        const call = fromClaudeTool(input.tool_name, input.tool_input);
        const decision = await toolFailed(hooksOf(context), {
          toolName: call.toolName,
          toolCallId: input.tool_use_id,
          args: call.input,
          error: input.error,
        });
        if (decision === undefined) return CONTINUE;
        if (decision.stop !== undefined) return stopped(decision.stop);
        return decision.additionalContext === undefined
          ? CONTINUE
          : {
              hookSpecificOutput: {
                hookEventName: 'PostToolUseFailure',
                additionalContext: decision.additionalContext,
              },
            };
      },
    },
    UserPromptSubmit: {
      kind: 'promptSubmit',
      async handle(input, context) {
        turns.set(input.session_id, { prompt: input.prompt, continuations: 0 });
        const decision = await submitPrompt(hooksOf(context), input.prompt, undefined);
        if (decision.kind === 'stop') return stopped(decision.reason);
        if (decision.kind === 'deny') return { decision: 'block', reason: decision.reason };
        // Claude Code's UserPromptSubmit cannot replace the prompt: a rewrite is refused here.
        if (decision.rewritten)
          return {
            decision: 'block',
            reason:
              'a hook rewrote the prompt, which the Claude Agent SDK cannot send in its place; the prompt was not sent',
          };
        return decision.after === undefined
          ? CONTINUE
          : {
              hookSpecificOutput: {
                hookEventName: 'UserPromptSubmit',
                additionalContext: decision.after,
              },
            };
      },
    },
    Stop: {
      kind: 'stop',
      async handle(input, context) {
        const turn = turnOf(input.session_id);
        if (!input.stop_hook_active) turn.continuations = 0;
        // The lifecycle's Stop rule and budget, as in every host.
        const decision = await afterTurn(hooksOf(context), {
          prompt: turn.prompt,
          answer: () => input.last_assistant_message ?? '',
          continuations: turn.continuations,
          budget,
        });
        if (decision.kind === 'continue') {
          turn.continuations++;
          return { decision: 'block', reason: decision.continuation };
        }
        return decision.status === 'stopped' ? stopped(decision.reason) : CONTINUE;
      },
    },
    StopFailure: {
      kind: 'stopFailure',
      async handle(input, context) {
        const action = await stack.onStopFailure(context, {
          error:
            input.error_details === undefined
              ? input.error
              : `${input.error}: ${input.error_details}`,
          finishReason: input.error === 'max_output_tokens' ? 'max_tokens' : 'error',
          rawStopReason: input.error,
          prompt: turnOf(input.session_id).prompt,
        });
        return action.kind === 'stop' ? stopped(action.reason) : CONTINUE;
      },
    },
    SessionStart: {
      kind: 'sessionStart',
      async handle(input, context) {
        const action = await stack.onSessionStart(context, {
          source: SESSION_SOURCES[input.source] ?? 'startup',
        });
        if (action.kind === 'stop') return stopped(action.reason);
        return action.additionalContext === undefined
          ? CONTINUE
          : {
              hookSpecificOutput: {
                hookEventName: 'SessionStart',
                additionalContext: action.additionalContext,
              },
            };
      },
    },
    SessionEnd: {
      kind: 'sessionEnd',
      async handle(input, context) {
        turns.delete(input.session_id);
        await stack.onSessionEnd(context, {
          reason: END_REASONS.has(input.reason) ? (input.reason as SessionEndReason) : 'other',
        });
        return CONTINUE;
      },
    },
    PreCompact: {
      kind: 'preCompact',
      async handle(input, context) {
        const action = await stack.onPreCompact(context, {
          trigger: input.trigger,
          customInstructions: input.custom_instructions ?? undefined,
        });
        return action.kind === 'stop' ? stopped(action.reason) : CONTINUE;
      },
    },
    Notification: {
      kind: 'notification',
      async handle(input, context) {
        const action = await stack.onNotification(context, {
          notificationType: input.notification_type,
          message: input.message,
          details: input.title === undefined ? undefined : { title: input.title },
        });
        return action.kind === 'stop' ? stopped(action.reason) : CONTINUE;
      },
    },
  };

  const result: ClaudeAgentHooks = {};
  for (const [event, handler] of Object.entries(handlers)) {
    if (!stack.observes(handler.kind)) continue;
    const callback: HookCallback = async (
      input,
      toolUseId,
      { signal },
    ): Promise<HookJSONOutput> => {
      if (input.hook_event_name !== event) return CONTINUE;
      const handle = handler.handle as (
        input: HookInput,
        context: RunHookContext,
        toolUseId: string | undefined,
      ) => Promise<SyncHookJSONOutput>;
      return handle(input, contextFor(input, signal), toolUseId);
    };
    result[event as HookEvent] = [{ hooks: [callback] }];
  }
  return result;
}
