/**
 * Whether a tool call runs, needs asking, or is refused: the permission rules and the permission
 * mode, with the meanings Claude Code gives them. Pure.
 */
import {
  findRuleMatch,
  type PermissionCall,
  type PermissionRule,
  type RuleContext,
} from './permission-rule.ts';
import type { ShellAnalysis } from './shell-analysis.ts';

/**
 * The permission modes, named and meant as in Claude Code:
 * - `default`: reads run; edits and commands need an allow rule, else they are asked for.
 * - `acceptEdits`: as `default`, and file edits (inside the project and added directories:
 *   the file tools refuse anything else) and plain file-system commands (`mkdir`, `touch`, `mv`,
 *   `cp`) run without asking.
 * - `plan`: reads run and commands are asked for as in `default`; file edits are refused, even
 *   with an allow rule (the model plans, it does not change the project).
 * - `bypassPermissions`: everything runs without asking, except what a deny rule refuses or an
 *   ask rule asks for (rules still bind; only the fallback changes). For isolated containers.
 */
export type PermissionMode = 'default' | 'acceptEdits' | 'plan' | 'bypassPermissions';

export const PERMISSION_MODES: readonly PermissionMode[] = [
  'default',
  'acceptEdits',
  'plan',
  'bypassPermissions',
];

/** The three rule lists; `deny` beats `ask` beats `allow`. */
export interface PermissionRules {
  readonly allow: readonly PermissionRule[];
  readonly deny: readonly PermissionRule[];
  readonly ask: readonly PermissionRule[];
}

/** Which tools read, edit or run commands; the built-in tools by default. */
export interface PermissionToolKinds {
  readonly read: ReadonlySet<string>;
  readonly edit: ReadonlySet<string>;
  readonly shell: ReadonlySet<string>;
}

export const BUILTIN_TOOL_KINDS: PermissionToolKinds = {
  read: new Set(['read_file', 'glob', 'grep']),
  edit: new Set(['write_file', 'edit_file']),
  shell: new Set(['shell']),
};

/** What the rules and the mode decide for one call; `rule` is the rule that decided, if one did. */
export interface PermissionDecision {
  readonly behavior: 'allow' | 'deny' | 'ask';
  readonly reason: string;
  readonly rule?: PermissionRule;
}

/** Everything `decidePermission` weighs. */
export interface PermissionPolicy {
  readonly rules: PermissionRules;
  readonly mode: PermissionMode;
  readonly context: RuleContext;
  readonly toolKinds?: PermissionToolKinds;
}

const FILE_SYSTEM_COMMANDS = new Set(['mkdir', 'touch', 'mv', 'cp']);

/**
 * `acceptEdits` runs a command without asking when each simple command it would run is one of
 * these, without redirection, and all are known.
 */
function isFileSystemCommand(shell: ShellAnalysis | undefined): boolean {
  if (shell === undefined || shell.unknown.length > 0 || shell.commands.length === 0) return false;
  return shell.commands.every(
    (command) => !command.redirects && FILE_SYSTEM_COMMANDS.has(command.words[0] ?? ''),
  );
}

/**
 * Decides one call, in this order: a deny rule refuses; an ask rule asks; `plan` refuses edits;
 * `bypassPermissions` allows; an allow rule allows; reads are allowed; `acceptEdits` allows
 * edits and file-system commands; anything else is asked for.
 */
export function decidePermission(
  call: PermissionCall,
  policy: PermissionPolicy,
): PermissionDecision {
  const kinds = policy.toolKinds ?? BUILTIN_TOOL_KINDS;
  const { rules, mode, context } = policy;
  const denied = findRuleMatch(rules.deny, call, context, 'any');
  if (denied !== undefined)
    return {
      behavior: 'deny',
      reason:
        denied.unknown === undefined
          ? `denied by the permission rule ${denied.rule.source}`
          : `${denied.unknown}, and the deny rule ${denied.rule.source} names ${call.toolName}: a command that cannot be known before it runs is denied`,
      rule: denied.rule,
    };
  const asked = findRuleMatch(rules.ask, call, context, 'any');
  if (asked !== undefined)
    return {
      behavior: 'ask',
      reason:
        asked.unknown === undefined
          ? `the permission rule ${asked.rule.source} asks first`
          : `${asked.unknown}, and the ask rule ${asked.rule.source} names ${call.toolName}: a command that cannot be known before it runs is asked for`,
      rule: asked.rule,
    };
  const isEdit = kinds.edit.has(call.toolName);
  if (mode === 'plan' && isEdit)
    return {
      behavior: 'deny',
      reason: `plan mode: ${call.toolName} is not run; the project is not changed while planning`,
    };
  if (mode === 'bypassPermissions')
    return { behavior: 'allow', reason: 'bypassPermissions mode runs every call' };
  const allowed = findRuleMatch(rules.allow, call, context, 'every');
  if (allowed !== undefined)
    return {
      behavior: 'allow',
      reason: `allowed by the permission rule ${allowed.rule.source}`,
      rule: allowed.rule,
    };
  if (kinds.read.has(call.toolName)) return { behavior: 'allow', reason: 'reads need no approval' };
  if (mode === 'acceptEdits') {
    if (isEdit) return { behavior: 'allow', reason: 'acceptEdits mode runs file edits' };
    if (kinds.shell.has(call.toolName) && isFileSystemCommand(call.shell))
      return { behavior: 'allow', reason: 'acceptEdits mode runs file-system commands' };
  }
  return {
    behavior: 'ask',
    reason: `${call.toolName} needs approval in ${mode} mode (no allow rule matches)`,
  };
}
