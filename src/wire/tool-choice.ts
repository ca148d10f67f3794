import { z } from 'zod';
import type { ToolChoice } from '../content/model.ts';
import { toolChoiceModeMessage } from './field-hints.ts';
import { failure, toWireIssues, type WireDecodeResult } from './wire-decode-error.ts';

/** `{mode: 'auto' | 'required' | 'none', allowedToolNames?}`; v1 `AUTO`/`ANY`/`NONE` are rejected with their v2 names. */
export const toolChoiceSchema = z.strictObject({
  mode: z.enum(['auto', 'required', 'none'], {
    error: (issue) => toolChoiceModeMessage(issue.input),
  }),
  allowedToolNames: z.array(z.string()).optional(),
});

/**
 * Decodes a hook's `toolChoice`. The decoded value is the hook's own object (no copy). A v1
 * `toolConfig` shape (`allowedFunctionNames`, uppercase modes) is rejected naming the v2 fields.
 */
export function decodeToolChoice(
  value: unknown,
  subject = 'toolChoice',
): WireDecodeResult<ToolChoice> {
  const parsed = toolChoiceSchema.safeParse(value);
  if (!parsed.success) return failure(subject, toWireIssues(parsed.error, value));
  return { ok: true, value: value as ToolChoice };
}

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
