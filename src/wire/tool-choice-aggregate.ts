/** Tool-choice aggregation, free of the wire's schemas (the hook stack uses it on every call). */
import type { ToolChoice } from '../content/model.ts';

const precedence = { auto: 0, required: 1, none: 2 } as const;

/**
 * Combines the tool choices of several hooks (configuration order) into one:
 * - mode: `none` > `required` > `auto` (the most restrictive wins);
 * - allowlists: explicit `allowedToolNames` lists intersect, keeping the order of the first
 *   explicit list; an omitted list is unrestricted, so it never widens or narrows the others;
 *   an explicit empty list allows nothing;
 * - no choices at all: `undefined` (nothing to enforce).
 */
export function aggregateToolChoice(choices: readonly ToolChoice[]): ToolChoice | undefined {
  if (choices.length === 0) return undefined;
  let mode: ToolChoice['mode'] = 'auto';
  let allowed: string[] | undefined;
  for (const choice of choices) {
    if (precedence[choice.mode] > precedence[mode]) mode = choice.mode;
    const names = choice.allowedToolNames;
    if (names === undefined) continue;
    if (allowed === undefined) {
      allowed = [...new Set(names)];
    } else {
      const keep = new Set(names);
      allowed = allowed.filter((name) => keep.has(name));
    }
  }
  return allowed === undefined ? { mode } : { mode, allowedToolNames: allowed };
}
