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
  cwd: string,
): Record<string, unknown> {
  const input = foreignToolInput('claude', toolName, args, { cwd });
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

/** The contexts given, joined as hookwire joins hook contexts (undefined when none). */
const joinContexts = (...parts: readonly (string | undefined)[]): string | undefined =>
  contextOf({ context: parts });

/** What `$.turn.abort` set on a dispatch's scope (read anew: hooks set it while it runs). */
const abortedOf = (scope: DispatchScope): string | undefined => scope.aborted;

/** The two members of the stack (see the module's doc). */
export interface ModsHooks {
  readonly outer: AgentHook;
  readonly inner: AgentHook;
  /** Releases the calls still waiting in core (`{ deny }`): the session is closing. */
  release(): void;
  /**
   * The settings-hook events (`PreToolUse`, `Stop`, …) whose `classic.<Event>` a mod hooks: the
   * hook session hands each one's non-managed groups to `wrap` instead of seating them in its
   * stack, and they run as that event's core.
   */
  readonly wraps: readonly WrappableEvent[];
  /** The settings hooks of `event` its `classic.<Event>` wraps (its core). */
  wrap(event: WrappableEvent, hooks: AgentHook): void;
}

/** The settings-hook events a `classic.<Event>` mod hook wraps (the others are raised beside). */
export const WRAPPABLE_EVENTS = [
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'UserPromptSubmit',
  'Stop',
  'SessionStart',
  'SessionEnd',
] as const;
export type WrappableEvent = (typeof WRAPPABLE_EVENTS)[number];

/**
 * Where a PostToolUse answer replaces what the model sees: `updatedToolOutput` for every tool,
 * `updatedMCPToolOutput` only for an MCP tool (`mcp__…`), as Claude Code reads them (2.1.332
 * ignores `updatedMCPToolOutput` for `Bash`).
 */
const outputField = (toolName: unknown): 'updatedToolOutput' | 'updatedMCPToolOutput' =>
  typeof toolName === 'string' && toolName.startsWith('mcp__')
    ? 'updatedMCPToolOutput'
    : 'updatedToolOutput';

/**
 * The replacement output a `classic.PostToolUse` answer carries, or `undefined`: its
 * `updatedToolOutput` (`updatedMCPToolOutput` for an MCP tool). A `Bash` response object
 * (`{ stdout, stderr, … }`) stands for its text, as Claude Code shows the model.
 */
function updatedOutputOf(
  post: Readonly<Record<string, unknown>>,
  toolName: string,
): { readonly output: unknown } | undefined {
  const field =
    'updatedToolOutput' in post
      ? 'updatedToolOutput'
      : outputField(toolName) === 'updatedMCPToolOutput' && 'updatedMCPToolOutput' in post
        ? 'updatedMCPToolOutput'
        : undefined;
  if (field === undefined) return undefined;
  const output = post[field];
  if (isRecord(output) && typeof output.stdout === 'string') {
    const stderr = typeof output.stderr === 'string' && output.stderr !== '' ? output.stderr : '';
    return { output: stderr === '' ? output.stdout : `${output.stdout}\n${stderr}` };
  }
  return { output };
}

/** A call's input without the fields `tool.call` adds (`tool`, `tool_use_id`, `agentId`). */
function withoutReserved(e: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const { tool: _tool, tool_use_id: _id, agentId: _agent, ...input } = e;
  return input;
}

/** A hook's additional context as Claude Code's result carries it: a list of strings. */
const additionalContextOf = (answer: Readonly<Record<string, unknown>>): string | undefined =>
  contextOf({ context: answer.additionalContext });

/**
 * What the wrapped settings hooks decided (one hookwire action, their stack's combined answer)
 * as a `classic.<Event>` result in Claude Code's names: `{ deny }`, `{ ask }`, `{ block }` (a Stop
 * hook sends the agent back), `{ additionalContext: [..] }`, `{ updatedToolOutput }` (a
 * PostToolUse rewrite; `updatedMCPToolOutput` for an MCP tool). A `stop` marks the dispatch's scope, as `$.turn.abort` does.
 */
function classicResult(
  action: unknown,
  scope: DispatchScope,
  e: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  if (!isRecord(action)) return {};
  const reason = typeof action.reason === 'string' ? action.reason : '';
  const context =
    typeof action.additionalContext === 'string'
      ? { additionalContext: [action.additionalContext] }
      : {};
  switch (action.kind) {
    case 'stop':
      scope.aborted = reason;
      return {};
    case 'deny':
      return { deny: reason };
    case 'block':
      return { block: reason };
    case 'rewrite':
      return 'presentation' in action
        ? { ...context, [outputField(e.tool_name)]: action.presentation }
        : context;
    default:
      return context;
  }
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
        input: foreignToolInput('claude', toolName, args, { cwd: context.session.cwd }),
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
   * The settings hooks each `classic.<Event>` hook wraps (every group of that event but the
   * managed policy's, which run before the mods): the hook session hands them over, and they run
   * as that event's core instead of in the stack.
   */
  const wrapped = new Map<WrappableEvent, AgentHook>();

  /**
   * Raises `classic.<event>` with `e` (the settings hooks' stdin JSON). Core runs the wrapped
   * settings hooks through `run` on what the hook passed to `next` and answers their decision
   * as Claude Code's result (`classicResult`); without wrapped hooks it answers `{}`.
   */
  const classic = async (
    event: WrappableEvent,
    e: Readonly<Record<string, unknown>>,
    context: HookContext,
    scope: DispatchScope,
    run: (hooks: AgentHook, given: Readonly<Record<string, unknown>>) => Promise<unknown>,
  ): Promise<Readonly<Record<string, unknown>>> => {
    if (!chain.observes(`classic.${event}`)) return {};
    const answer = await raise(
      `classic.${event}`,
      e,
      context,
      async (given) => {
        const hooks = wrapped.get(event);
        if (hooks === undefined) return {};
        const passed = isRecord(given) ? given : e;
        return classicResult(await run(hooks, passed), scope, passed);
      },
      scope,
    );
    return isRecord(answer) ? answer : {};
  };

  /**
   * `classic.PreToolUse` inside `tool.call`'s core: `e` is the call as `tool.call` has it (the
   * tool's input with `tool` and `tool_use_id`), as Claude Code 2.1.332 raises it; core runs the
   * settings hooks on the input the hook passed on (`next({ ...e, command })`) and answers what
   * they decided, as Claude Code's `PreToolUseResult` (`{ deny }`, `{ ask }`, `{ updatedInput }`,
   * `{ additionalContext }`, or `{}`).
   */
  const classicPreToolUse = async (
    event: { readonly toolName: string; readonly toolCallId: string; readonly args: unknown },
    input: Record<string, unknown>,
    context: HookContext,
    scope: DispatchScope,
  ): Promise<Record<string, unknown>> => {
    if (!classicTool) return {};
    const toolInput = withoutReserved(input);
    const e = {
      ...toolInput,
      tool: foreignToolName('claude', event.toolName),
      tool_use_id: event.toolCallId,
    };
    const answer = await raise(
      'classic.PreToolUse',
      e,
      context,
      async (given) => {
        const passed = isRecord(given) ? withoutReserved(given) : toolInput;
        const changed = JSON.stringify(passed) !== JSON.stringify(toolInput);
        const unchanged = changed ? { updatedInput: passed } : {};
        const hooks = wrapped.get('PreToolUse');
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
            return {
              updatedInput: foreignToolInput('claude', event.toolName, action.args, {
                cwd: context.session.cwd,
              }),
            };
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
      const e = claudeToolInput(event.toolName, event.toolCallId, event.args, context.session.cwd);
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
                // Compared in Claude's words: `e` carries paths made absolute, which are no
                // rewrite of the call when the mods passed them on unchanged.
                JSON.stringify(rewritten) === JSON.stringify(e) ||
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
          const submitted = await classic(
            'UserPromptSubmit',
            { hook_event_name: 'UserPromptSubmit', prompt: text },
            context,
            scope,
            async (hooks, given) =>
              hooks.onPromptSubmit?.(context, {
                prompt: typeof given.prompt === 'string' ? given.prompt : text,
              }),
          );
          const refused = submitted.deny ?? submitted.block;
          if (typeof refused === 'string') return { drop: refused };
          const given: readonly unknown[] =
            isRecord(input) && Array.isArray(input.context) ? input.context : [];
          const added = additionalContextOf(submitted);
          const joined = added === undefined ? given : [...given, added];
          return { text, ...(joined.length === 0 ? {} : { context: joined }), origin: e.origin };
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
      const scope: DispatchScope = { context };
      let added: string | undefined;
      await raise(
        'session.start',
        { source: event.source },
        context,
        async () => {
          const started = await classic(
            'SessionStart',
            { hook_event_name: 'SessionStart', source: event.source },
            context,
            scope,
            async (hooks) => hooks.onSessionStart?.(context, event),
          );
          added = additionalContextOf(started);
          return {};
        },
        scope,
      );
      if (scope.aborted !== undefined) return ContextAction.stop(scope.aborted);
      return ContextAction.continue(added);
    },

    async onSessionEnd(context, event) {
      if (!chain.observes('session.end') && !chain.observes('classic.SessionEnd')) {
        release();
        return ObservationAction.continue();
      }
      const scope: DispatchScope = { context };
      await raise(
        'session.end',
        { reason: event.reason },
        context,
        async () => {
          // The settings SessionEnd hooks run inside it: a mod that answers without next skips them.
          await classic(
            'SessionEnd',
            { hook_event_name: 'SessionEnd', reason: event.reason },
            context,
            scope,
            async (hooks) => hooks.onSessionEnd?.(context, event),
          );
          return {};
        },
        scope,
      );
      release();
      return ObservationAction.continue();
    },

    async onStop(context, event) {
      const scope: DispatchScope = { context };
      let block: string | undefined;
      const answer = await raise(
        'turn.complete',
        { isAborted: false, answer: event.promptResponse, prompt: event.prompt },
        context,
        async () => {
          const stopped = await classic(
            'Stop',
            {
              hook_event_name: 'Stop',
              stop_hook_active: event.stopHookActive,
              prompt: event.prompt,
              prompt_response: event.promptResponse,
            },
            context,
            scope,
            async (hooks) => hooks.onStop?.(context, event),
          );
          if (typeof stopped.block === 'string' && stopped.block !== '') block = stopped.block;
          return {};
        },
        scope,
      );
      // `{ text }`: a line under the answer, which in a headless run is a report line.
      if (isRecord(answer) && typeof answer.text === 'string' && answer.text !== '')
        context.report({ level: 'message', text: answer.text, event: 'stop' });
      if (scope.aborted !== undefined) return StopAction.stop(scope.aborted);
      // `{ block }`: the agent goes on, with the reason as its next instruction.
      return block === undefined ? StopAction.continue() : StopAction.block(block);
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
            input: foreignToolInput('claude', event.toolName, event.args, {
              cwd: context.session.cwd,
            }),
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

  /**
   * `classic.PostToolUse` / `classic.PostToolUseFailure` of a call that ran: `e` is the settings
   * hooks' stdin JSON (`fields` adds the response or the error). Answers what the mod answered and
   * its context (a `block` reason is context, as in Claude Code), or `stopped` when a wrapped hook
   * ended the run: then the call's `tool.call` hooks still waiting in core see it end refused.
   */
  const classicAfterTool = async (
    name: 'PostToolUse' | 'PostToolUseFailure',
    call: { readonly toolName: string; readonly toolCallId: string; readonly args: unknown },
    fields: Readonly<Record<string, unknown>>,
    context: HookContext,
    run: (hooks: AgentHook) => Promise<unknown>,
  ): Promise<
    | { readonly answer: Readonly<Record<string, unknown>>; readonly context: string | undefined }
    | { readonly stopped: string }
  > => {
    const scope: DispatchScope = { context };
    const answer = await classic(
      name,
      {
        hook_event_name: name,
        tool_name: foreignToolName('claude', call.toolName),
        tool_input: foreignToolInput('claude', call.toolName, call.args, {
          cwd: context.session.cwd,
        }),
        tool_use_id: call.toolCallId,
        ...fields,
      },
      context,
      scope,
      run,
    );
    if (scope.aborted !== undefined) {
      pending.get(call.toolCallId)?.resolveOutcome({ deny: scope.aborted });
      pending.delete(call.toolCallId);
      return { stopped: scope.aborted };
    }
    return {
      answer,
      context: joinContexts(
        additionalContextOf(answer),
        typeof answer.block === 'string' ? answer.block : undefined,
      ),
    };
  };

  const inner: AgentHook = {
    name: 'mods (after the tool)',
    observes: (kind) => innerKinds.has(kind),

    async onToolResult(context, event) {
      const raised = await classicAfterTool(
        'PostToolUse',
        event,
        { tool_response: event.presentation },
        context,
        async (hooks) => hooks.onToolResult?.(context, event),
      );
      if ('stopped' in raised) return ToolResultAction.stop(raised.stopped);
      // What classic.PostToolUse answered: context (a `block` reason is one, as in Claude Code)
      // and a rewrite of what the model sees, which tool.call's hooks then see as core's result.
      const { answer: post, context: postContext } = raised;
      const updated = event.skipped
        ? undefined
        : updatedOutputOf(post, foreignToolName('claude', event.toolName));
      const presentation = updated === undefined ? event.presentation : updated.output;
      const keep = (added: string | undefined): ToolResultAction =>
        presentation === event.presentation
          ? ToolResultAction.keep(joinContexts(postContext, added))
          : ToolResultAction.rewrite(presentation, joinContexts(postContext, added));
      const core = event.skipped
        ? { deny: event.raw.error ?? textOf(presentation) }
        : { ref: event.toolCallId, result: presentation, text: textOf(presentation) };
      const settled = await settle(context, event.toolCallId, core);
      if (settled === undefined) {
        // A result a mod supplied: its `context` goes with it.
        const supplied = suppliedContext.get(event.toolCallId);
        suppliedContext.delete(event.toolCallId);
        return keep(supplied);
      }
      const { answer, call } = settled;
      if (call.scope.aborted !== undefined) return ToolResultAction.stop(call.scope.aborted);
      const added = contextOf(answer);
      if (!isRecord(answer)) return keep(added);
      const withPost = joinContexts(postContext, added);
      // `{ deny }` after the tool ran: the model sees the refusal instead of the output.
      if (typeof answer.deny === 'string' && !event.skipped)
        return ToolResultAction.rewrite(answer.deny, withPost);
      if (event.skipped) return keep(added);
      if (typeof answer.text === 'string' && answer.text !== core.text)
        return ToolResultAction.rewrite(answer.text, withPost);
      if ('result' in answer && JSON.stringify(answer.result) !== JSON.stringify(core.result))
        return ToolResultAction.rewrite(answer.result, withPost);
      return keep(added);
    },

    async onToolFailure(context, event) {
      // The settings PostToolUseFailure hooks run inside it: their context is what it answers.
      const raised = await classicAfterTool(
        'PostToolUseFailure',
        event,
        { error: event.error },
        context,
        async (hooks) => hooks.onToolFailure?.(context, event),
      );
      if ('stopped' in raised) return ContextAction.stop(raised.stopped);
      const failedContext = raised.context;
      const core = { ref: event.toolCallId, isError: true, result: event.error, text: event.error };
      const settled = await settle(context, event.toolCallId, core);
      if (settled === undefined) return ContextAction.continue(failedContext);
      const { answer } = settled;
      if (isRecord(answer) && (answer.text !== core.text || answer.result !== core.result))
        context.report({
          level: 'warning',
          text: `a mod rewrote the failure of ${event.toolName} (${event.toolCallId}); hookwire cannot rewrite a failed call's error, only add context`,
          event: 'toolFailure',
        });
      return ContextAction.continue(joinContexts(failedContext, contextOf(answer)));
    },
  };

  return {
    outer,
    inner,
    release,
    wraps: WRAPPABLE_EVENTS.filter((event) => chain.observes(`classic.${event}`)),
    wrap(event, hooks) {
      wrapped.set(event, hooks);
    },
  };
}
