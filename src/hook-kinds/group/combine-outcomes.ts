/**
 * Combines the outcomes of one settings group's hooks in configuration order — never in the
 * order the processes finished — with the rules of the design brief's "Composition" table and
 * what the event lets an external hook do (`ExternalPowers`, stated by each event module).
 */
import type { ToolChoice } from '../../content/index.ts';
import {
  applyToolInputRewrite,
  externalSide,
  type CombinedOutcome,
  type HookEventName,
} from '../../events/index.ts';
import type { HookLLMRequestOverride, HookLLMResponseOverride } from '../../wire/index.ts';
import { aggregateToolChoice, mergeLLMRequestOverrides } from '../../wire/index.ts';
import type { HookRunOutcome } from '../hook-run.ts';

export type { CombinedOutcome } from '../../events/index.ts';

interface Specific {
  readonly additionalContext?: string;
  readonly tool_input?: Readonly<Record<string, unknown>>;
  readonly updatedInput?: Readonly<Record<string, unknown>>;
  readonly llm_request?: HookLLMRequestOverride;
  readonly llm_response?: HookLLMResponseOverride;
  readonly toolChoice?: ToolChoice;
  readonly updatedToolOutput?: unknown;
  readonly clearContext?: boolean;
  /** PermissionRequest (Claude Code). */
  readonly decision?: {
    readonly behavior: 'allow' | 'deny';
    readonly updatedInput?: Readonly<Record<string, unknown>>;
  };
}

/**
 * Combines outcomes given in configuration order. `args` are the tool arguments the first hook
 * saw (PreToolUse's `tool_input`); rewrites apply over it in order, so a later hook's rewrite wins.
 */
export function combineOutcomes(
  event: HookEventName,
  outcomes: readonly HookRunOutcome[],
  args?: unknown,
): CombinedOutcome {
  const can = externalSide(event).can;
  const denyReasons: string[] = [];
  const asks: { readonly by: string; readonly reason: string }[] = [];
  let deniedOutright = false;
  const stopReasons: string[] = [];
  const systemMessages: string[] = [];
  const additionalContexts: string[] = [];
  const warnings: string[] = [];
  const requestOverrides: unknown[] = [];
  const toolChoices: ToolChoice[] = [];
  let stopped = false;
  let suppressOutput = false;
  let clearContext = false;
  let rewritten = args;
  let rewroteArgs = false;
  let allowed = false;
  let llmResponse: HookLLMResponseOverride | undefined;
  let toolOutput: { value: unknown } | undefined;

  for (const outcome of outcomes) {
    if (outcome.warning !== undefined) warnings.push(outcome.warning);
    if (outcome.denial !== undefined) {
      // A guard that cannot answer denies what it guards. Where the event has no denial, the
      // closest safe outcome stands in: no tools for tool selection, stopping the run for the
      // advisory events that can stop it.
      if (can.failClosed === 'deny') {
        denyReasons.push(outcome.denial);
        if (outcome.asks === undefined) deniedOutright = true;
        else asks.push(outcome.asks);
      } else if (can.failClosed === 'no-tools') toolChoices.push({ mode: 'none' });
      else if (can.failClosed === 'stop') {
        stopped = true;
        stopReasons.push(outcome.denial);
      } else warnings.push(outcome.denial);
    }
    if (outcome.text !== undefined)
      (can.textIsContext ? additionalContexts : systemMessages).push(outcome.text);
    const output = outcome.output;
    if (output === undefined) continue;
    if (output.systemMessage !== undefined) systemMessages.push(output.systemMessage);
    if (output.suppressOutput === true) suppressOutput = true;
    if (output.continue === false) {
      if (can.stop) {
        stopped = true;
        stopReasons.push(
          output.stopReason ?? output.reason ?? `stopped by hook "${outcome.hook.name}"`,
        );
      } else
        warnings.push(
          `hook "${outcome.hook.name}" said continue: false, which ${event} ignores (it is advisory)`,
        );
    }
    if (output.decision === 'deny' && !can.deny)
      warnings.push(
        `hook "${outcome.hook.name}" denied, but ${event} cannot be denied (it is advisory)`,
      );
    const specific = output.hookSpecificOutput as Specific | undefined;
    if (specific === undefined) continue;
    if (specific.additionalContext !== undefined)
      additionalContexts.push(specific.additionalContext);
    if (specific.tool_input !== undefined || specific.updatedInput !== undefined) {
      rewritten = applyToolInputRewrite(rewritten, specific);
      rewroteArgs = true;
    }
    if (specific.decision?.behavior === 'allow') {
      allowed = true;
      if (specific.decision.updatedInput !== undefined) {
        rewritten = specific.decision.updatedInput;
        rewroteArgs = true;
      }
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
    ...(asks.length > 0 && !deniedOutright ? { asks } : {}),
    stopped,
    stopReasons,
    systemMessages,
    additionalContexts,
    suppressOutput,
    ...(allowed ? { allowed } : {}),
    ...(rewroteArgs ? { args: rewritten } : {}),
    ...(llmRequest === undefined ? {} : { llmRequest }),
    ...(llmResponse === undefined ? {} : { llmResponse }),
    ...(toolChoice === undefined ? {} : { toolChoice }),
    ...(toolOutput === undefined ? {} : { toolOutput }),
    clearContext,
    warnings,
  };
}
