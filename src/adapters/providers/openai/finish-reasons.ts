import { FinishReasonMap, reconcileFinishReason } from '../../../content/index.ts';
import type { FinishInfo } from '../../../content/index.ts';

/**
 * Chat Completions `finish_reason` → canonical reason. `function_call` is the deprecated
 * single-function form of `tool_calls`. Anything else (a compatible server's own word) is `other`
 * with the raw value kept; a missing reason is no reason, never `stop`.
 */
export const OPENAI_CHAT_FINISH_REASONS = new FinishReasonMap({
  stop: 'stop',
  length: 'max_tokens',
  tool_calls: 'tool_calls',
  function_call: 'tool_calls',
  content_filter: 'safety',
});

/**
 * Responses API terminal word → canonical reason. The raw word is the response `status`, except
 * for an `incomplete` response that names its cause, where it is `incomplete_details.reason`
 * (`max_output_tokens`, `content_filter`, …). `incomplete` without a known cause and `cancelled`
 * are `other`; `failed` is `error`.
 */
export const OPENAI_RESPONSES_FINISH_REASONS = new FinishReasonMap({
  completed: 'stop',
  max_output_tokens: 'max_tokens',
  content_filter: 'safety',
  failed: 'error',
  cancelled: 'other',
  incomplete: 'other',
});

/** What a Chat Completions answer ended with, beyond the raw reason. */
export interface AnswerShape {
  readonly hasToolCalls: boolean;
  /** The model refused (a `refusal` field or content part): the reason reads `refusal`. */
  readonly refused: boolean;
}

/**
 * The finish info of a Chat Completions answer: the table, then a refusal reads `refusal` (raw
 * kept), then `stop` with tool calls reads `tool_calls`.
 */
export function chatFinishInfo(raw: string | null | undefined, shape: AnswerShape): FinishInfo {
  return adjust(OPENAI_CHAT_FINISH_REASONS.map(raw), shape);
}

/**
 * The finish info of a Responses API answer from its `status` and `incomplete_details.reason`.
 * `in_progress` and `queued` are not terminal: no reason. Then as `chatFinishInfo`.
 */
export function responsesFinishInfo(
  status: string | null | undefined,
  incompleteReason: string | null | undefined,
  shape: AnswerShape,
): FinishInfo {
  if (status === 'in_progress' || status === 'queued') return {};
  const raw =
    status === 'incomplete' && incompleteReason !== undefined && incompleteReason !== null
      ? incompleteReason
      : status;
  return adjust(OPENAI_RESPONSES_FINISH_REASONS.map(raw), shape);
}

function adjust(info: FinishInfo, shape: AnswerShape): FinishInfo {
  if (info.finishReason === undefined) return info;
  if (shape.refused && info.finishReason === 'stop') return { ...info, finishReason: 'refusal' };
  const finishReason = reconcileFinishReason(info.finishReason, shape.hasToolCalls);
  return finishReason === undefined || finishReason === info.finishReason
    ? info
    : { ...info, finishReason };
}
