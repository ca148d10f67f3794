/**
 * The tests of rig's `hook.rs` (seeds/001_…), ported as behaviour. Each test names the rig test it
 * ports in its title's suffix ("[rig: …]").
 */
import { describe, expect, it } from 'vitest';
import type { LanguageModel } from '../../src/content/index.ts';
import {
  CompletionCallAction,
  createHookContext,
  HookStack,
  InvalidToolCallAction,
  mergeRequestPatches,
  ModelSelectionAction,
  ObservationAction,
  Scratchpad,
  scratchpadKey,
  ToolCallAction,
  ToolResultAction,
  type AgentHook,
  type HookContext,
  type RequestPatch,
  type ToolCallEvent,
  type ToolCallResolution,
  type ToolResultEvent,
} from '../../src/hooks/index.ts';
import {
  completionCallEvent,
  invalidToolCallEvent,
  model,
  modelSelectionEvent,
  toolCallEvent,
  toolResultEvent,
  yieldToEventLoop,
} from './support.ts';

const context = (): HookContext => createHookContext({ agentName: 'test-agent' });

function patcher(log: number[], label: number, patch: RequestPatch, stop = false): AgentHook {
  return {
    onCompletionCall: () => {
      log.push(label);
      return stop ? CompletionCallAction.stop('stop') : CompletionCallAction.patch(patch);
    },
  };
}

function rewriteHook(args: unknown): AgentHook {
  return { onToolCall: () => ToolCallAction.rewrite(args) };
}
const skipHook: AgentHook = { onToolCall: () => ToolCallAction.skip('denied') };
const stopHook: AgentHook = { onToolCall: () => ToolCallAction.stop('stop') };
function argsSpy(seen: unknown[]): AgentHook {
  return {
    onToolCall: (_context, event) => {
      seen.push(event.args);
      return ToolCallAction.run();
    },
  };
}

async function resolve(
  stack: HookStack,
  event: ToolCallEvent = toolCallEvent(),
): Promise<ToolCallResolution> {
  return stack.resolveToolCall(context(), event);
}

describe('HookStack: completion-call patches', () => {
  it('composes patches of a nested stack with the outer stack, the later temperature winning [rig: nested_completion_patches_compose]', async () => {
    const log: number[] = [];
    const inner = new HookStack([patcher(log, 1, { temperature: 0.1 })]);
    const outer = new HookStack([inner, patcher(log, 2, { temperature: 0.2 })]);
    const action = await outer.onCompletionCall(context(), completionCallEvent);
    expect(action).toEqual(CompletionCallAction.patch({ temperature: 0.2 }));
  });

  it('accumulates patches and lets a stop discard the patches before it [rig: completion_patches_accumulate_and_stop_discards_prior_patch]', async () => {
    const log: number[] = [];
    const stack = new HookStack([
      patcher(log, 1, { temperature: 0.1 }),
      patcher(log, 2, { maxOutputTokens: 256 }),
    ]);
    expect(await stack.onCompletionCall(context(), completionCallEvent)).toEqual(
      CompletionCallAction.patch({ temperature: 0.1, maxOutputTokens: 256 }),
    );
    expect(log).toEqual([1, 2]);
    const stopped = new HookStack([patcher(log, 3, {}, true), patcher(log, 4, {})]);
    expect((await stopped.onCompletionCall(context(), completionCallEvent)).kind).toBe('stop');
    expect(log).toEqual([1, 2, 3]);
  });

  it('merges the patches of a nested stack with the outer ones in registration order [rig: nested_stack_composes_patches]', async () => {
    const log: number[] = [];
    const inner = new HookStack([
      patcher(log, 1, { temperature: 0.2 }),
      patcher(log, 2, { maxOutputTokens: 128 }),
    ]);
    const outer = new HookStack([inner, patcher(log, 3, { systemInstruction: 'outer' })]);
    expect(await outer.onCompletionCall(context(), completionCallEvent)).toEqual(
      CompletionCallAction.patch({
        temperature: 0.2,
        maxOutputTokens: 128,
        systemInstruction: 'outer',
      }),
    );
    expect(log).toEqual([1, 2, 3]);
  });
});

describe('HookStack: tool calls and results', () => {
  it('chains tool-call rewrites in registration order: the second hook sees the first rewrite [rig: tool_call_rewrites_chain_in_registration_order]', async () => {
    const seen: unknown[] = [];
    const rewriter = (replacement: unknown): AgentHook => ({
      onToolCall: async (_context, event) => {
        seen.push(event.args);
        return ToolCallAction.rewrite(replacement);
      },
    });
    const stack = new HookStack([rewriter({ step: 1 }), rewriter({ step: 2 })]);
    const action = await stack.onToolCall(context(), toolCallEvent('provider-id', { step: 0 }));
    expect(seen).toEqual([{ step: 0 }, { step: 1 }]);
    expect(action).toEqual(ToolCallAction.rewrite({ step: 2 }));
  });

  it('chains result rewrites without changing the raw result [rig: result_rewrites_chain_without_mutating_raw_result_or_context]', async () => {
    const seen: [unknown, string | undefined][] = [];
    const rewriter = (replacement: string): AgentHook => ({
      onToolResult: async (_context, event) => {
        seen.push([event.presentation, event.raw.error]);
        return ToolResultAction.rewrite(replacement);
      },
    });
    const stack = new HookStack([rewriter('redacted'), rewriter('truncated')]);
    const event: ToolResultEvent = {
      ...toolResultEvent,
      raw: { result: 'request-metadata', error: 'raw failure' },
    };
    const action = await stack.onToolResult(context(), event);
    expect(action).toEqual(ToolResultAction.rewrite('truncated'));
    expect(seen).toEqual([
      ['raw failure', 'raw failure'],
      ['redacted', 'raw failure'],
    ]);
    expect(event.presentation).toBe('raw failure');
    expect(event.raw).toEqual({ result: 'request-metadata', error: 'raw failure' });
  });

  it('short-circuits later result hooks at a terminal stop [rig: terminal_result_action_short_circuits_later_hooks]', async () => {
    let calls = 0;
    const counter = (stop: boolean): AgentHook => ({
      onToolResult: () => {
        calls++;
        return stop ? ToolResultAction.stop('terminal') : ToolResultAction.keep();
      },
    });
    const stack = new HookStack([counter(true), counter(false)]);
    expect(await stack.onToolResult(context(), toolResultEvent)).toEqual(
      ToolResultAction.stop('terminal'),
    );
    expect(calls).toBe(1);
  });

  it('runs tool-call hooks in registration order and consults all when they continue [rig: runs_hooks_in_registration_order_and_consults_all_on_continue]', async () => {
    const log: number[] = [];
    const recorder = (label: number): AgentHook => ({
      onToolCall: () => {
        log.push(label);
        return ToolCallAction.run();
      },
    });
    expect(
      await new HookStack([recorder(1), recorder(2)]).onToolCall(context(), toolCallEvent()),
    ).toEqual(ToolCallAction.run());
    expect(log).toEqual([1, 2]);
  });

  it('short-circuits a chained tool call at the first stop [rig: first_stop_short_circuits_on_chained_tool_call]', async () => {
    const log: number[] = [];
    const recorder = (label: number, stop: boolean): AgentHook => ({
      onToolCall: () => {
        log.push(label);
        return stop ? ToolCallAction.stop('stop') : ToolCallAction.run();
      },
    });
    const action = await new HookStack([recorder(1, true), recorder(2, false)]).onToolCall(
      context(),
      toolCallEvent(),
    );
    expect(action.kind).toBe('stop');
    expect(log).toEqual([1]);
  });

  it('dispatches a hook through its public onToolCall method and carries no arguments when nothing rewrote [rig: erased_dispatch_uses_the_public_on_tool_call_method]', async () => {
    let calls = 0;
    const stack = new HookStack([
      {
        onToolCall: () => {
          calls++;
          return ToolCallAction.skip('called');
        },
      },
    ]);
    const resolution = await resolve(stack);
    expect(resolution).toEqual({
      action: ToolCallAction.skip('called'),
      args: {},
      rewritten: false,
    });
    expect('args' in resolution.action).toBe(false);
    expect(calls).toBe(1);
  });

  // rig passes arguments as JSON text, so a string rewrite reaches the next hook JSON-encoded. Here
  // arguments are JSON values: a string rewrite reaches the next hook as that same string value
  // (never re-parsed as JSON text), and encodes to the same JSON text rig would pass.
  it('passes a string rewrite to a later hook in the same stack as the JSON string value [rig: string_rewrite_is_json_encoded_for_later_hook_in_same_stack]', async () => {
    const seen: unknown[] = [];
    const stack = new HookStack([rewriteHook('sanitized'), argsSpy(seen)]);
    const resolution = await resolve(stack);
    expect(resolution.action).toEqual(ToolCallAction.rewrite('sanitized'));
    expect(seen).toEqual(['sanitized']);
    expect(JSON.stringify(seen[0])).toBe('"sanitized"');
  });

  it('passes a string rewrite to a hook in a nested stack as the JSON string value [rig: string_rewrite_is_json_encoded_for_hook_in_nested_stack]', async () => {
    const seen: unknown[] = [];
    const outer = new HookStack([
      rewriteHook('{"looks":"like json"}'),
      new HookStack([argsSpy(seen)]),
    ]);
    const resolution = await resolve(outer);
    expect(resolution.action).toEqual(ToolCallAction.rewrite('{"looks":"like json"}'));
    expect(seen).toEqual(['{"looks":"like json"}']);
  });

  it('keeps a nested rewrite when the nested stack then skips [rig: nested_rewrite_then_skip_preserves_rewrite]', async () => {
    const outer = new HookStack([new HookStack([rewriteHook({ x: 41 }), skipHook])]);
    const resolution = await resolve(outer);
    expect(resolution.action.kind).toBe('skip');
    expect(resolution.args).toEqual({ x: 41 });
    expect(resolution.rewritten).toBe(true);
  });

  it('keeps a nested rewrite when the nested stack then stops [rig: nested_rewrite_then_stop_preserves_rewrite]', async () => {
    const outer = new HookStack([new HookStack([rewriteHook({ x: 41 }), stopHook])]);
    const resolution = await resolve(outer);
    expect(resolution.action.kind).toBe('stop');
    expect(resolution.args).toEqual({ x: 41 });
  });

  it('keeps the innermost (last) rewrite through a deeply nested terminal action [rig: deeply_nested_terminal_action_preserves_the_last_rewrite]', async () => {
    const inner = new HookStack([rewriteHook({ x: 3 }), skipHook]);
    const middle = new HookStack([rewriteHook({ x: 2 }), inner]);
    const outer = new HookStack([rewriteHook({ x: 1 }), middle]);
    const resolution = await resolve(outer);
    expect(resolution.action).toEqual(ToolCallAction.skip('denied', { x: 3 }));
    expect(resolution.args).toEqual({ x: 3 });
  });

  it('keeps rewrites of concurrent nested resolutions isolated by call [rig: concurrent_nested_resolutions_keep_rewrites_isolated_by_call]', async () => {
    const yieldingRewriteFromCallId: AgentHook = {
      onToolCall: async (_context, event) => {
        await yieldToEventLoop();
        return ToolCallAction.rewrite({ callId: event.toolCallId });
      },
    };
    const yieldingSkip: AgentHook = {
      onToolCall: async () => {
        await yieldToEventLoop();
        return ToolCallAction.skip('denied');
      },
    };
    const outer = new HookStack([new HookStack([yieldingRewriteFromCallId, yieldingSkip])]);
    const shared = context();
    const [first, second] = await Promise.all([
      outer.resolveToolCall(shared, toolCallEvent('first')),
      outer.resolveToolCall(shared, toolCallEvent('second')),
    ]);
    expect(first).toEqual({
      action: ToolCallAction.skip('denied', { callId: 'first' }),
      args: { callId: 'first' },
      rewritten: true,
    });
    expect(second).toEqual({
      action: ToolCallAction.skip('denied', { callId: 'second' }),
      args: { callId: 'second' },
      rewritten: true,
    });
  });

  it('threads an outer rewrite into a nested stack and keeps it through the nested skip [rig: outer_rewrite_threads_into_nested_stack]', async () => {
    const seen: unknown[] = [];
    const outer = new HookStack([rewriteHook({ x: 1 }), new HookStack([argsSpy(seen), skipHook])]);
    const resolution = await resolve(outer);
    expect(resolution.action.kind).toBe('skip');
    expect(resolution.args).toEqual({ x: 1 });
    expect(seen).toEqual([{ x: 1 }]);
  });

  it('surfaces a proceeding nested rewrite as a rewrite action [rig: nested_proceeding_rewrite_surfaces_as_rewrite_action]', async () => {
    const resolution = await resolve(new HookStack([rewriteHook({ x: 5 })]));
    expect(resolution.action).toEqual(ToolCallAction.rewrite({ x: 5 }));
    expect(resolution.args).toEqual({ x: 5 });
  });
});

describe('HookStack: model selection', () => {
  type RouteLog = [string, string][];
  function router(
    label: string,
    log: RouteLog,
    decision: { kind: 'continue' } | { kind: 'select'; model: LanguageModel } | { kind: 'stop' },
  ): AgentHook {
    return {
      onModelSelection: (_context, event) => {
        log.push([label, event.selected.modelId]);
        if (decision.kind === 'select') return ModelSelectionAction.select(decision.model);
        return decision.kind === 'stop'
          ? ModelSelectionAction.stop('routing stopped')
          : ModelSelectionAction.continue();
      },
    };
  }
  const defaultModel = model('default');

  it('chains selections in registration order and the last one wins [rig: model_selections_chain_in_registration_order_and_last_wins]', () => {
    const log: RouteLog = [];
    const last = model('last');
    const stack = new HookStack([
      router('continue', log, { kind: 'continue' }),
      router('first', log, { kind: 'select', model: model('first') }),
      router('last', log, { kind: 'select', model: last }),
    ]);
    expect(stack.onModelSelection(context(), modelSelectionEvent(defaultModel))).toEqual(
      ModelSelectionAction.select(last),
    );
    expect(log).toEqual([
      ['continue', 'default'],
      ['first', 'default'],
      ['last', 'first'],
    ]);
  });

  it('short-circuits later selection hooks at a stop [rig: model_selection_stop_short_circuits_later_hooks]', () => {
    const log: RouteLog = [];
    const stack = new HookStack([
      router('stop', log, { kind: 'stop' }),
      router('later', log, { kind: 'select', model: model('later') }),
    ]);
    expect(stack.onModelSelection(context(), modelSelectionEvent(defaultModel))).toEqual(
      ModelSelectionAction.stop('routing stopped'),
    );
    expect(log).toEqual([['stop', 'default']]);
  });

  it('chains candidates through a nested stack [rig: nested_model_selection_stacks_preserve_candidate_chaining]', () => {
    const log: RouteLog = [];
    const innerModel = model('inner');
    const outer = new HookStack([
      router('outer-before', log, { kind: 'select', model: model('outer') }),
      new HookStack([router('inner', log, { kind: 'select', model: innerModel })]),
      router('outer-after', log, { kind: 'continue' }),
    ]);
    expect(outer.onModelSelection(context(), modelSelectionEvent(defaultModel))).toEqual(
      ModelSelectionAction.select(innerModel),
    );
    expect(log).toEqual([
      ['outer-before', 'default'],
      ['inner', 'outer'],
      ['outer-after', 'inner'],
    ]);
  });

  it('keeps the outer candidate when a nested stack selects nothing [rig: nested_model_selection_stack_without_a_selection_preserves_outer_candidate]', () => {
    const log: RouteLog = [];
    const outerModel = model('outer');
    const outer = new HookStack([
      router('outer-select', log, { kind: 'select', model: outerModel }),
      new HookStack([router('inner-continue', log, { kind: 'continue' })]),
      router('outer-after', log, { kind: 'continue' }),
    ]);
    expect(outer.onModelSelection(context(), modelSelectionEvent(defaultModel))).toEqual(
      ModelSelectionAction.select(outerModel),
    );
    expect(log).toEqual([
      ['outer-select', 'default'],
      ['inner-continue', 'outer'],
      ['outer-after', 'outer'],
    ]);
  });

  it('lets a nested stop short-circuit the outer stack [rig: nested_model_selection_stop_short_circuits_the_outer_stack]', () => {
    const log: RouteLog = [];
    const outer = new HookStack([
      router('outer-before', log, { kind: 'select', model: model('outer') }),
      new HookStack([router('inner-stop', log, { kind: 'stop' })]),
      router('outer-after', log, { kind: 'select', model: model('unreachable') }),
    ]);
    expect(outer.onModelSelection(context(), modelSelectionEvent(defaultModel))).toEqual(
      ModelSelectionAction.stop('routing stopped'),
    );
    expect(log).toEqual([
      ['outer-before', 'default'],
      ['inner-stop', 'outer'],
    ]);
  });
});

describe('HookStack: observations and invalid tool calls', () => {
  function observer(log: number[], label: number, stop: boolean): AgentHook {
    const answer = () => {
      log.push(label);
      return stop ? ObservationAction.stop('stop') : ObservationAction.continue();
    };
    return { onTextDelta: answer, onReasoningDelta: answer };
  }

  it('short-circuits an observation at the first stop [rig: first_stop_short_circuits_observation]', async () => {
    const log: number[] = [];
    const stack = new HookStack([observer(log, 1, true), observer(log, 2, false)]);
    expect((await stack.onTextDelta(context(), { delta: 'hi', aggregated: 'hi' })).kind).toBe(
      'stop',
    );
    expect(log).toEqual([1]);
  });

  it('keeps nested order for reasoning deltas and stops at the nested stop [rig: reasoning_delta_observation_preserves_nested_order_and_stop]', async () => {
    const log: number[] = [];
    const outer = new HookStack([
      new HookStack([observer(log, 1, false), observer(log, 2, true)]),
      observer(log, 3, false),
    ]);
    const action = await outer.onReasoningDelta(context(), {
      id: 'corr_1',
      delta: 'think',
      aggregated: 'think',
    });
    expect(action.kind).toBe('stop');
    expect(log).toEqual([1, 2]);
  });

  function responder(
    action: InvalidToolCallAction | undefined,
    calls: { count: number },
  ): AgentHook {
    return {
      onInvalidToolCall: () => {
        calls.count++;
        return action;
      },
    };
  }

  it('lets an explicit fail short-circuit later invalid-tool hooks [rig: explicit_fail_short_circuits_later_invalid_tool_hooks]', async () => {
    const failCalls = { count: 0 };
    const retryCalls = { count: 0 };
    const stack = new HookStack([
      responder(InvalidToolCallAction.fail(), failCalls),
      responder(InvalidToolCallAction.retry('try another tool'), retryCalls),
    ]);
    expect(await stack.onInvalidToolCall(context(), invalidToolCallEvent)).toEqual(
      InvalidToolCallAction.fail(),
    );
    expect(failCalls.count).toBe(1);
    expect(retryCalls.count).toBe(0);
  });

  it('defers to later hooks when a hook makes no decision [rig: no_invalid_tool_decision_defers_to_later_hooks]', async () => {
    const retryCalls = { count: 0 };
    const stack = new HookStack([
      {},
      responder(InvalidToolCallAction.retry('try another tool'), retryCalls),
    ]);
    expect(await stack.onInvalidToolCall(context(), invalidToolCallEvent)).toEqual(
      InvalidToolCallAction.retry('try another tool'),
    );
    expect(retryCalls.count).toBe(1);
  });
});

describe('HookStack: interest', () => {
  const observesOnly = (kind: string): AgentHook => ({
    observes: (candidate) => candidate === kind,
  });

  it('observes the OR of its members [rig: stack_observes_is_the_or_of_members]', () => {
    const stack = new HookStack([
      { ...observesOnly('toolCall'), onToolCall: () => ToolCallAction.run() },
      { ...observesOnly('toolResult'), onToolResult: () => ToolResultAction.keep() },
    ]);
    expect(stack.observes('toolCall')).toBe(true);
    expect(stack.observes('toolResult')).toBe(true);
    expect(stack.observes('textDelta')).toBe(false);
  });

  it('observes nothing when empty [rig: empty_stack_observes_nothing]', () => {
    const empty = new HookStack();
    expect(empty.size).toBe(0);
    expect(empty.observes('toolCall')).toBe(false);
  });

  it('treats a hook implementing no method as observing no event kind [rig: unit_hook_observes_no_event_kind]', () => {
    const stack = new HookStack([{}]);
    for (const kind of [
      'completionCall',
      'completionResponse',
      'modelTurnFinished',
      'invalidToolCall',
      'toolCall',
      'toolResult',
      'textDelta',
      'reasoningDelta',
      'toolCallDelta',
      'streamFinish',
    ] as const) {
      expect(stack.observes(kind)).toBe(false);
    }
  });
});

describe('RequestPatch merging', () => {
  const merge = (earlier: RequestPatch, later: RequestPatch, warnings: string[] = []) =>
    mergeRequestPatches(earlier, later, (field) => warnings.push(field));

  it('appends extra context in order [rig: merge_appends_extra_context_in_order]', () => {
    expect(merge({ extraContext: ['a'] }, { extraContext: ['b'] }).extraContext).toEqual([
      'a',
      'b',
    ]);
  });

  it('shallow-merges additional params with later keys winning [rig: merge_shallow_merges_additional_params_later_wins]', () => {
    expect(
      merge({ additionalParams: { x: 1, y: 2 } }, { additionalParams: { y: 3, z: 4 } })
        .additionalParams,
    ).toEqual({
      x: 1,
      y: 3,
      z: 4,
    });
  });

  it('lets the last writer win for scalars, with a warning naming the field [rig: merge_scalar_last_writer_wins]', () => {
    const warnings: string[] = [];
    expect(merge({ temperature: 0.1 }, { temperature: 0.9 }, warnings).temperature).toBe(0.9);
    expect(warnings).toEqual(['temperature']);
  });

  it('intersects active tools [rig: merge_active_tools_intersects]', () => {
    expect(
      merge({ activeTools: ['add', 'sub'] }, { activeTools: ['sub', 'mul'] }).activeTools,
    ).toEqual(['sub']);
  });

  it('yields an empty allowlist when active tools do not intersect [rig: merge_active_tools_empty_intersection_yields_empty]', () => {
    expect(merge({ activeTools: ['a'] }, { activeTools: ['b'] }).activeTools).toEqual([]);
  });
});

describe('Scratchpad and HookContext', () => {
  it('sets, reads, atomically updates and removes a typed slot [rig: scratchpad_insert_get_update_remove]', () => {
    const count = scratchpadKey('count', () => 0);
    const pad = new Scratchpad();
    pad.update(count, (value) => [value + 1, undefined]);
    pad.update(count, (value) => [value + 1, undefined]);
    expect(pad.get(count)).toBe(2);
    expect(pad.delete(count)).toBe(2);
    expect(pad.has(count)).toBe(false);
  });

  it('shares one scratchpad between every hook of a run through the context [rig: scratchpad_is_shared_across_clones]', async () => {
    const seven = scratchpadKey<number>('seven', () => 0);
    const runContext = createHookContext();
    const writer: AgentHook = {
      onToolCall: (hookContext) => {
        hookContext.scratchpad.set(seven, 7);
        return ToolCallAction.run();
      },
    };
    let read: number | undefined;
    const reader: AgentHook = {
      onToolCall: (hookContext) => {
        read = hookContext.scratchpad.get(seven);
        return ToolCallAction.run();
      },
    };
    await new HookStack([writer, new HookStack([reader])]).onToolCall(runContext, toolCallEvent());
    expect(read).toBe(7);
    expect(createHookContext().scratchpad.get(seven)).toBeUndefined();
  });

  it('reports its identity and the turn the loop advanced it to [rig: hook_context_reports_identity_and_turn]', () => {
    const runContext = createHookContext({ isStreaming: true, agentName: 'agent' });
    expect(runContext.isStreaming).toBe(true);
    expect(runContext.agentName).toBe('agent');
    expect(runContext.modelCall).toBe(0);
    runContext.setModelCall(3);
    expect(runContext.modelCall).toBe(3);
    // The first release's name stays as an alias of the same number.
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- the first release's name, still filled in
    expect(runContext.turn).toBe(3);
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- the first release's name, still filled in
    runContext.setTurn(4);
    expect(runContext.modelCall).toBe(4);
    expect(runContext.runId).toMatch(/^[0-9a-f-]{36}$/);
    // Drawn on first read, then the same for the run.
    expect(runContext.runId).toBe(runContext.runId);
    expect(createHookContext().runId).not.toBe(runContext.runId);
  });
});
