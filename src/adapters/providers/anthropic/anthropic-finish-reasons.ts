import { FinishReasonMap } from '../../../content/index.ts';

/**
 * Anthropic's `stop_reason` values mapped to the canonical vocabulary, exhaustive over the values
 * the Messages API documents. Unknown future values map to `other` with the raw word kept.
 *
 * - `end_turn`, `stop_sequence` → `stop`: the model ended its answer (a stop sequence is a natural
 *   end the caller asked for).
 * - `max_tokens` → `max_tokens`.
 * - `model_context_window_exceeded` → `max_tokens`: generation stopped because the context window
 *   filled up; the output is cut short exactly like a token cap, and policies that continue a
 *   truncated answer should treat it so.
 * - `tool_use` → `tool_calls`.
 * - `pause_turn` → `other`: a server-tool turn paused mid-way; it is neither a finished answer
 *   nor a failure, and the raw value tells a caller to resend to resume.
 * - `refusal` → `refusal`.
 */
export const ANTHROPIC_FINISH_REASONS = new FinishReasonMap({
  end_turn: 'stop',
  stop_sequence: 'stop',
  max_tokens: 'max_tokens',
  model_context_window_exceeded: 'max_tokens',
  tool_use: 'tool_calls',
  pause_turn: 'other',
  refusal: 'refusal',
});
