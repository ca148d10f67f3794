/**
 * Permission rules in Claude Code's syntax, over hookwire's tool names: `shell` (every call of
 * the tool), `shell(git push *)`, `write_file(src/**)`, `read_file(.env)`. Pure: parsing and
 * matching do no I/O; the caller resolves the paths a call touches (see `PermissionCall`).
 */

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
 * The facts of one tool call that rules match against. `command` for command tools (the shell);
 * `paths` for file tools: every absolute form of the target (as resolved against the project
 * directory, and its real path when it exists), so a rule cannot be dodged with `./`, `../`, an
 * absolute path or a symbolic link.
 */
export interface PermissionCall {
  readonly toolName: string;
  readonly command?: string;
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
 * A command pattern as a whole-string expression: `*` matches any run of characters; a final
 * ` *` also matches the bare command (`git push *` matches `git push`, not `git pushx`); the
 * legacy `npm:*` is the prefix `npm` followed by nothing or a space.
 */
export function commandPattern(specifier: string): RegExp {
  let body = specifier;
  let tail = '';
  if (body.endsWith(':*')) {
    body = body.slice(0, -2);
    tail = '(?:\\s.*)?';
  } else if (body.endsWith(' *')) {
    body = body.slice(0, -2);
    tail = '(?:\\s.*)?';
  }
  const source = body.split('*').map(escapeRegExp).join('.*');
  return new RegExp(`^${source}${tail}$`, 's');
}

/** A command line cut into its simple commands, and whether it substitutes commands. */
export interface SplitCommand {
  /** Each simple command, trimmed, leading `NAME=value` assignments removed. */
  readonly parts: readonly string[];
  /** It contains `$(…)`, backquotes or `<(…)`/`>(…)`: text no rule can vouch for. */
  readonly substitutes: boolean;
}

/**
 * Splits a shell command on `;`, `&&`, `||`, `|`, `&` and newlines outside quotes, so a rule for
 * `git status` does not vouch for `git status && rm -rf ~`.
 */
export function splitCommand(command: string): SplitCommand {
  const parts: string[] = [];
  let current = '';
  let quote: '"' | "'" | undefined;
  let substitutes = false;
  for (let index = 0; index < command.length; index++) {
    const char = command[index] as string;
    const next = command[index + 1];
    if (quote === "'") {
      current += char;
      if (char === "'") quote = undefined;
      continue;
    }
    if (char === '\\' && next !== undefined) {
      current += char + next;
      index++;
      continue;
    }
    if (
      char === '`' ||
      (char === '$' && next === '(') ||
      ((char === '<' || char === '>') && next === '(')
    )
      substitutes = true;
    if (quote === '"') {
      current += char;
      if (char === '"') quote = undefined;
      continue;
    }
    if (char === '"' || char === "'") {
      quote = char;
      current += char;
      continue;
    }
    if (char === ';' || char === '\n' || char === '|' || char === '&') {
      // `>&2`, `2>&1` and `&>` redirect; they do not separate commands.
      const previous = command[index - 1];
      if (char === '&' && (previous === '>' || previous === '<' || next === '>')) {
        current += char;
        continue;
      }
      parts.push(current);
      current = '';
      if ((char === '&' || char === '|') && next === char) index++;
      continue;
    }
    current += char;
  }
  parts.push(current);
  return {
    parts: parts
      .map((part) =>
        part.trim().replace(/^(?:[A-Za-z_][A-Za-z0-9_]*=(?:'[^']*'|"[^"]*"|\S*)\s+)+/, ''),
      )
      .filter((part) => part !== ''),
    substitutes,
  };
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

function specifierMatches(
  rule: PermissionRule,
  part: string | undefined,
  call: PermissionCall,
  context: RuleContext,
): boolean {
  const specifier = rule.specifier as string;
  if (part !== undefined) return commandPattern(specifier).test(part);
  if (call.paths !== undefined) {
    const expression = pathPattern(specifier, context);
    return call.paths.some((path) => expression.test(path));
  }
  return false;
}

/**
 * Whether a rule's tool names the call's tool: the same name, or (as in Claude Code) `mcp__SERVER`
 * for every tool of that MCP server (`mcp__SERVER__TOOL`).
 */
function ruleCoversTool(ruleTool: string, toolName: string): boolean {
  if (ruleTool === toolName) return true;
  return (
    ruleTool.startsWith('mcp__') &&
    !ruleTool.slice(5).includes('__') &&
    toolName.startsWith(`${ruleTool}__`)
  );
}

/**
 * The first rule of `rules` that covers `call`, or `undefined`. A bare rule covers every call of
 * its tool. For a command: a deny or ask list (`mode: 'any'`) matches when any simple command of
 * it matches one rule; an allow list (`mode: 'every'`) only when every simple command matches a
 * rule and nothing is substituted (`$(…)`, backquotes), so an allow rule never vouches for text
 * it has not seen. For paths: any form of the path matching the pattern.
 */
export function findMatchingRule(
  rules: readonly PermissionRule[],
  call: PermissionCall,
  context: RuleContext,
  mode: 'any' | 'every',
): PermissionRule | undefined {
  const own = rules.filter((rule) => ruleCoversTool(rule.tool, call.toolName));
  const bare = own.find((rule) => rule.specifier === undefined);
  if (bare !== undefined) return bare;
  const specific = own.filter((rule) => rule.specifier !== undefined);
  if (specific.length === 0) return undefined;
  if (call.command === undefined)
    return specific.find((rule) => specifierMatches(rule, undefined, call, context));
  const split = splitCommand(call.command);
  if (mode === 'any') {
    for (const part of split.parts) {
      const found = specific.find((rule) => specifierMatches(rule, part, call, context));
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (split.substitutes || split.parts.length === 0) return undefined;
  let first: PermissionRule | undefined;
  for (const part of split.parts) {
    const found = specific.find((rule) => specifierMatches(rule, part, call, context));
    if (found === undefined) return undefined;
    first ??= found;
  }
  return first;
}
