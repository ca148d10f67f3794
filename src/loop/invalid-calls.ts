/**
 * The invalid calls of an accepted answer, before any call runs: each call is diagnosed (its
 * arguments are JSON, its tool exists, was offered, and the arguments match its schema), and an
 * invalid one is resolved through `onInvalidToolCall` (retry / repair / skip / stop / fail); with
 * no hook deciding it is answered with its error, within the turn's `invalidToolCallsPerTurn`
 * budget, so the model can correct itself. A retry or a stop leaves every call of the step
 * unrun (each still answered, so the history never holds an unanswered call).
 */
import type { Message, ModelRequest, ToolCallBlock, ToolDeclaration } from '../content/index.ts';
import { InvalidToolCallAction, type InvalidToolCallReason } from '../events/index.ts';
import { LoopError } from './loop-error.ts';
import type { RunState, TurnEnd, TurnState } from './run-state.ts';
import { ToolRegistry } from './tool-registry.ts';

/** What the step does with one call: run it with `args`, or answer it with `reason` unrun. */
export type Plan =
  | { readonly kind: 'run'; readonly call: ToolCallBlock; readonly args: unknown }
  | {
      readonly kind: 'skip';
      readonly call: ToolCallBlock;
      readonly args: unknown;
      readonly reason: string;
    };

interface Diagnosis {
  readonly reason: InvalidToolCallReason;
  readonly detail: string;
  readonly args: unknown;
}

/** The step's plans, the answer's blocks when a repair renamed a call, and a stop's reason. */
export interface PlannedCalls {
  readonly plans: readonly Plan[];
  /** The answer's blocks with repaired calls in place (`undefined`: unchanged). */
  readonly blocks: Message['blocks'] | undefined;
  readonly stopReason: string | undefined;
}

/**
 * Diagnoses the calls of `message` and resolves the invalid ones; returns the plans, or how the
 * turn ends (an invalid call nothing resolved).
 */
export async function planCalls(
  run: RunState,
  turn: TurnState,
  message: Message,
  request: ModelRequest,
  toolCalls: readonly ToolCallBlock[],
): Promise<PlannedCalls | TurnEnd> {
  const registry = run.config.tools;
  const offered = offeredNames(request.tools);

  const plans: Plan[] = [];
  let blocks: Message['blocks'][number][] | undefined;
  let retryFeedback: string | undefined;
  let stopReason: string | undefined;
  for (const original of toolCalls) {
    let call = original;
    let repaired = false;
    for (;;) {
      const diagnosis = diagnose(call, registry, offered);
      if (!('reason' in diagnosis)) {
        plans.push({ kind: 'run', call, args: diagnosis.args });
        break;
      }
      const invalid = call;
      // No decision is reported as what it means: fail fast.
      const action: InvalidToolCallAction | undefined = await run.fire(
        'invalidToolCall',
        () => ({
          reason: diagnosis.reason,
          detail: diagnosis.detail,
          toolName: invalid.name,
          toolCallId: invalid.id,
          args: diagnosis.args,
          availableTools: registry?.names() ?? [],
          allowedTools: [...offered],
          toolChoice: request.settings?.toolChoice,
        }),
        (decided) => decided ?? InvalidToolCallAction.fail(),
      );
      if (action === undefined) {
        // No hook decided: answer the call with its error so the model can correct itself, as
        // long as the turn's budget lasts (then fail as an explicit `fail` does).
        const budget = run.config.invalidToolCallsPerTurn;
        if (turn.invalidToolCalls < budget) {
          turn.invalidToolCalls++;
          run.report({
            level: 'warning',
            text: `the model made an invalid tool call (${diagnosis.reason}, call ${call.id}): ${diagnosis.detail}; the error went back to the model as the tool's result (${turn.invalidToolCalls} of ${budget} this turn, invalidToolCallsPerTurn)`,
            event: 'invalidToolCall',
          });
          plans.push({
            kind: 'skip',
            call,
            args: diagnosis.args,
            reason: `Invalid tool call (${diagnosis.reason}): ${diagnosis.detail}. Correct the call and try again.`,
          });
          break;
        }
        const spent =
          budget === 0
            ? 'invalidToolCallsPerTurn is 0'
            : `this turn already answered ${budget} invalid tool call(s) with their error (invalidToolCallsPerTurn: ${budget})`;
        return invalidCallFailure(
          diagnosis,
          '',
          `No hook resolved it, and ${spent}: raise invalidToolCallsPerTurn (hookwire run --max-invalid-tool-calls), or return retry, repair, skip or stop from onInvalidToolCall.`,
        );
      }
      if (action.kind === 'fail' || (action.kind === 'repair' && repaired)) {
        const how = action.kind === 'repair' ? ' and its repair was invalid too' : '';
        return invalidCallFailure(
          diagnosis,
          how,
          action.kind === 'fail'
            ? 'An onInvalidToolCall hook failed the run.'
            : 'An onInvalidToolCall hook repaired it to another invalid call.',
        );
      }
      if (action.kind === 'repair') {
        repaired = true;
        call = { ...call, name: action.toolName };
        blocks ??= [...message.blocks];
        const position = blocks.indexOf(original);
        if (position >= 0) blocks[position] = call;
        continue;
      }
      if (action.kind === 'retry') {
        retryFeedback ??= action.feedback;
        plans.push({ kind: 'skip', call, args: diagnosis.args, reason: action.feedback });
      } else if (action.kind === 'skip') {
        plans.push({ kind: 'skip', call, args: diagnosis.args, reason: action.reason });
      } else {
        stopReason ??= action.reason;
        plans.push({
          kind: 'skip',
          call,
          args: diagnosis.args,
          reason: `the run was stopped: ${action.reason}`,
        });
      }
      break;
    }
  }

  // A retry or a stop runs none of the step's calls; every call is still answered, so the
  // history never holds an unanswered tool call.
  if (retryFeedback !== undefined || stopReason !== undefined) {
    const note =
      stopReason !== undefined
        ? `not run: the run was stopped: ${stopReason}`
        : `not run: another tool call of this step was invalid: ${retryFeedback ?? ''}`;
    for (let index = 0; index < plans.length; index++) {
      const plan = plans[index] as Plan;
      if (plan.kind === 'run')
        plans[index] = { kind: 'skip', call: plan.call, args: plan.args, reason: note };
    }
  }
  return { plans, blocks, stopReason };
}

function invalidCallFailure(diagnosis: Diagnosis, how: string, why: string): TurnEnd {
  return {
    status: 'failed',
    reason: `invalid tool call: ${diagnosis.detail}${how}`,
    error: new LoopError(
      'invalid_tool_call',
      `The model made an invalid tool call (${diagnosis.reason}): ${diagnosis.detail}${how}. ${why}`,
      { event: 'invalidToolCall' },
    ),
    endsRun: true,
  };
}

const NONE_OFFERED: ReadonlySet<string> = new Set();
// Per frozen tool list, its names: the list a request offers is usually the registry's frozen,
// stable array (`declarations()`), so a run builds this set once, not once per step. A list a
// hook built (and could still change) gets a set of its own each time.
const offeredSets = new WeakMap<readonly ToolDeclaration[], ReadonlySet<string>>();

/** The names of the tools a request offered. */
function offeredNames(tools: readonly ToolDeclaration[] | undefined): ReadonlySet<string> {
  if (tools === undefined) return NONE_OFFERED;
  let names = offeredSets.get(tools);
  if (names === undefined) {
    names = new Set(tools.map((tool) => tool.name));
    if (Object.isFrozen(tools)) offeredSets.set(tools, names);
  }
  return names;
}

function diagnose(
  call: ToolCallBlock,
  registry: ToolRegistry | undefined,
  offered: ReadonlySet<string>,
): Diagnosis | { readonly args: unknown } {
  let args: unknown = call.parameters;
  if (typeof args === 'string') {
    try {
      args = ToolRegistry.parseArguments(args);
    } catch (error) {
      return {
        reason: 'invalid_arguments',
        detail: `the arguments of tool "${call.name}" are not JSON: ${error instanceof Error ? error.message : String(error)}`,
        args: call.parameters,
      };
    }
  }
  if (registry?.has(call.name) !== true) {
    const names = registry?.names() ?? [];
    return {
      reason: 'unknown_tool',
      detail: `unknown tool "${call.name}"; available tools: ${names.length > 0 ? names.join(', ') : '(none)'}`,
      args,
    };
  }
  if (!offered.has(call.name)) {
    return {
      reason: 'tool_not_allowed',
      detail: `tool "${call.name}" was not offered for this call (the tool choice allows: ${offered.size > 0 ? [...offered].join(', ') : 'no tools'})`,
      args,
    };
  }
  const validation = registry.validate(call.name, args);
  if (!validation.ok) {
    return {
      reason: 'invalid_arguments',
      detail: `the arguments of tool "${call.name}" do not match its schema: ${validation.errors}`,
      args,
    };
  }
  return { args };
}
