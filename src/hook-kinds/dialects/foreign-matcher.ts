import { tryCompileMatcher, type CompiledMatcher } from '../settings/matcher.ts';
import { foreignToolAliases, mcpMatcherPrefix, type DialectName } from './vocabulary.ts';

/**
 * A matcher of a foreign file, read as that tool reads it: empty or `*` matches everything, a
 * name or an `A|B` list matches exactly those names (as in hookwire's files), and anything else is
 * a JavaScript regular expression tested **unanchored** (Claude Code, Codex, Gemini CLI and Kimi
 * Code all use `RegExp.test`: `Edit` as a pattern such as `Edit.*` also matches `NotebookEdit`).
 * Matched against the tool's name in the dialect's words (`Bash`, `run_shell_command`), and
 * against the tool's earlier names in that dialect (`Task` for Claude Code's `Agent`).
 * `anchored`: the expression must match the whole name (Copilot CLI's `^(?:…)$`).
 */
export function compileForeignMatcher(
  dialect: DialectName,
  source: string,
  anchored = false,
):
  | { readonly ok: true; readonly matcher: CompiledMatcher }
  | { readonly ok: false; readonly message: string } {
  // A profile's "every MCP tool" form (Augment's `mcp:*`, `MCP:.*`).
  const prefix = mcpMatcherPrefix(dialect);
  if (prefix !== undefined) {
    const trimmed = source.trim();
    const rest = trimmed.slice(prefix.length);
    if (
      trimmed.toLowerCase().startsWith(prefix.toLowerCase()) &&
      (rest === '' || rest === '*' || rest === '.*')
    )
      return {
        ok: true,
        matcher: {
          kind: 'pattern',
          source,
          key: `${dialect}:mcp`,
          matches: (value) => value !== undefined && value.startsWith('mcp__'),
        },
      };
  }
  const own = tryCompileMatcher(source, { file: '', path: '' });
  if (!own.ok) return { ok: false, message: own.issue.message };
  if (own.matcher.kind === 'all') return own;
  let test = own.matcher.matches;
  let key = own.matcher.key;
  if (own.matcher.kind === 'pattern' && !anchored) {
    const expression = new RegExp(source.trim());
    test = (value) => value !== undefined && expression.test(value);
    key = `${dialect}:/${source.trim()}/`;
  }
  return {
    ok: true,
    matcher: {
      kind: own.matcher.kind,
      source,
      key,
      // A tool's earlier names match it too (a `Task` matcher and Claude Code's `Agent`).
      matches: (value) =>
        test(value) ||
        (value !== undefined && foreignToolAliases(dialect, value).some((alias) => test(alias))),
    },
  };
}
