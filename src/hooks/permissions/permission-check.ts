/**
 * The permission check of one tool call, after PreToolUse and before the tool runs (Claude Code's
 * order: PreToolUse hooks run first and may skip or rewrite the call; the permission rules and
 * mode then decide on the arguments as rewritten). `deny` refuses; `allow` runs; `ask` fires the
 * `PermissionRequest` event (in-process `onPermissionRequest` and settings-file
 * `PermissionRequest` hooks, one stack), and when no hook decides the host's `PermissionApprover`
 * (a person at a terminal) is asked once, after a `permission_prompt` Notification; a host without
 * one (a headless run has nobody else to ask) refuses the call, and the Notification says so.
 * A PreToolUse hook's `ask` (`hookAsk`) asks the same way even where the rules would allow.
 *
 * Shared by every tool runner: the loop's tool step (`src/loop/permission-step.ts`) and the AI
 * SDK's wrapped tools (`hookwire/ai-sdk`). Each fires the two events through its own hooks with
 * its own cancellation and reporting (`PermissionAsker`); the decisions are made here only.
 */
import { realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type {
  McpContext,
  NotificationEvent,
  PermissionRequestAction,
  PermissionRequestEvent,
} from '../../events/index.ts';
import {
  BUILTIN_TOOL_KINDS,
  decidePermission,
  type PermissionDecision,
  type PermissionMode,
  type PermissionRules,
  type PermissionToolKinds,
} from './permission-decision.ts';
import type { ApprovalRequest, PermissionApprover } from './permission-approver.ts';
import { findMatchingRule, ruleCoversTool, type PermissionCall } from './permission-rule.ts';
import { analyzeShellCommand } from './shell-analyzer.ts';

/**
 * The permission layer of an agent. Without it (the default) every call runs, as before rules
 * existed. With it, each call is decided by `decidePermission` (see `PermissionMode`).
 */
export interface AgentPermissions {
  readonly rules: PermissionRules;
  /** Default `default`. */
  readonly mode?: PermissionMode;
  /** Where `~/` in rules points. Default `os.homedir()`. */
  readonly homeDir?: string;
  /** Which tools read, edit or run commands. Default the built-in tools. */
  readonly toolKinds?: PermissionToolKinds;
}

/** The outcome of the permission check: run with `args`, or refuse with `reason`. */
export type PermissionOutcome =
  | { readonly kind: 'run'; readonly args: unknown }
  | { readonly kind: 'refuse'; readonly reason: string };

/** One tool call to check. */
export interface PermissionCheckCall {
  readonly toolName: string;
  readonly toolCallId: string;
  /** The arguments as PreToolUse left them. */
  readonly args: unknown;
  /** An MCP tool's server and name on it: `mcp_context` of the PermissionRequest payload. */
  readonly mcpContext?: McpContext;
  /**
   * A PreToolUse hook asked (`permissionDecision: "ask"`): who and why. The call is asked for
   * even when a rule or the mode would allow it (a deny rule still refuses it).
   */
  readonly hookAsk?: { readonly by: string; readonly reason: string };
}

/**
 * How a tool runner fires the two events a permission check may need, through its own hooks,
 * cancellation and reporting. Each resolves to `undefined` when no hook observes the event
 * (nothing is built or called then).
 */
export interface PermissionAsker {
  permissionRequest(event: PermissionRequestEvent): Promise<PermissionRequestAction | undefined>;
  notification(event: NotificationEvent): Promise<unknown>;
  /** A person to ask when no hook decides (an interactive terminal). Absent: refuse. */
  readonly approver?: PermissionApprover;
  /** Ends a prompt in progress (the run's cancellation). */
  readonly signal?: AbortSignal;
  /** The subagent whose call it is, shown in the prompt; absent for the main agent. */
  readonly agentName?: string;
}

async function realPathOrSelf(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    return path;
  }
}

/** The facts of a call rules match against: its command, or every form of its path. */
export async function permissionCallOf(
  toolName: string,
  args: unknown,
  cwd: string,
): Promise<PermissionCall> {
  const record = typeof args === 'object' && args !== null ? (args as Record<string, unknown>) : {};
  if (typeof record.command === 'string') return { toolName, command: record.command };
  const path =
    typeof record.path === 'string'
      ? record.path
      : typeof record.file_path === 'string'
        ? record.file_path
        : undefined;
  if (path === undefined) return { toolName, paths: [resolve(cwd, '.')] };
  const absolute = resolve(cwd, path);
  const real = await realPathOrSelf(absolute);
  return { toolName, paths: real === absolute ? [absolute] : [absolute, real] };
}

/**
 * For a tool that reads many files in one call (`grep` over a directory, `glob`): whether the
 * file at the absolute `path` is withheld from it, because a deny or ask rule with a path that
 * binds `toolName` covers it (`read_file(.env)` binds `grep` and `glob`, see
 * `PATH_RULE_FAMILIES`). The call itself is decided as usual; such files are left out of it, as
 * if they were not there. `undefined` when no rule could withhold anything.
 */
export function withheldFiles(
  permissions: AgentPermissions | undefined,
  toolName: string,
): ((path: string, cwd: string) => boolean) | undefined {
  if (permissions === undefined) return undefined;
  const rules = [...permissions.rules.deny, ...permissions.rules.ask].filter(
    (rule) => rule.specifier !== undefined && ruleCoversTool(rule, toolName),
  );
  if (rules.length === 0) return undefined;
  const homeDir = permissions.homeDir ?? homedir();
  return (path, cwd) =>
    findMatchingRule(rules, { toolName, paths: [path] }, { projectDir: cwd, homeDir }, 'any') !==
    undefined;
}

/**
 * `call` with its command analysed when something will read the analysis: a command rule that
 * covers the tool, or `acceptEdits` for a shell tool. Otherwise the parser is never loaded.
 */
async function analyzedCall(
  permissions: AgentPermissions,
  call: PermissionCall,
): Promise<PermissionCall> {
  if (call.command === undefined) return call;
  const { allow, deny, ask } = permissions.rules;
  const kinds = permissions.toolKinds ?? BUILTIN_TOOL_KINDS;
  const needed =
    (permissions.mode === 'acceptEdits' && kinds.shell.has(call.toolName)) ||
    [deny, ask, allow].some((rules) =>
      rules.some((rule) => rule.specifier !== undefined && ruleCoversTool(rule, call.toolName)),
    );
  return needed ? { ...call, shell: await analyzeShellCommand(call.command) } : call;
}

/**
 * Decides one call with the agent's permissions (pure but for resolving the call's paths and
 * parsing its command).
 */
export async function decideCall(
  permissions: AgentPermissions,
  toolName: string,
  args: unknown,
  cwd: string,
): Promise<PermissionDecision> {
  const call = await analyzedCall(permissions, await permissionCallOf(toolName, args, cwd));
  return decidePermission(call, {
    rules: permissions.rules,
    mode: permissions.mode ?? 'default',
    context: { projectDir: cwd, homeDir: permissions.homeDir ?? homedir() },
    ...(permissions.toolKinds === undefined ? {} : { toolKinds: permissions.toolKinds }),
  });
}

/**
 * Runs the permission check of one call (see the module comment) for a project at `cwd`.
 * `validate` checks an `updatedInput` against the tool's schema (a message when it does not
 * match: the call is refused); an updated input is decided again, so a deny rule still binds
 * what actually runs.
 */
export async function resolvePermission(
  permissions: AgentPermissions,
  call: PermissionCheckCall,
  cwd: string,
  asker: PermissionAsker,
  validate: (args: unknown) => string | undefined | Promise<string | undefined>,
): Promise<PermissionOutcome> {
  const decision = await decideCall(permissions, call.toolName, call.args, cwd);
  if (decision.behavior === 'allow' && call.hookAsk === undefined)
    return { kind: 'run', args: call.args };
  if (decision.behavior === 'deny')
    return { kind: 'refuse', reason: `Permission denied: ${decision.reason}.` };

  const mode = permissions.mode ?? 'default';
  const reason = call.hookAsk?.reason ?? decision.reason;
  const request: ApprovalRequest = {
    toolName: call.toolName,
    toolCallId: call.toolCallId,
    args: call.args,
    reason,
    askedBy:
      call.hookAsk?.by ??
      (decision.rule === undefined
        ? `the ${mode} permission mode`
        : `the permission rule ${decision.rule.source}`),
    ...(asker.agentName === undefined ? {} : { agentName: asker.agentName }),
  };
  // An earlier "allow always" at the terminal acts as a session allow rule.
  if (asker.approver?.covers(request) === true) return { kind: 'run', args: call.args };
  const action = await asker.permissionRequest({
    toolName: call.toolName,
    toolCallId: call.toolCallId,
    args: call.args,
    reason,
    mode,
    ...(decision.rule === undefined ? {} : { rule: decision.rule.source }),
    ...(call.mcpContext === undefined ? {} : { mcpContext: call.mcpContext }),
  });
  if (action?.kind === 'deny')
    return { kind: 'refuse', reason: `Permission denied: ${action.message}` };
  if (action?.kind === 'allow') {
    if (action.updatedInput === undefined) return { kind: 'run', args: call.args };
    const invalid = await validate(action.updatedInput);
    if (invalid !== undefined)
      return {
        kind: 'refuse',
        reason: `Permission denied: the PermissionRequest answer's updatedInput does not match the tool's schema: ${invalid}`,
      };
    const again = await decideCall(permissions, call.toolName, action.updatedInput, cwd);
    if (again.behavior === 'deny')
      return { kind: 'refuse', reason: `Permission denied: ${again.reason}.` };
    return { kind: 'run', args: action.updatedInput };
  }

  const approver = asker.approver;
  const message =
    approver === undefined
      ? `${call.toolName} needs permission (${reason}) and no PermissionRequest hook decided; the call was denied because nobody can be asked in a headless run.`
      : `${call.toolName} needs permission (${reason}): waiting for an answer at the terminal.`;
  await asker.notification({
    notificationType: 'permission_prompt',
    message,
    details: {
      tool_name: call.toolName,
      tool_input: call.args,
      tool_call_id: call.toolCallId,
      permission_mode: mode,
      ...(decision.rule === undefined ? {} : { permission_rule: decision.rule.source }),
    },
  });
  if (approver === undefined) return { kind: 'refuse', reason: `Permission denied: ${message}` };
  const answer = await approver.ask(request, asker.signal);
  if (answer !== 'deny') return { kind: 'run', args: call.args };
  return {
    kind: 'refuse',
    reason:
      asker.signal?.aborted === true
        ? 'Permission denied: the run was cancelled while the approval prompt waited.'
        : `Permission denied: the user denied ${call.toolName} at the terminal.`,
  };
}
