/** Tool-choice aggregation, free of the wire's schemas (the hook stack uses it on every call). */
import type { ToolChoice } from '../content/model.ts';

const precedence = { auto: 0, required: 1, none: 2 } as const;

/**
 * A tool name as allowlists compare it: trimmed and lower-cased, so `Read_File` and `read_file`
 * are the same tool (as llxprt's aggregator canonicalises them).
 */
export function canonicalToolName(name: string): string {
  return name.trim().toLowerCase();
}

function byName(a: string, b: string): number {
  const left = canonicalToolName(a);
  const right = canonicalToolName(b);
  if (left !== right) return left < right ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Combines the tool choices of several hooks (configuration order) into one:
 * - mode: `none` > `required` > `auto` (the most restrictive wins);
 * - allowlists: explicit `allowedToolNames` lists intersect, names compared case-insensitively
 *   (`canonicalToolName`); an omitted list is unrestricted, so it never widens or narrows the
 *   others; an explicit empty list allows nothing;
 * - the combined allowlist comes back **sorted**, each name spelled as the tool is declared
 *   (`declared`: the names of the tools the request offers; an exact match first, then a
 *   case-insensitive one), or as the first list that named it when no declared tool matches;
 * - no choices at all: `undefined` (nothing to enforce).
 */
export function aggregateToolChoice(
  choices: readonly ToolChoice[],
  declared?: readonly string[],
): ToolChoice | undefined {
  if (choices.length === 0) return undefined;
  let mode: ToolChoice['mode'] = 'auto';
  // canonical name → the first spelling that named it
  let allowed: Map<string, string> | undefined;
  for (const choice of choices) {
    if (precedence[choice.mode] > precedence[mode]) mode = choice.mode;
    const names = choice.allowedToolNames;
    if (names === undefined) continue;
    const these = new Map<string, string>();
    for (const name of names) {
      const key = canonicalToolName(name);
      if (!these.has(key)) these.set(key, name);
    }
    if (allowed === undefined) allowed = these;
    else for (const key of [...allowed.keys()]) if (!these.has(key)) allowed.delete(key);
  }
  if (allowed === undefined) return { mode };
  const exact = new Set(declared);
  const folded = new Map<string, string>();
  for (const name of declared ?? []) {
    const key = canonicalToolName(name);
    if (!folded.has(key)) folded.set(key, name);
  }
  const names = [...allowed].map(([key, name]) =>
    exact.has(name) ? name : (folded.get(key) ?? name),
  );
  return { mode, allowedToolNames: names.sort(byName) };
}
