import { z } from 'zod';
import { lazy } from './lazy.ts';
import type { Message, Usage } from '../content/blocks.ts';
import type { FinishReason } from '../content/finish-reason.ts';
import type { ModelResponse } from '../content/model.ts';
import { finishReasonSchema, messageSchema, usageSchema } from './content-schemas.ts';
import { failure, toWireIssues, type WireDecodeResult } from './wire-decode-error.ts';
import { wireVersionSchema } from './wire-version.ts';

/**
 * The v2 response envelope a hook receives (`llm_response` of AfterModel): one `ai` message,
 * the canonical finish reason and the provider's own word for it, and usage. During streaming
 * only the terminal chunk carries `finishReason`.
 */
export interface HookLLMResponse {
  readonly version: 2;
  readonly content: Message;
  readonly finishReason?: FinishReason;
  readonly rawStopReason?: string;
  readonly usage?: Usage;
}

/**
 * What a hook returns as `llm_response` (BeforeModel synthetic response, AfterModel
 * replacement): `content` required, `version` optional.
 */
export type HookLLMResponseOverride = Omit<HookLLMResponse, 'version'> & { readonly version?: 2 };

const responseShape = lazy(() => ({
  version: wireVersionSchema().optional(),
  content: messageSchema(),
  finishReason: finishReasonSchema().optional(),
  rawStopReason: z.string().optional(),
  usage: usageSchema().optional(),
}));

/** A v2 response as a hook may write it (`version` optional). */
export const hookLLMResponseSchema = lazy(() => z.strictObject(responseShape()));

/** The v2 response exactly as hookwire sends it to hooks (`version: 2` present). */
export const hookLLMResponseInputSchema = lazy(() =>
  z.strictObject({
    ...responseShape(),
    version: wireVersionSchema(),
  }),
);

/**
 * Decodes a v2 response (`content` required, `version` absent or 2, `finishReason` canonical).
 * The decoded value is the caller's own object: `content` and its blocks keep their identity.
 * A v1 shape (`candidates`, `usageMetadata`) is rejected naming the v2 replacement.
 */
export function decodeHookLLMResponse(
  value: unknown,
  subject = 'llm_response',
): WireDecodeResult<HookLLMResponseOverride> {
  const parsed = hookLLMResponseSchema().safeParse(value);
  if (!parsed.success) return failure(subject, toWireIssues(parsed.error, value));
  return { ok: true, value: value as HookLLMResponseOverride };
}

/** The v2 envelope of a neutral response; `id` and `raw` stay out (provider data never reaches hooks). */
export function toHookLLMResponse(response: ModelResponse): HookLLMResponse {
  return {
    version: 2,
    content: response.content,
    ...(response.finishReason === undefined ? {} : { finishReason: response.finishReason }),
    ...(response.rawStopReason === undefined ? {} : { rawStopReason: response.rawStopReason }),
    ...(response.usage === undefined ? {} : { usage: response.usage }),
  };
}
