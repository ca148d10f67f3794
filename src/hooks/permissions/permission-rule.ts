/**
 * Permission rules in Claude Code's syntax, over hookwire's tool names: `shell` (every call of
 * the tool), `shell(git push *)`, `write_file(src/**)`, `read_file(.env)`. Pure: parsing and
 * matching do no I/O; the caller resolves the paths a call touches and analyses the command
 * (see `PermissionCall`).
 */
import { commandGlob, type CommandGlob } from './command-glob.ts';
import type { ShellAnalysis, SimpleCommand } from './shell-analysis.ts';

/** One parsed rule. `specifier` is absent for a bare tool name and for `Tool(*)`. */
export interface PermissionRule {
  /** The rule as written. */
  readonly source: string;
  readonly tool: string;
  readonly specifier?: string;
}

/** What `parsePermissionRule` returns. */
export type PermissionRuleResult =
  | { readonly ok: true; readonly rule: PermissionRule }
  | { readonly ok: false; readonly message: string; readonly fix: string };

const RULE = /^([A-Za-z0-9_-]+)(?:\((.*)\))?$/s;

/** Parses `Tool` or `Tool(specifier)`; an empty specifier or unbalanced parentheses are errors. */
export function parsePermissionRule(source: string): PermissionRuleResult {
  const text = source.trim();
  const match = RULE.exec(text);
  if (match === null) {
    return {
      ok: false,
      message: `${JSON.stringify(source)} is not a permission rule`,
      fix: 'write a tool name ("shell") or a tool name with a specifier in parentheses ("shell(npm run *)", "read_file(.env)")',
    };
  }
  const tool = match[1] as string;
  const specifier = match[2];
  if (specifier === undefined || specifier.trim() === '*')
    return { ok: true, rule: { source, tool } };
  if (specifier.trim() === '') {
    return {
      ok: false,
      message: `${JSON.stringify(source)} has an empty specifier`,
      fix: `write "${tool}" for every call of the tool, or put a command or path pattern between the parentheses`,
    };
  }
  return { ok: true, rule: { source, tool, specifier: specifier.trim() } };
}

/**
 * The facts of one tool call that rules match against. `command` for command tools (the shell),
 * with `shell`, what the command would run (`analyzeShellCommand`): command rules match its
 * simple commands, and a command without its analysis counts as one that cannot be known
 * statically. `paths` for file tools: every absolute form of the target (as resolved against the
 * project directory, and its real path when it exists), so a rule cannot be dodged with `./`,
 * `../`, an absolute path or a symbolic link.
 */
export interface PermissionCall {
  readonly toolName: string;
  readonly command?: string;
  readonly shell?: ShellAnalysis;
  readonly paths?: readonly string[];
}

/** Where relative rule paths are anchored. */
export interface RuleContext {
  readonly projectDir: string;
  readonly homeDir: string;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A gitignore-style path pattern as an expression over absolute paths: `**` any depth, `*` and
 * `?` within one segment, `[…]` a class. Anchoring: `//x` is the absolute path `/x`, `~/x` is
 * under the home directory, `/x`, `./x` and any pattern with a `/` inside are relative to the
 * project directory; a pattern without `/` (`.env`, `*.pem`) matches a file or directory of that
 * name at any depth.
 */
export function pathPattern(specifier: string, context: RuleContext): RegExp {
  let pattern = specifier.endsWith('/') ? specifier.slice(0, -1) : specifier;
  let prefix: string;
  if (pattern.startsWith('//')) {
    prefix = '';
    pattern = pattern.slice(1);
  } else if (pattern.startsWith('~/')) {
    prefix = context.homeDir;
    pattern = pattern.slice(1);
  } else if (pattern.startsWith('./')) {
    prefix = context.projectDir;
    pattern = pattern.slice(1);
  } else if (pattern.startsWith('/') || pattern.includes('/')) {
    prefix = context.projectDir;
    pattern = pattern.startsWith('/') ? pattern : `/${pattern}`;
  } else {
    // Unanchored: any segment.
    return new RegExp(`(?:^|/)${globBody(pattern)}(?:/|$)`, 's');
  }
  const root = prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
  // A matching directory covers everything under it.
  return new RegExp(`^${escapeRegExp(root)}${globBody(pattern)}(?:/.*)?$`, 's');
}

function globBody(pattern: string): string {
  let out = '';
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index] as string;
    if (char === '*') {
      if (pattern[index + 1] === '*') {
        index++;
        if (pattern[index + 1] === '/') {
          index++;
          out += '(?:[^/]*/)*';
        } else out += '.*';
      } else out += '[^/]*';
    } else if (char === '?') out += '[^/]';
    else if (char === '[') {
      const end = pattern.indexOf(']', index + 1);
      if (end === -1) out += '\\[';
      else {
        const inner = pattern.slice(index + 1, end).replace(/\\/g, '\\\\');
        out += `[${inner.startsWith('!') ? `^${inner.slice(1)}` : inner}]`;
        index = end;
      }
    } else out += escapeRegExp(char);
  }
  return out;
}

const globs = new WeakMap<PermissionRule, CommandGlob>();

/** Whether a command rule matches one simple command, as analysed or as written. */
function commandMatches(rule: PermissionRule, command: SimpleCommand): boolean {
  let glob = globs.get(rule);
  if (glob === undefined) {
    glob = commandGlob(rule.specifier as string);
    globs.set(rule, glob);
  }
  return glob.matches(command.text) || glob.matches(command.source);
}

/**
 * The tools a rule with a path covers besides its own, as Claude Code's `Read()` and `Edit()`
 * rules cover every tool that reads or edits: a rule on `read_file` also binds `grep` and
 * `glob`, one on `write_file` or `edit_file` both of them. Bare rules name one tool.
 */
export const PATH_RULE_FAMILIES: Readonly<Record<string, readonly string[]>> = {
  read_file: ['read_file', 'grep', 'glob'],
  write_file: ['write_file', 'edit_file'],
  edit_file: ['write_file', 'edit_file'],
};

/**
 * Whether a rule's tool names the call's tool: the same name, (as in Claude Code) `mcp__SERVER`
 * for every tool of that MCP server (`mcp__SERVER__TOOL`), and a path rule for its family
 * (`PATH_RULE_FAMILIES`).
 */
export function ruleCoversTool(rule: PermissionRule, toolName: string): boolean {
  const ruleTool = rule.tool;
  if (ruleTool === toolName) return true;
  if (rule.specifier !== undefined && PATH_RULE_FAMILIES[ruleTool]?.includes(toolName) === true)
    return true;
  return (
    ruleTool.startsWith('mcp__') &&
    !ruleTool.slice(5).includes('__') &&
    toolName.startsWith(`${ruleTool}__`)
  );
}

/** A rule that covers a call, and, when it was chosen because the command cannot be known, why. */
export interface RuleMatch {
  readonly rule: PermissionRule;
  readonly unknown?: string;
}

const NOT_ANALYSED: ShellAnalysis = {
  commands: [],
  unknown: ['the command was not analysed'],
};

/**
 * The first rule of `rules` that covers `call` (see `findMatchingRule`), with the reason when it
 * applies because the command cannot be known statically.
 */
export function findRuleMatch(
  rules: readonly PermissionRule[],
  call: PermissionCall,
  context: RuleContext,
  mode: 'any' | 'every',
): RuleMatch | undefined {
  const own = rules.filter((rule) => ruleCoversTool(rule, call.toolName));
  const bare = own.find((rule) => rule.specifier === undefined);
  if (bare !== undefined) return { rule: bare };
  const specific = own.filter((rule) => rule.specifier !== undefined);
  if (specific.length === 0) return undefined;
  if (call.command === undefined) {
    const paths = call.paths;
    if (paths === undefined) return undefined;
    const rule = specific.find((candidate) => {
      const expression = pathPattern(candidate.specifier as string, context);
      return paths.some((path) => expression.test(path));
    });
    return rule === undefined ? undefined : { rule };
  }
  const analysis = call.shell ?? NOT_ANALYSED;
  if (mode === 'any') {
    for (const command of analysis.commands) {
      const rule = specific.find((candidate) => commandMatches(candidate, command));
      if (rule !== undefined) return { rule };
    }
    const unknown = analysis.unknown[0];
    return unknown === undefined ? undefined : { rule: specific[0] as PermissionRule, unknown };
  }
  if (analysis.unknown.length > 0 || analysis.commands.length === 0) return undefined;
  let first: PermissionRule | undefined;
  for (const command of analysis.commands) {
    const rule = specific.find((candidate) => commandMatches(candidate, command));
    if (rule === undefined) return undefined;
    first ??= rule;
  }
  return first === undefined ? undefined : { rule: first };
}

/**
 * The first rule of `rules` that covers `call`, or `undefined`. A bare rule covers every call of
 * its tool. For a command (see `ShellAnalysis`): a deny or ask list (`mode: 'any'`) matches when
 * any simple command the line would run matches one rule, and when some command cannot be known
 * statically (a variable or substitution as a command name, `sh -c "$x"`, `eval "$x"`): then
 * every command rule of the tool applies. An allow list (`mode: 'every'`) matches only when every
 * simple command matches a rule and all are known, so an allow rule never vouches for text it has
 * not seen. For paths: any form of the path matching the pattern.
 */
export function findMatchingRule(
  rules: readonly PermissionRule[],
  call: PermissionCall,
  context: RuleContext,
  mode: 'any' | 'every',
): PermissionRule | undefined {
  return findRuleMatch(rules, call, context, mode)?.rule;
}
