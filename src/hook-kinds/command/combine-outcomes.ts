/**
 * Combines the outcomes of one settings group's hooks in configuration order — never in the
 * order the processes finished — with the rules of the design brief's "Composition" table.
 */
import type { ToolChoice } from '../../content/index.ts';
import type {
  HookEventName,
  HookLLMRequestOverride,
  HookLLMResponseOverride,
} from '../../wire/index.ts';
import { aggregateToolChoice, mergeLLMRequestOverrides } from '../../wire/index.ts';
import { DENY_EVENTS, STOP_EVENTS, TEXT_IS_CONTEXT, type HookRunOutcome } from './hook-run.ts';
import { isJsonObject } from '../../wire/json-object.ts';

/** The combined outcome of a group (or of several groups) for one event. */
export interface CombinedOutcome {
  /** Any hook denied (top-level `decision`, `permissionDecision`, exit 2, fail-closed). */
  readonly denied: boolean;
  /** The denying hooks' reasons, in configuration order. */
  readonly denyReasons: readonly string[];
  /** Any hook said `continue: false`. */
  readonly stopped: boolean;
  readonly stopReasons: readonly string[];
  readonly systemMessages: readonly string[];
  readonly additionalContexts: readonly string[];
  readonly suppressOutput: boolean;
  /** PreToolUse: the arguments after every rewrite, applied in configuration order. */
  readonly toolInput?: unknown;
  /** BeforeModel: the hooks' `llm_request` overrides combined (later hook wins per field). */
  readonly llmRequest?: HookLLMRequestOverride;
  /** BeforeModel (synthetic response) / AfterModel (replacement): the last hook's `llm_response`. */
  readonly llmResponse?: HookLLMResponseOverride;
  /** BeforeToolSelection: none > required > auto; allowlists intersect. */
  readonly toolChoice?: ToolChoice;
  /** PostToolUse: the last hook's replacement of what the model sees, when any hook gave one. */
  readonly toolOutput?: { readonly value: unknown };
  /** Stop (Gemini `clearContext`). */
  readonly clearContext: boolean;
  readonly warnings: readonly string[];
}

interface Specific {
  readonly additionalContext?: string;
  readonly tool_input?: Readonly<Record<string, unknown>>;
  readonly updatedInput?: Readonly<Record<string, unknown>>;
  readonly llm_request?: HookLLMRequestOverride;
  readonly llm_response?: HookLLMResponseOverride;
  readonly toolChoice?: ToolChoice;
  readonly updatedToolOutput?: unknown;
  readonly clearContext?: boolean;
}

/**
 * Applies one hook's argument rewrite: `tool_input` merges over the arguments (Gemini CLI),
 * `updatedInput` replaces them (Claude Code).
 */
export function applyToolInputRewrite(args: unknown, specific: Specific | undefined): unknown {
  if (specific === undefined) return args;
  if (specific.updatedInput !== undefined) return specific.updatedInput;
  if (specific.tool_input !== undefined)
    return { ...(isJsonObject(args) ? args : {}), ...specific.tool_input };
  return args;
}

/**
 * Combines outcomes given in configuration order. `toolInput` is the input the first hook saw
 * (PreToolUse arguments); rewrites apply over it in order, so a later hook's rewrite wins.
 */
export function combineOutcomes(
  event: HookEventName,
  outcomes: readonly HookRunOutcome[],
  toolInput?: unknown,
): CombinedOutcome {
  const denyReasons: string[] = [];
  const stopReasons: string[] = [];
  const systemMessages: string[] = [];
  const additionalContexts: string[] = [];
  const warnings: string[] = [];
  const requestOverrides: unknown[] = [];
  const toolChoices: ToolChoice[] = [];
  let stopped = false;
  let suppressOutput = false;
  let clearContext = false;
  let args = toolInput;
  let rewroteArgs = false;
  let llmResponse: HookLLMResponseOverride | undefined;
  let toolOutput: { value: unknown } | undefined;

  for (const outcome of outcomes) {
    if (outcome.warning !== undefined) warnings.push(outcome.warning);
    if (outcome.denial !== undefined) {
      // A guard that cannot answer denies what it guards. Where the event has no denial, the
      // closest safe outcome stands in: no tools for tool selection, stopping the run for the
      // advisory events that can stop it.
      if (DENY_EVENTS.has(event)) denyReasons.push(outcome.denial);
      else if (event === 'BeforeToolSelection') toolChoices.push({ mode: 'none' });
      else if (STOP_EVENTS.has(event)) {
        stopped = true;
        stopReasons.push(outcome.denial);
      } else warnings.push(outcome.denial);
    }
    if (outcome.text !== undefined)
      (TEXT_IS_CONTEXT.has(event) ? additionalContexts : systemMessages).push(outcome.text);
    const output = outcome.output;
    if (output === undefined) continue;
    if (output.systemMessage !== undefined) systemMessages.push(output.systemMessage);
    if (output.suppressOutput === true) suppressOutput = true;
    if (output.continue === false) {
      if (STOP_EVENTS.has(event)) {
        stopped = true;
        stopReasons.push(
          output.stopReason ?? output.reason ?? `stopped by hook "${outcome.hook.name}"`,
        );
      } else
        warnings.push(
          `hook "${outcome.hook.name}" said continue: false, which ${event} ignores (it is advisory)`,
        );
    }
    if (output.decision === 'deny' && !DENY_EVENTS.has(event))
      warnings.push(
        `hook "${outcome.hook.name}" denied, but ${event} cannot be denied (it is advisory)`,
      );
    const specific = output.hookSpecificOutput as Specific | undefined;
    if (specific === undefined) continue;
    if (specific.additionalContext !== undefined)
      additionalContexts.push(specific.additionalContext);
    if (specific.tool_input !== undefined || specific.updatedInput !== undefined) {
      args = applyToolInputRewrite(args, specific);
      rewroteArgs = true;
    }
    if (specific.llm_request !== undefined) requestOverrides.push(specific.llm_request);
    if (specific.llm_response !== undefined) llmResponse = specific.llm_response;
    if (specific.toolChoice !== undefined) toolChoices.push(specific.toolChoice);
    if ('updatedToolOutput' in specific) toolOutput = { value: specific.updatedToolOutput };
    if (specific.clearContext === true) clearContext = true;
  }

  const llmRequest = mergeLLMRequestOverrides(requestOverrides);
  const toolChoice = aggregateToolChoice(toolChoices);
  return {
    denied: denyReasons.length > 0,
    denyReasons,
    stopped,
    stopReasons,
    systemMessages,
    additionalContexts,
    suppressOutput,
    ...(rewroteArgs ? { toolInput: args } : {}),
    ...(llmRequest === undefined ? {} : { llmRequest }),
    ...(llmResponse === undefined ? {} : { llmResponse }),
    ...(toolChoice === undefined ? {} : { toolChoice }),
    ...(toolOutput === undefined ? {} : { toolOutput }),
    clearContext,
    warnings,
  };
}
