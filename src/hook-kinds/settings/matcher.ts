import { SettingsError } from './settings-error.ts';
import type { SettingsIssue } from './settings-issue.ts';

/**
 * A group's matcher, compiled once at load time. `kind` says how `source` was read:
 * - `all`: empty, missing, or `*` (surrounding whitespace ignored) — matches every value,
 *   including an absent one;
 * - `names`: one name or an `A|B|C` list of names made of letters, digits, `_` and `-`
 *   (whitespace around names ignored) — matches exactly those names, case-sensitively, so
 *   `Bash` does not match `BashOutput`;
 * - `pattern`: anything else — a JavaScript regular expression (no flags) that must match the
 *   whole value (it is compiled as `^(?:source)$`), so `Rea.` matches `Read` but not `Reader`.
 * `key` is the same for matchers that match the same values by construction (`""`, `"*"` and a
 * missing matcher; `Edit|Write` and `Write|Edit`): it is what duplicate hooks are compared by.
 */
export interface CompiledMatcher {
  readonly kind: 'all' | 'names' | 'pattern';
  readonly source: string;
  readonly key: string;
  /** Whether the group applies to an event whose matcher target is `value`. */
  readonly matches: (value: string | undefined) => boolean;
}

/** Where a matcher was written; used in the error an invalid one raises. */
export interface MatcherLocation {
  readonly file: string;
  readonly path: string;
}

// A dot is deliberately not a name character: `.` is the most common regular-expression
// metacharacter (`Rea.`, `mcp__.*`) and no built-in tool name contains one.
const NAMES = /^\s*[A-Za-z0-9_-]+(?:\s*\|\s*[A-Za-z0-9_-]+)*\s*$/;

const matchAll: CompiledMatcher = {
  kind: 'all',
  source: '*',
  key: '*',
  matches: () => true,
};

/** A matcher or the issue that makes `source` invalid. */
export type MatcherResult =
  | { readonly ok: true; readonly matcher: CompiledMatcher }
  | { readonly ok: false; readonly issue: SettingsIssue };

/** Like `compileMatcher`, but returns the issue instead of throwing (used to collect issues). */
export function tryCompileMatcher(
  source: string | undefined,
  location: MatcherLocation,
): MatcherResult {
  const text = source ?? '';
  const trimmed = text.trim();
  if (trimmed === '' || trimmed === '*') {
    return { ok: true, matcher: text === '*' ? matchAll : { ...matchAll, source: text } };
  }
  if (NAMES.test(trimmed)) {
    const names = trimmed.split('|').map((name) => name.trim());
    const unique = [...new Set(names)];
    const key = [...unique].sort().join('|');
    const only = unique[0];
    if (unique.length === 1 && only !== undefined) {
      // One name: a string comparison is cheaper than a Set lookup.
      return {
        ok: true,
        matcher: { kind: 'names', source: text, key, matches: (value) => value === only },
      };
    }
    const set: ReadonlySet<string | undefined> = new Set(unique);
    return {
      ok: true,
      matcher: { kind: 'names', source: text, key, matches: (value) => set.has(value) },
    };
  }
  let expression: RegExp;
  try {
    // Compiled bare first so the error message shows the expression as the user wrote it.
    new RegExp(trimmed);
    expression = new RegExp(`^(?:${trimmed})$`);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      issue: {
        ...location,
        message: `matcher ${JSON.stringify(text)} is not a valid regular expression: ${reason}`,
        fix: 'escape special characters with a backslash (in JSON, "\\\\[" for a literal "["), or list tool names as "Edit|Write"',
      },
    };
  }
  return {
    ok: true,
    matcher: {
      kind: 'pattern',
      source: text,
      key: `/${trimmed}/`,
      matches: (value) => value !== undefined && expression.test(value),
    },
  };
}

/**
 * Compiles a matcher (see `CompiledMatcher` for how `source` is read). An invalid regular
 * expression throws a `SettingsError` naming `location` and the RegExp's own message.
 */
export function compileMatcher(
  source: string | undefined,
  location: MatcherLocation,
): CompiledMatcher {
  const result = tryCompileMatcher(source, location);
  if (!result.ok) throw new SettingsError([result.issue]);
  return result.matcher;
}
