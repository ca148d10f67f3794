/**
 * Adapts one settings group into an `AgentHook`, so command hooks compose through the same
 * `HookStack` as in-process hooks: the group's event becomes the matching hook method, its
 * payload is built from the in-process event, and its combined outcome becomes that method's
 * action. Each group is one member of the stack, so groups compose by the stack's rules
 * (rewrites chain into later groups, the first deny or stop short-circuits).
 */
import type { ModelResponse } from '../../content/index.ts';
import type {
  HookEventName,
  HookInputFieldsMap,
  HookLLMRequestOverride,
  HookLLMResponseOverride,
} from '../../wire/index.ts';
import { buildHookInput, toHookLLMRequest, toHookLLMResponse } from '../../wire/index.ts';
import { isJsonObject } from '../../wire/json-object.ts';
import {
  CompletionCallAction,
  ContextAction,
  ModelOutputAction,
  ObservationAction,
  PromptSubmitAction,
  StopAction,
  ToolCallAction,
  ToolResultAction,
  ToolSelectionAction,
} from '../../hooks/actions.ts';
import type { AgentHook } from '../../hooks/agent-hook.ts';
import type { HookContext } from '../../hooks/context.ts';
import type { HookEventKind } from '../../hooks/events.ts';
import type { RequestPatch } from '../../hooks/request-patch.ts';
import type { CombinedOutcome } from './combine-outcomes.ts';
import type { HookRunRecord } from './hook-run.ts';
import { runHookGroup, type HookGroupRun } from './run-hook-group.ts';
import type { CommandRunner } from './runner/index.ts';
import type { HookGroupConfig } from '../settings/index.ts';

export interface CommandHookOptions {
  readonly runner: CommandRunner;
  /** Where hooks run; defaults to the session's `cwd`. */
  readonly projectDir?: string;
  /** SIGTERM → SIGKILL grace for hook process groups; the runner's default when absent. */
  readonly killGraceMs?: number;
  /** Called for every hook run as it settles (stream-json, `hooks fire`). */
  readonly onHookRun?: (record: HookRunRecord) => void;
  /** Called with every group run and its combined outcome (used by `hooks fire`). */
  readonly onGroupRun?: (group: HookGroupConfig, run: HookGroupRun) => void;
}

/** The in-process event kind each external event is adapted onto. */
export const EVENT_KIND: Readonly<Record<HookEventName, HookEventKind>> = {
  SessionStart: 'sessionStart',
  UserPromptSubmit: 'promptSubmit',
  BeforeModel: 'completionCall',
  BeforeToolSelection: 'toolSelection',
  AfterModel: 'modelOutput',
  PreToolUse: 'toolCall',
  PostToolUse: 'toolResult',
  PostToolUseFailure: 'toolFailure',
  Stop: 'stop',
  StopFailure: 'stopFailure',
  Interrupt: 'interrupt',
  PreCompact: 'preCompact',
  Notification: 'notification',
  SessionEnd: 'sessionEnd',
};

function joined(parts: readonly string[]): string | undefined {
  return parts.length === 0 ? undefined : parts.join('\n');
}

function asArguments(value: unknown): Readonly<Record<string, unknown>> {
  return isJsonObject(value) ? value : { value };
}

/** A `BeforeModel` hook's `llm_request` override as a `RequestPatch` for the stack to merge. */
export function requestPatchFromOverride(override: HookLLMRequestOverride): RequestPatch {
  // The wire's rule: settings shallow-merge, so a provider-fields object replaces the request's
  // (only in-process patches deep-merge additionalParams).
  const { systemInstruction, temperature, maxOutputTokens, topP, toolChoice, reasoning, ...rest } =
    override.settings ?? {};
  const settings = Object.keys(rest).length > 0 ? rest : undefined;
  return {
    ...(override.model === undefined ? {} : { model: override.model }),
    ...(override.contents === undefined ? {} : { history: override.contents }),
    ...(override.tools === undefined ? {} : { tools: override.tools }),
    ...(systemInstruction === undefined ? {} : { systemInstruction }),
    ...(temperature === undefined ? {} : { temperature }),
    ...(maxOutputTokens === undefined ? {} : { maxOutputTokens }),
    ...(topP === undefined ? {} : { topP }),
    ...(toolChoice === undefined ? {} : { toolChoice }),
    ...(reasoning === undefined ? {} : { reasoning }),
    ...(settings === undefined ? {} : { settings }),
  };
}

/** A hook's `llm_response` as a neutral response (a synthetic answer, or a replacement over `base`). */
export function responseFromOverride(
  override: HookLLMResponseOverride,
  base?: ModelResponse,
): ModelResponse {
  const { version: _version, ...fields } = override;
  return { ...base, ...fields };
}

/** Builds the `AgentHook` for one settings group. */
export function commandHookForGroup(
  group: HookGroupConfig,
  options: CommandHookOptions,
): AgentHook {
  const kind = EVENT_KIND[group.event];
  // Reads as "guard-shell (PreToolUse shell)" in messages and warnings.
  const where =
    group.matcherSource === '' || group.matcherSource === '*'
      ? group.registeredAs
      : `${group.registeredAs} ${group.matcherSource}`;
  const name = `${group.hooks.map((hook) => hook.name).join(', ')} (${where})`;

  async function fire<E extends HookEventName>(
    context: HookContext,
    event: E,
    fields: HookInputFieldsMap[E],
  ): Promise<CombinedOutcome> {
    const session = context.session;
    const payload = buildHookInput(
      event,
      { session_id: session.sessionId, transcript_path: session.transcriptPath, cwd: session.cwd },
      fields,
      group.registeredAs,
    );
    // The payload is a plain JSON object; the runner only serialises it.
    const run = await runHookGroup(group, payload as unknown as Readonly<Record<string, unknown>>, {
      runner: options.runner,
      projectDir: options.projectDir ?? session.cwd,
      sessionId: session.sessionId,
      signal: context.signal,
      ...(options.killGraceMs === undefined ? {} : { killGraceMs: options.killGraceMs }),
      ...(options.onHookRun === undefined ? {} : { onHookRun: options.onHookRun }),
    });
    options.onGroupRun?.(group, run);
    const combined = run.combined;
    for (const text of combined.systemMessages)
      context.report({ level: 'message', text, hookName: name, event: group.registeredAs });
    for (const text of combined.warnings)
      context.report({ level: 'warning', text, hookName: name, event: group.registeredAs });
    return combined;
  }

  const stopReason = (combined: CombinedOutcome) =>
    joined(combined.stopReasons) ?? `stopped by ${name}`;
  const denyReason = (combined: CombinedOutcome) =>
    joined(combined.denyReasons) ?? `denied by ${name}`;
  const matches = (value: string | undefined) => group.matcher.matches(value);

  const hook: AgentHook = {
    name,
    observes: (candidate) => candidate === kind,
  };

  switch (group.event) {
    case 'SessionStart':
      hook.onSessionStart = async (context, event) => {
        if (!matches(event.source)) return ContextAction.continue();
        const combined = await fire(context, 'SessionStart', { source: event.source });
        if (combined.stopped) return ContextAction.stop(stopReason(combined));
        return ContextAction.continue(joined(combined.additionalContexts));
      };
      break;
    case 'UserPromptSubmit':
      hook.onPromptSubmit = async (context, event) => {
        const combined = await fire(context, 'UserPromptSubmit', { prompt: event.prompt });
        if (combined.denied) return PromptSubmitAction.deny(denyReason(combined));
        if (combined.stopped) return PromptSubmitAction.stop(stopReason(combined));
        return PromptSubmitAction.continue(joined(combined.additionalContexts));
      };
      break;
    case 'BeforeModel':
      hook.onCompletionCall = async (context, event) => {
        const combined = await fire(context, 'BeforeModel', {
          llm_request: toHookLLMRequest(event.request),
        });
        if (combined.stopped) return CompletionCallAction.stop(stopReason(combined));
        if (combined.denied) return CompletionCallAction.deny(denyReason(combined));
        if (combined.llmResponse !== undefined)
          return CompletionCallAction.respond(responseFromOverride(combined.llmResponse));
        if (combined.llmRequest !== undefined)
          return CompletionCallAction.patch(requestPatchFromOverride(combined.llmRequest));
        return CompletionCallAction.continue();
      };
      break;
    case 'BeforeToolSelection':
      hook.onToolSelection = async (context, event) => {
        const request = toHookLLMRequest(event.request);
        const combined = await fire(context, 'BeforeToolSelection', {
          llm_request: { ...request, tools: event.tools },
        });
        return combined.toolChoice === undefined
          ? ToolSelectionAction.continue()
          : ToolSelectionAction.choose(combined.toolChoice);
      };
      break;
    case 'AfterModel':
      hook.onModelOutput = async (context, event) => {
        const combined = await fire(context, 'AfterModel', {
          llm_request: toHookLLMRequest(event.request),
          llm_response: toHookLLMResponse(event.response),
        });
        if (combined.stopped) return ModelOutputAction.stop(stopReason(combined));
        if (combined.denied) return ModelOutputAction.deny(denyReason(combined));
        if (combined.llmResponse !== undefined)
          return ModelOutputAction.replace(
            responseFromOverride(combined.llmResponse, event.response),
          );
        return ModelOutputAction.continue();
      };
      break;
    case 'PreToolUse':
      hook.onToolCall = async (context, event) => {
        if (!matches(event.toolName)) return ToolCallAction.run();
        const combined = await fire(context, 'PreToolUse', {
          tool_name: event.toolName,
          tool_input: asArguments(event.args),
          tool_call_id: event.toolCallId,
        });
        if (combined.stopped) return ToolCallAction.stop(stopReason(combined));
        if (combined.denied) return ToolCallAction.skip(denyReason(combined));
        if ('toolInput' in combined) return ToolCallAction.rewrite(combined.toolInput);
        return ToolCallAction.run();
      };
      break;
    case 'PostToolUse':
      hook.onToolResult = async (context, event) => {
        if (!matches(event.toolName)) return ToolResultAction.keep();
        const combined = await fire(context, 'PostToolUse', {
          tool_name: event.toolName,
          tool_input: asArguments(event.args),
          tool_call_id: event.toolCallId,
          // What the model will see (earlier rewrites included), so rewrites chain across hooks as
          // they do in-process; a skipped call carries its error.
          tool_response:
            event.raw.error === undefined
              ? event.presentation
              : { result: event.presentation, error: event.raw.error },
        });
        const context_ = joined(combined.additionalContexts);
        if (combined.stopped) return ToolResultAction.stop(stopReason(combined));
        // A denial hides the real output: the model sees the reason instead.
        if (combined.denied) return ToolResultAction.rewrite(denyReason(combined), context_);
        if (combined.toolOutput !== undefined)
          return ToolResultAction.rewrite(combined.toolOutput.value, context_);
        return ToolResultAction.keep(context_);
      };
      break;
    case 'PostToolUseFailure':
      hook.onToolFailure = async (context, event) => {
        if (!matches(event.toolName)) return ContextAction.continue();
        const combined = await fire(context, 'PostToolUseFailure', {
          tool_name: event.toolName,
          tool_input: asArguments(event.args),
          tool_call_id: event.toolCallId,
          error: event.error,
        });
        if (combined.stopped) return ContextAction.stop(stopReason(combined));
        return ContextAction.continue(joined(combined.additionalContexts));
      };
      break;
    case 'Stop':
      hook.onStop = async (context, event) => {
        const combined = await fire(context, 'Stop', {
          stop_hook_active: event.stopHookActive,
          prompt: event.prompt,
          prompt_response: event.promptResponse,
        });
        if (combined.stopped) return StopAction.stop(stopReason(combined));
        if (combined.denied) return StopAction.block(denyReason(combined));
        return StopAction.continue();
      };
      break;
    case 'StopFailure':
      hook.onStopFailure = async (context, event) => {
        await fire(context, 'StopFailure', {
          error: event.error,
          prompt: event.prompt,
          ...(event.finishReason === undefined
            ? {}
            : {
                error_details: {
                  finishReason: event.finishReason,
                  ...(event.rawStopReason === undefined
                    ? {}
                    : { rawStopReason: event.rawStopReason }),
                },
              }),
        });
        return ObservationAction.continue();
      };
      break;
    case 'Interrupt':
      hook.onInterrupt = async (context, event) => {
        await fire(context, 'Interrupt', { prompt: event.prompt });
        return ObservationAction.continue();
      };
      break;
    case 'PreCompact':
      hook.onPreCompact = async (context, event) => {
        if (!matches(event.trigger)) return ContextAction.continue();
        const combined = await fire(context, 'PreCompact', {
          trigger: event.trigger,
          ...(event.customInstructions === undefined
            ? {}
            : { custom_instructions: event.customInstructions }),
        });
        if (combined.stopped) return ContextAction.stop(stopReason(combined));
        return ContextAction.continue(joined(combined.additionalContexts));
      };
      break;
    case 'Notification':
      hook.onNotification = async (context, event) => {
        if (!matches(event.notificationType)) return ObservationAction.continue();
        const details = event.details;
        await fire(context, 'Notification', {
          notification_type: event.notificationType,
          message: event.message,
          ...(isJsonObject(details) ? { details } : {}),
        });
        return ObservationAction.continue();
      };
      break;
    case 'SessionEnd':
      hook.onSessionEnd = async (context, event) => {
        if (!matches(event.reason)) return ObservationAction.continue();
        await fire(context, 'SessionEnd', { reason: event.reason });
        return ObservationAction.continue();
      };
      break;
  }
  return hook;
}
