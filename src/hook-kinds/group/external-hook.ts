/**
 * Adapts one settings group into an `AgentHook`, generically over the event catalogue, so
 * command hooks compose through the same `HookStack` as in-process hooks: for the group's event,
 * the hook implements that event's method, which matches the group's matcher against the
 * event's matcher field, builds the payload (`external.toPayload`), runs the group and turns its
 * combined outcome into the event's action (`external.toAction`). Each group is one member of
 * the stack, so groups compose by the stack's rules (rewrites chain into later groups, the first
 * deny or stop short-circuits).
 */
import {
  buildHookInput,
  externalDefinition,
  type CombinedOutcome,
  type HookContext,
  type HookEventName,
  type HookInputFieldsMap,
  type OutcomeReasons,
} from '../../events/index.ts';
import { GUARDS_TOOL_CALLS, REPORTS_OWN_RUNS, type AgentHook } from '../../hooks/agent-hook.ts';
import type { ObservedHookRun } from '../../events/observed-hook-run.ts';
import type { HookRunRecord } from '../hook-run.ts';
import type { HookRunVerdict } from './hook-verdict.ts';
import { runHookGroup, type HookGroupRun, type HookProcessOptions } from './run-hook-group.ts';
import type { CommandRunner } from '../../supervision/index.ts';
import type { HookKindStates } from '../hook-kind.ts';
import type { HookGroupConfig } from '../settings/index.ts';
import type { CommandHookConfig } from '../settings/index.ts';

/** The dialect fields any hook of a dialect group may carry (see `CommandHookConfig`). */
type DialectHook = Partial<Pick<CommandHookConfig, 'if' | 'once' | 'async'>>;
const dialectFields = (hook: object): DialectHook => hook;
import type { EnvelopeFacts } from '../dialects/dialect-contract.ts';
import {
  foreignEnvelope,
  foreignOutcome,
  foreignPayload,
  hookwireRewrite,
  ifCovers,
} from '../dialects/translate.ts';

export { EVENT_KIND, requestPatchFromOverride, responseFromOverride } from '../../events/index.ts';

export interface CommandHookOptions {
  readonly runner: CommandRunner;
  /** Where hooks run; defaults to the session's `cwd`. */
  readonly projectDir?: string;
  /** SIGTERM → SIGKILL grace for hook process groups; the runner's default when absent. */
  readonly killGraceMs?: number;
  /** Called for every hook run as it settles (stream-json, `hooks fire`). */
  readonly onHookRun?: (record: HookRunRecord, verdict: HookRunVerdict) => void;
  /** Called with every group run and its combined outcome (used by `hooks fire`). */
  readonly onGroupRun?: (group: HookGroupConfig, run: HookGroupRun) => void;
  /**
   * The session's resources of the kinds that keep some (process hooks' processes, the prompt
   * hooks' judge); a hook whose kind needs them and finds none answers a failure (a warning, or
   * a denial when it fails closed).
   */
  readonly kinds?: HookKindStates;
  /** How hooks with `"environment": "scrubbed"` or `"sandbox": true` are confined. */
  readonly confinement?: HookProcessOptions;
  /** The session's `CLAUDE_ENV_FILE`, for the `SessionStart` hooks of Claude Code files. */
  readonly claudeEnvFile?: string;
}

function joined(parts: readonly string[]): string | undefined {
  return parts.length === 0 ? undefined : parts.join('\n');
}

/** The display name of a group: reads as "guard-shell (PreToolUse shell)" in messages and warnings. */
export function groupName(group: HookGroupConfig): string {
  const where =
    group.matcherSource === '' || group.matcherSource === '*'
      ? group.registeredAs
      : `${group.registeredAs} ${group.matcherSource}`;
  return `${group.hooks.map((hook) => hook.name).join(', ')} (${where})`;
}

/** Builds the `AgentHook` for one settings group. */
export function commandHookForGroup(
  group: HookGroupConfig,
  options: CommandHookOptions,
): AgentHook {
  const definition = externalDefinition(group.event);
  const { kind, method } = definition;
  // One event's view, widened: the group's event is only known at run time.
  const external = definition.external as {
    readonly matcher: string | undefined;
    toPayload(event: unknown): object;
    toAction(outcome: CombinedOutcome, event: unknown, reasons: OutcomeReasons): unknown;
  };
  const proceed: unknown = definition.compose.proceed;
  const name = groupName(group);
  // Hooks marked `once` that already ran in this session (one adapter per session).
  const ran = new Set<object>();
  const conditional = group.hooks.some(
    (hook) => dialectFields(hook).if !== undefined || dialectFields(hook).once === true,
  );
  // Without `if` or `once`, the hooks that run (and those that run in the background) are the
  // same for every event: split once.
  const unconditional = conditional ? undefined : splitByAsync(group);
  // What every run of the group shares (the per-event fields are added in `fire`).
  const shared = {
    runner: options.runner,
    ...(options.killGraceMs === undefined ? {} : { killGraceMs: options.killGraceMs }),
    ...(options.onHookRun === undefined ? {} : { onHookRun: options.onHookRun }),
    ...(options.kinds === undefined ? {} : { kinds: options.kinds }),
    ...(options.confinement === undefined ? {} : { confinement: options.confinement }),
    ...(options.claudeEnvFile === undefined ? {} : { claudeEnvFile: options.claudeEnvFile }),
  };

  async function fire(
    context: HookContext,
    fields: object,
    group: HookGroupConfig,
    facts: EnvelopeFacts = {},
  ): Promise<CombinedOutcome> {
    const session = context.session;
    const payload = buildHookInput(
      group.event,
      {
        session_id: session.sessionId,
        transcript_path: session.transcriptPath,
        cwd: session.cwd,
        ...(context.agent === undefined
          ? {}
          : { agent_id: context.agent.id, agent_type: context.agent.type }),
      },
      fields as HookInputFieldsMap[HookEventName],
      group.registeredAs,
    );
    // The payload is a plain JSON object; the runner only serialises it. A dialect with payloads
    // of its own (Cursor, Windsurf, Copilot CLI's camelCase events) gets it rebuilt in its shape.
    const complete = payload as unknown as Readonly<Record<string, unknown>>;
    const wire =
      group.dialect === undefined
        ? complete
        : foreignEnvelope(
            group.dialect,
            group.dialectEvent ?? group.registeredAs,
            group.event,
            complete,
            facts,
          );
    const run = await runHookGroup(group, wire, {
      ...shared,
      projectDir: options.projectDir ?? session.cwd,
      sessionId: session.sessionId,
      signal: context.signal,
      ...(context.recordHookRun === undefined
        ? {}
        : {
            onObservedRun: (observed: ObservedHookRun) => {
              context.recordHookRun?.(observed);
            },
          }),
    });
    options.onGroupRun?.(group, run);
    const combined = run.combined;
    for (const text of combined.systemMessages)
      context.report({ level: 'message', text, hookName: name, event: group.registeredAs });
    for (const text of combined.warnings)
      context.report({ level: 'warning', text, hookName: name, event: group.registeredAs });
    return combined;
  }

  /** match → payload → run group → action, for whatever event the group is registered for. */
  async function handle(context: HookContext, event: unknown): Promise<unknown> {
    const fields = external.toPayload(event) as Readonly<Record<string, unknown>>;
    const dialect = group.dialect;
    // A dialect's hook sees the payload (and matches) in its own tool's words.
    const view =
      dialect === undefined
        ? fields
        : foreignPayload(dialect, group.event, fields, {
            cwd: context.session.cwd,
          });
    const names = group.foreignNames === true ? view : fields;
    // What a dialect's own payload says beyond hookwire's (Cursor's `loop_count` at `stop`).
    const continuations = (event as { readonly continuations?: unknown }).continuations;
    const facts: EnvelopeFacts = typeof continuations === 'number' ? { continuations } : {};
    if (external.matcher !== undefined && !group.matcher.matches(names[external.matcher] as string))
      return proceed;
    const projectDir = options.projectDir ?? context.session.cwd;
    let split = unconditional;
    if (split === undefined) {
      const selected = await selectHooks(group, fields, projectDir, ran);
      if (selected === undefined) return proceed;
      split = splitByAsync(selected);
    }
    if (split.background !== undefined)
      // `async`: started, never waited for; its answer cannot change the action.
      void fire(context, view, split.background, facts).catch(() => undefined);
    if (split.waited === undefined) return proceed;
    let combined = await fire(context, view, split.waited, facts);
    if (dialect !== undefined) combined = foreignOutcome(dialect, group.event, fields, combined);
    if (dialect !== undefined && 'args' in combined && typeof fields['tool_name'] === 'string') {
      const back = hookwireRewrite(dialect, fields['tool_name'], combined.args);
      for (const text of back.dropped)
        context.report({ level: 'warning', text, hookName: name, event: group.registeredAs });
      combined = { ...combined, args: back.input };
    }
    return external.toAction(combined, event, {
      stop: () => joined(combined.stopReasons) ?? `stopped by ${name}`,
      deny: () => joined(combined.denyReasons) ?? `denied by ${name}`,
      context: () => joined(combined.additionalContexts),
    });
  }

  // Each run reports itself from the group runner (`onObservedRun`): the stack does not time it.
  // A PreToolUse group of the managed policy, or with a hook that fails closed, is a guard: a
  // later group's rewrite sends the final arguments through it once more.
  const guard =
    kind === 'toolCall' &&
    (group.layer === 'managed' || group.hooks.some((hook) => hook.failClosed));
  return {
    name,
    observes: (candidate) => candidate === kind,
    [method]: handle,
    [REPORTS_OWN_RUNS]: true,
    ...(guard ? { [GUARDS_TOOL_CALLS]: true as const } : {}),
  };
}

/**
 * The group's hooks marked `async` (started, never waited for) and the others, each as a group of
 * its own (`undefined` when there are none; the group itself when it is all of them).
 */
function splitByAsync(group: HookGroupConfig): {
  readonly background?: HookGroupConfig;
  readonly waited?: HookGroupConfig;
} {
  const background = group.hooks.filter((hook) => dialectFields(hook).async === true);
  const waited = group.hooks.filter((hook) => dialectFields(hook).async !== true);
  const part = (hooks: typeof group.hooks): HookGroupConfig =>
    hooks.length === group.hooks.length ? group : { ...group, hooks };
  return {
    ...(background.length === 0 ? {} : { background: part(background) }),
    ...(waited.length === 0 ? {} : { waited: part(waited) }),
  };
}

/**
 * The hooks of a group that run for this call: those whose `if` covers it and, for hooks
 * marked `once`, that have not run yet in the session (recorded in `ran`). `undefined` when none.
 */
async function selectHooks(
  group: HookGroupConfig,
  fields: Readonly<Record<string, unknown>>,
  projectDir: string,
  ran: Set<object>,
): Promise<HookGroupConfig | undefined> {
  // The rule's tool names: the dialect's in its own files, hookwire's in hookwire's files.
  const ruleNames = group.foreignNames === true ? 'dialect' : 'hookwire';
  const toolName = typeof fields['tool_name'] === 'string' ? fields['tool_name'] : '';
  const covered = await Promise.all(
    group.hooks.map((config) => {
      const condition = dialectFields(config).if;
      return condition === undefined
        ? Promise.resolve(true)
        : ifCovers(group.dialect, condition, toolName, fields['tool_input'], projectDir, ruleNames);
    }),
  );
  const hooks = group.hooks.filter((config, index) => {
    const hook = dialectFields(config);
    return covered[index] === true && !(hook.once === true && ran.has(hook));
  });
  for (const hook of hooks) if (dialectFields(hook).once === true) ran.add(hook);
  if (hooks.length === 0) return undefined;
  return hooks.length === group.hooks.length ? group : { ...group, hooks };
}
