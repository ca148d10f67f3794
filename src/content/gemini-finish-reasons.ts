import { FinishReasonMap } from './finish-reason.ts';

/**
 * Gemini's `candidates[].finishReason` values mapped to the canonical vocabulary, exhaustive over
 * the `FinishReason` enum of the Gemini API (as of `@google/genai` 3.3). Unknown future values map
 * to `other` with the raw word kept.
 *
 * - `STOP` → `stop`; `MAX_TOKENS` → `max_tokens`; `CONTINUATION` (the per-request token limit
 *   stopped an unfinished answer that can be continued) → `max_tokens`.
 * - Every filter or policy that cut or withheld the output → `safety`: `SAFETY`, `RECITATION`,
 *   `BLOCKLIST`, `PROHIBITED_CONTENT`, `SPII`, `IMAGE_SAFETY`, `IMAGE_PROHIBITED_CONTENT`,
 *   `IMAGE_RECITATION`, `ESCALATION`, `MODEL_ARMOR`, `PUP_LIMITED_DISABLED`. The raw word says
 *   which filter (the CLI reports it).
 * - `MALFORMED_FUNCTION_CALL`, `UNEXPECTED_TOOL_CALL`, `TOO_MANY_TOOL_CALLS`,
 *   `MALFORMED_RESPONSE`, `MISSING_THOUGHT_SIGNATURE` → `error`: the model produced output the
 *   API could not accept, or the request broke the signature contract; the response is a
 *   failure, not an answer, so `Stop` must not fire on it.
 * - `LANGUAGE`, `OTHER`, `IMAGE_OTHER`, `NO_IMAGE`, `FINISH_REASON_UNSPECIFIED` → `other`.
 *
 * Here, below both of its readers: the Google provider adapter and the Gemini CLI dialect (whose
 * hooks answer with Gemini-shaped responses), so they read a finish reason the same way.
 */
export const GEMINI_FINISH_REASONS = new FinishReasonMap({
  STOP: 'stop',
  MAX_TOKENS: 'max_tokens',
  SAFETY: 'safety',
  RECITATION: 'safety',
  BLOCKLIST: 'safety',
  PROHIBITED_CONTENT: 'safety',
  SPII: 'safety',
  IMAGE_SAFETY: 'safety',
  IMAGE_PROHIBITED_CONTENT: 'safety',
  IMAGE_RECITATION: 'safety',
  MALFORMED_FUNCTION_CALL: 'error',
  UNEXPECTED_TOOL_CALL: 'error',
  TOO_MANY_TOOL_CALLS: 'error',
  MALFORMED_RESPONSE: 'error',
  MISSING_THOUGHT_SIGNATURE: 'error',
  ESCALATION: 'safety',
  MODEL_ARMOR: 'safety',
  PUP_LIMITED_DISABLED: 'safety',
  CONTINUATION: 'max_tokens',
  LANGUAGE: 'other',
  OTHER: 'other',
  IMAGE_OTHER: 'other',
  NO_IMAGE: 'other',
  FINISH_REASON_UNSPECIFIED: 'other',
});
