/**
 * The mods in hookwire's `HookStack`: two `AgentHook` members over one `ModsChain`.
 *
 * - **outer** sits after the managed policy's settings groups and before every other settings
 *   group (Claude Code: a managed PreToolUse block comes before every mod; the other settings
 *   hooks run inside core). It raises `tool.call`, `prompt.submit`, `session.*`,
 *   `turn.complete`, `tool.check` and the `classic.*` events.
 * - **inner** sits last, after every PostToolUse hook. It is where `tool.call`'s core resolves.
 *
 * The `tool.call` onion spans both: `onToolCall` runs the chain down to core, and core answers
 * `onToolCall` with `run` or `rewrite(args)` (the arguments `next` was given). The call then goes
 * on through the rest of the stack, the permission check and the tool; `onToolResult` (or
 * `onToolFailure`) of the same call hands core's result (`{ ref, result, text }`, or `{ deny }`
 * for a call refused beneath) back to the hooks waiting in `next`, and what they return becomes
 * what the model sees (`text` or `result`) plus `context`. A hook that answers `{ deny }`
 * without `next` skips the call.
 *
 * Payloads keep Claude Code's names (`Bash`, `Write`, `e.command`, `e.file_path`) through the
 * Claude vocabulary, both ways.
 */
import {
  ContextAction,
  ObservationAction,
  PermissionRequestAction,
  PromptSubmitAction,
  StopAction,
  ToolCallAction,
  ToolResultAction,
  type HookContext,
  type HookEventKind,
} from '../../events/index.ts';
import type { AgentHook } from '../../hooks/agent-hook.ts';
import { decideCall, type AgentPermissions } from '../../hooks/permissions/index.ts';
import {
  foreignToolInput,
  foreignToolName,
  hookwireToolInput,
} from '../../hook-kinds/dialects/vocabulary.ts';
import { jsonText } from './mod-capabilities.ts';
import { ENGINE_ORIGIN, type DispatchScope, type ModsChain } from './mods-chain.ts';

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A call whose `tool.call` chain waits in core for the tool's outcome. */
interface PendingCall {
  /** Core was reached: the call goes on in hookwire's stack. */
  reachedCore: boolean;
  /** Hands core's result to the hooks waiting in `next`. */
  resolveOutcome(outcome: unknown): void;
  /** The chain's final answer. */
  readonly answer: Promise<unknown>;
  /** What core's result looked like (to see whether a hook changed it). */
  outcome: unknown;
  /** The dispatch's scope: `$.turn.abort` marks it. */
  readonly scope: DispatchScope;
}

/** Claude Code's `e` of `tool.call`: `{ tool, tool_use_id, ...input }` in its names. */
function claudeToolInput(
  toolName: string,
  toolCallId: string,
  args: unknown,
): Record<string, unknown> {
  const input = foreignToolInput('claude', toolName, args);
  return {
    ...(isRecord(input) ? input : {}),
    tool: foreignToolName('claude', toolName),
    tool_use_id: toolCallId,
  };
}

/** hookwire's arguments from a Claude-named `e` (reserved fields dropped). */
function hookwireArgs(toolName: string, e: unknown, context: HookContext): unknown {
  if (!isRecord(e)) return e;
  const { tool: _tool, tool_use_id: _id, agentId: _agent, ...input } = e;
  const translated = hookwireToolInput('claude', toolName, input);
  for (const note of translated.dropped)
    context.report({ level: 'warning', text: `a mod's rewrite: ${note}`, event: 'toolCall' });
  return translated.input;
}

const textOf = (value: unknown): string => (typeof value === 'string' ? value : jsonText(value));

const contextOf = (answer: unknown): string | undefined => {
  if (!isRecord(answer)) return undefined;
  const { context } = answer;
  if (typeof context === 'string') return context === '' ? undefined : context;
  if (Array.isArray(context)) {
    const parts = context.filter((part): part is string => typeof part === 'string' && part !== '');
    return parts.length === 0 ? undefined : parts.join('\n\n');
  }
  return undefined;
};

/** What `$.turn.abort` set on a dispatch's scope (read anew: hooks set it while it runs). */
const abortedOf = (scope: DispatchScope): string | undefined => scope.aborted;

/** The two members of the stack (see the module's doc). */
export interface ModsHooks {
  readonly outer: AgentHook;
  readonly inner: AgentHook;
  /** Releases the calls still waiting in core (`{ deny }`): the session is closing. */
  release(): void;
  /**
   * True when a mod hooks `classic.PreToolUse`: the hook session then hands the non-managed
   * PreToolUse hooks to `wrapPreToolUse` instead of seating them in its stack.
   */
  readonly wrapsPreToolUse: boolean;
  /** The settings' PreToolUse hooks `classic.PreToolUse` wraps (its core). */
  wrapPreToolUse(hooks: AgentHook): void;
}

export interface ModsHooksOptions {
  /** The project directory the permission rules are read against. */
  readonly projectDir: string;
  /** The settings' permission layer: `tool.check`'s core verdict. Absent: every call is allowed. */
  readonly permissions?: AgentPermissions;
}

export function createModsHooks(chain: ModsChain, options: ModsHooksOptions): ModsHooks {
  const pending = new Map<string, PendingCall>();
  /** `tool.check`'s answer per call, for hookwire's permission request of the same call. */
  const checked = new Map<string, Readonly<Record<string, unknown>>>();
  /** The `context` of a `{ result, context }` answer, given to the model with that result. */
  const suppliedContext = new Map<string, string | undefined>();
  const raise = (
    event: string,
    e: unknown,
    context: HookContext,
    core: (e: unknown) => unknown,
    scope: DispatchScope = { context },
  ): Promise<unknown> =>
    chain.dispatch(event, e, ENGINE_ORIGIN, (input) => Promise.resolve(core(input)), scope);

  // A call still waiting in core will not run now (the run stopped, the session ends).
  const release = (): void => {
    for (const call of pending.values()) call.resolveOutcome({ deny: 'the call did not run' });
    pending.clear();
    checked.clear();
  };
  const classicTool = chain.observes('classic.PreToolUse');
  const checks = chain.observes('tool.check');
  // `tool.check` fires for every call, inside `tool.call`'s core: the call goes through the chain.
  const toolChain = chain.observes('tool.call') || classicTool || checks;
  const outerKinds = new Set<HookEventKind>();
  if (toolChain) outerKinds.add('toolCall');
  if (chain.observes('prompt.submit') || chain.observes('classic.UserPromptSubmit'))
    outerKinds.add('promptSubmit');
  if (chain.observes('session.start') || chain.observes('classic.SessionStart'))
    outerKinds.add('sessionStart');
  // Also with tool.call hooks: a call still waiting in core is released when the session ends.
  if (
    chain.observes('session.end') ||
    chain.observes('classic.SessionEnd') ||
    outerKinds.has('toolCall')
  )
    outerKinds.add('sessionEnd');
  if (chain.observes('turn.complete') || chain.observes('classic.Stop')) outerKinds.add('stop');
  if (checks) outerKinds.add('permissionRequest');
  const innerKinds = new Set<HookEventKind>();
  if (toolChain || chain.observes('classic.PostToolUse')) innerKinds.add('toolResult');
  if (toolChain || chain.observes('classic.PostToolUseFailure')) innerKinds.add('toolFailure');

  /**
   * `tool.check` of one call, as Claude Code raises it for every call after the rules and the
   * settings hooks: core is hookwire's verdict on the arguments as they stand (the settings'
   * permission rules and mode; every call is allowed without them).
   */
  const toolCheck = async (
    toolName: string,
    toolCallId: string,
    args: unknown,
    context: HookContext,
    scope: DispatchScope,
  ): Promise<{ answer: Readonly<Record<string, unknown>>; core: unknown } | undefined> => {
    if (!checks) return undefined;
    let core: unknown;
    const answer = await raise(
      'tool.check',
      {
        tool: foreignToolName('claude', toolName),
        input: foreignToolInput('claude', toolName, args),
        tool_use_id: toolCallId,
      },
      context,
      async () => {
        if (options.permissions === undefined) return { decision: (core = 'allow') };
        const verdict = await decideCall(options.permissions, toolName, args, options.projectDir);
        core = verdict.behavior;
        return { decision: verdict.behavior, reason: verdict.reason };
      },
      scope,
    );
    return isRecord(answer) ? { answer, core } : undefined;
  };

  /**
   * The settings' PreToolUse hooks a `classic.PreToolUse` hook wraps (every group but the managed
   * policy's, which run before the mods): the hook session hands them over, and they run as that
   * event's core instead of in the stack.
   */
  let wrappedPreToolUse: AgentHook | undefined;

  /**
   * `classic.PreToolUse` inside `tool.call`'s core: `e` is the settings hooks' stdin JSON, core
   * runs them (on `e.tool_input` as the hook passed it on) and answers what they decided, as
   * Claude Code's `PreToolUseResult` (`{ deny }`, `{ ask }`, `{ updatedInput }`, or `{}`).
   */
  const classicPreToolUse = async (
    event: { readonly toolName: string; readonly toolCallId: string; readonly args: unknown },
    input: Record<string, unknown>,
    context: HookContext,
    scope: DispatchScope,
  ): Promise<Record<string, unknown>> => {
    if (!classicTool) return {};
    const { tool: _tool, tool_use_id: _id, agentId: _agent, ...toolInput } = input;
    const e = {
      hook_event_name: 'PreToolUse',
      tool_name: foreignToolName('claude', event.toolName),
      tool_input: toolInput,
      tool_use_id: event.toolCallId,
    };
    const answer = await raise(
      'classic.PreToolUse',
      e,
      context,
      async (given) => {
        const passed = isRecord(given) && isRecord(given.tool_input) ? given.tool_input : toolInput;
        const changed = JSON.stringify(passed) !== JSON.stringify(toolInput);
        const unchanged = changed ? { updatedInput: passed } : {};
        const hooks = wrappedPreToolUse;
        if (hooks?.onToolCall === undefined) return unchanged;
        const args = hookwireArgs(event.toolName, passed, context);
        const action = await hooks.onToolCall(context, {
          toolName: event.toolName,
          toolCallId: event.toolCallId,
          args,
          originalArgs: event.args,
        });
        switch (action.kind) {
          case 'skip':
            return action.ask === undefined ? { deny: action.reason } : { ask: action.reason };
          case 'stop':
            scope.aborted = action.reason;
            return { deny: action.reason };
          case 'rewrite':
            return { updatedInput: foreignToolInput('claude', event.toolName, action.args) };
          case 'result':
            return { ...unchanged, result: action.result };
          default:
            return unchanged;
        }
      },
      scope,
    );
    return isRecord(answer) ? answer : {};
  };

  const outer: AgentHook = {
    name: 'mods',
    observes: (kind) => outerKinds.has(kind),

    async onToolCall(context, event) {
      const e = claudeToolInput(event.toolName, event.toolCallId, event.args);
      let decide: (action: ToolCallAction) => void = () => undefined;
      const decided = new Promise<ToolCallAction>((resolve) => {
        decide = resolve;
      });
      let resolveOutcome: (outcome: unknown) => void = () => undefined;
      const outcome = new Promise<unknown>((resolve) => {
        resolveOutcome = resolve;
      });
      const scope: DispatchScope = { context };
      const call: PendingCall = {
        reachedCore: false,
        resolveOutcome,
        outcome: undefined,
        scope,
        answer: raise(
          'tool.call',
          e,
          context,
          async (input) => {
            const inputRecord = isRecord(input) ? { ...input } : e;
            const classic = await classicPreToolUse(event, inputRecord, context, scope);
            if (scope.aborted !== undefined) {
              decide(ToolCallAction.stop(scope.aborted));
              return { deny: scope.aborted };
            }
            if (typeof classic.deny === 'string') {
              decide(ToolCallAction.skip(classic.deny));
              return { deny: classic.deny };
            }
            if ('result' in classic) {
              // A settings hook supplied the result: the tool does not run, PostToolUse sees it.
              call.reachedCore = true;
              decide(ToolCallAction.result(classic.result));
              return outcome;
            }
            const rewritten = isRecord(classic.updatedInput)
              ? { ...inputRecord, ...classic.updatedInput }
              : inputRecord;
            const args = hookwireArgs(event.toolName, rewritten, context);
            const checkedCall = await toolCheck(
              event.toolName,
              event.toolCallId,
              args,
              context,
              scope,
            );
            const verdict = checkedCall?.answer;
            if (verdict?.decision === 'deny') {
              const reason = `Permission denied: ${typeof verdict.reason === 'string' ? verdict.reason : 'tool.check denied the call'}`;
              decide(ToolCallAction.skip(reason));
              return { deny: reason };
            }
            if (verdict !== undefined) checked.set(event.toolCallId, verdict);
            call.reachedCore = true;
            // A mod's own `ask` (where hookwire's rules allow) asks; hookwire's own ask goes on
            // to its permission layer (PermissionRequest hooks, the person at a terminal).
            if (
              verdict?.decision === 'ask' &&
              checkedCall?.core !== 'ask' &&
              typeof classic.ask !== 'string'
            )
              decide(
                ToolCallAction.ask(
                  typeof verdict.reason === 'string' ? verdict.reason : 'tool.check asks',
                  {
                    by: 'mod (tool.check)',
                    reason: typeof verdict.reason === 'string' ? verdict.reason : 'tool.check asks',
                  },
                ),
              );
            else if (typeof classic.ask === 'string')
              decide(
                ToolCallAction.ask(classic.ask, {
                  by: 'mod (classic.PreToolUse)',
                  reason: classic.ask,
                }),
              );
            else
              decide(
                JSON.stringify(args) === JSON.stringify(event.args)
                  ? ToolCallAction.run()
                  : ToolCallAction.rewrite(args),
              );
            // A tool.check hook's `$.turn.abort` ends the run after all.
            const aborted = abortedOf(scope);
            if (aborted !== undefined) decide(ToolCallAction.stop(aborted));
            return outcome;
          },
          scope,
        ),
      };
      pending.set(event.toolCallId, call);
      // An answer without core decides the call: `{ deny }` skips it.
      void call.answer.then(
        (answer) => {
          if (call.reachedCore) return;
          if (scope.aborted !== undefined) {
            decide(ToolCallAction.stop(scope.aborted));
            return;
          }
          if (isRecord(answer) && typeof answer.deny === 'string') {
            decide(ToolCallAction.skip(answer.deny));
            return;
          }
          // `{ result }` without `next`: the tool does not run; the model sees that result
          // (PostToolUse fires for it, and so does this chain's inner member, with no one waiting).
          if (isRecord(answer) && 'result' in answer) {
            const supplied = typeof answer.text === 'string' ? answer.text : answer.result;
            suppliedContext.set(event.toolCallId, contextOf(answer));
            decide(ToolCallAction.result(supplied));
            return;
          }
          decide(
            ToolCallAction.skip(
              `a mod answered tool.call for ${String(e.tool)} with neither { deny } nor { result }`,
            ),
          );
        },
        (error: unknown) => {
          decide(
            ToolCallAction.skip(
              `the mods' tool.call chain failed: ${error instanceof Error ? error.message : String(error)}`,
            ),
          );
        },
      );
      return decided;
    },

    async onPromptSubmit(context, event) {
      const e = { text: event.prompt, wait: false, origin: { kind: 'sdk' } };
      const scope: DispatchScope = { context };
      const answer = await raise(
        'prompt.submit',
        e,
        context,
        async (input) => {
          const text =
            isRecord(input) && typeof input.text === 'string' ? input.text : event.prompt;
          if (chain.observes('classic.UserPromptSubmit')) {
            const classic = await raise(
              'classic.UserPromptSubmit',
              { hook_event_name: 'UserPromptSubmit', prompt: text },
              context,
              () => ({}),
            );
            if (isRecord(classic) && typeof classic.deny === 'string')
              return { drop: classic.deny };
          }
          return {
            text,
            ...(isRecord(input) && Array.isArray(input.context) ? { context: input.context } : {}),
            origin: e.origin,
          };
        },
        scope,
      );
      if (scope.aborted !== undefined) return PromptSubmitAction.stop(scope.aborted);
      if (isRecord(answer) && typeof answer.drop === 'string')
        return PromptSubmitAction.deny(answer.drop);
      const text = isRecord(answer) && typeof answer.text === 'string' ? answer.text : event.prompt;
      const added = contextOf(answer);
      return text === event.prompt
        ? PromptSubmitAction.continue(added)
        : PromptSubmitAction.rewrite(text, added);
    },

    async onSessionStart(context, event) {
      await raise('session.start', { source: event.source }, context, async () => {
        if (chain.observes('classic.SessionStart'))
          await raise(
            'classic.SessionStart',
            { hook_event_name: 'SessionStart', source: event.source },
            context,
            () => ({}),
          );
        return {};
      });
      return ContextAction.continue();
    },

    async onSessionEnd(context, event) {
      if (!chain.observes('session.end') && !chain.observes('classic.SessionEnd')) {
        release();
        return ObservationAction.continue();
      }
      await raise('session.end', { reason: event.reason }, context, async () => {
        if (chain.observes('classic.SessionEnd'))
          await raise(
            'classic.SessionEnd',
            { hook_event_name: 'SessionEnd', reason: event.reason },
            context,
            () => ({}),
          );
        return {};
      });
      release();
      return ObservationAction.continue();
    },

    async onStop(context, event) {
      const answer = await raise(
        'turn.complete',
        { isAborted: false, answer: event.promptResponse, prompt: event.prompt },
        context,
        async () => {
          if (chain.observes('classic.Stop'))
            await raise(
              'classic.Stop',
              {
                hook_event_name: 'Stop',
                stop_hook_active: event.stopHookActive,
                prompt: event.prompt,
                prompt_response: event.promptResponse,
              },
              context,
              () => ({}),
            );
          return {};
        },
      );
      // `{ text }`: a line under the answer, which in a headless run is a report line.
      if (isRecord(answer) && typeof answer.text === 'string' && answer.text !== '')
        context.report({ level: 'message', text: answer.text, event: 'stop' });
      return StopAction.continue();
    },

    async onPermissionRequest(context, event) {
      // The call's tool.check already answered (inside tool.call's core): its verdict stands.
      const recorded = checked.get(event.toolCallId);
      checked.delete(event.toolCallId);
      const answer =
        recorded ??
        (await raise(
          'tool.check',
          {
            tool: foreignToolName('claude', event.toolName),
            input: foreignToolInput('claude', event.toolName, event.args),
            tool_use_id: event.toolCallId,
          },
          context,
          () => ({ decision: 'ask', reason: event.reason }),
        ));
      if (!isRecord(answer)) return PermissionRequestAction.continue();
      if (answer.decision === 'allow') return PermissionRequestAction.allow();
      if (answer.decision === 'deny')
        return PermissionRequestAction.deny(
          typeof answer.reason === 'string' ? answer.reason : 'a mod denied the call (tool.check)',
        );
      return PermissionRequestAction.continue();
    },
  };

  const settle = async (
    context: HookContext,
    toolCallId: string,
    outcome: Record<string, unknown>,
  ): Promise<{ answer: unknown; call: PendingCall } | undefined> => {
    checked.delete(toolCallId);
    const call = pending.get(toolCallId);
    if (call === undefined || !call.reachedCore) {
      pending.delete(toolCallId);
      return undefined;
    }
    pending.delete(toolCallId);
    call.outcome = outcome;
    call.resolveOutcome(outcome);
    return { answer: await call.answer, call };
  };

  const inner: AgentHook = {
    name: 'mods (after the tool)',
    observes: (kind) => innerKinds.has(kind),

    async onToolResult(context, event) {
      if (chain.observes('classic.PostToolUse'))
        await raise(
          'classic.PostToolUse',
          {
            hook_event_name: 'PostToolUse',
            tool_name: foreignToolName('claude', event.toolName),
            tool_input: foreignToolInput('claude', event.toolName, event.args),
            tool_use_id: event.toolCallId,
            tool_response: event.presentation,
          },
          context,
          () => ({}),
        );
      const core = event.skipped
        ? { deny: event.raw.error ?? textOf(event.presentation) }
        : { ref: event.toolCallId, result: event.presentation, text: textOf(event.presentation) };
      const settled = await settle(context, event.toolCallId, core);
      if (settled === undefined) {
        // A result a mod supplied: its `context` goes with it.
        const supplied = suppliedContext.get(event.toolCallId);
        suppliedContext.delete(event.toolCallId);
        return ToolResultAction.keep(supplied);
      }
      const { answer, call } = settled;
      if (call.scope.aborted !== undefined) return ToolResultAction.stop(call.scope.aborted);
      const added = contextOf(answer);
      if (!isRecord(answer)) return ToolResultAction.keep(added);
      // `{ deny }` after the tool ran: the model sees the refusal instead of the output.
      if (typeof answer.deny === 'string' && !event.skipped)
        return ToolResultAction.rewrite(answer.deny, added);
      if (event.skipped) return ToolResultAction.keep(added);
      if (typeof answer.text === 'string' && answer.text !== core.text)
        return ToolResultAction.rewrite(answer.text, added);
      if ('result' in answer && JSON.stringify(answer.result) !== JSON.stringify(core.result))
        return ToolResultAction.rewrite(answer.result, added);
      return ToolResultAction.keep(added);
    },

    async onToolFailure(context, event) {
      if (chain.observes('classic.PostToolUseFailure'))
        await raise(
          'classic.PostToolUseFailure',
          {
            hook_event_name: 'PostToolUseFailure',
            tool_name: foreignToolName('claude', event.toolName),
            tool_input: foreignToolInput('claude', event.toolName, event.args),
            tool_use_id: event.toolCallId,
            error: event.error,
          },
          context,
          () => ({}),
        );
      const core = { ref: event.toolCallId, isError: true, result: event.error, text: event.error };
      const settled = await settle(context, event.toolCallId, core);
      if (settled === undefined) return ContextAction.continue();
      const { answer } = settled;
      if (isRecord(answer) && (answer.text !== core.text || answer.result !== core.result))
        context.report({
          level: 'warning',
          text: `a mod rewrote the failure of ${event.toolName} (${event.toolCallId}); hookwire cannot rewrite a failed call's error, only add context`,
          event: 'toolFailure',
        });
      return ContextAction.continue(contextOf(answer));
    },
  };

  return {
    outer,
    inner,
    release,
    wrapsPreToolUse: classicTool,
    wrapPreToolUse(hooks) {
      wrappedPreToolUse = hooks;
    },
  };
}
