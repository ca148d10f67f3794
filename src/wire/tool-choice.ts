import { z } from 'zod';
import { lazy } from './lazy.ts';
import type { ToolChoice } from '../content/model.ts';
import { toolChoiceModeMessage } from './field-hints.ts';
import { failure, toWireIssues, type WireDecodeResult } from './wire-decode-error.ts';

/** `{mode: 'auto' | 'required' | 'none', allowedToolNames?}`; v1 `AUTO`/`ANY`/`NONE` are rejected with their v2 names. */
export const toolChoiceSchema = lazy(() =>
  z.strictObject({
    mode: z.enum(['auto', 'required', 'none'], {
      error: (issue) => toolChoiceModeMessage(issue.input),
    }),
    allowedToolNames: z.array(z.string()).optional(),
  }),
);

/**
 * Decodes a hook's `toolChoice`. The decoded value is the hook's own object (no copy). A v1
 * `toolConfig` shape (`allowedFunctionNames`, uppercase modes) is rejected naming the v2 fields.
 */
export function decodeToolChoice(
  value: unknown,
  subject = 'toolChoice',
): WireDecodeResult<ToolChoice> {
  const parsed = toolChoiceSchema().safeParse(value);
  if (!parsed.success) return failure(subject, toWireIssues(parsed.error, value));
  return { ok: true, value: value as ToolChoice };
}

export { aggregateToolChoice } from './tool-choice-aggregate.ts';
