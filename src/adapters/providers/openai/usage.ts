import type { Usage } from '../../../content/index.ts';

/** Chat Completions `usage` as the SDK types it, with the detail objects optional. */
export interface ChatUsageWire {
  readonly prompt_tokens?: number;
  readonly completion_tokens?: number;
  readonly total_tokens?: number;
  readonly prompt_tokens_details?: { readonly cached_tokens?: number } | null;
  readonly completion_tokens_details?: { readonly reasoning_tokens?: number } | null;
}

/** Responses API `usage`, with the detail objects optional. */
export interface ResponsesUsageWire {
  readonly input_tokens?: number;
  readonly output_tokens?: number;
  readonly total_tokens?: number;
  readonly input_tokens_details?: { readonly cached_tokens?: number } | null;
  readonly output_tokens_details?: { readonly reasoning_tokens?: number } | null;
}

/** Maps Chat Completions usage; a field the server did not report stays absent. */
export function chatUsage(wire: ChatUsageWire): Usage {
  return usage(
    wire.prompt_tokens,
    wire.completion_tokens,
    wire.total_tokens,
    wire.prompt_tokens_details?.cached_tokens,
    wire.completion_tokens_details?.reasoning_tokens,
  );
}

/** Maps Responses API usage; a field the server did not report stays absent. */
export function responsesUsage(wire: ResponsesUsageWire): Usage {
  return usage(
    wire.input_tokens,
    wire.output_tokens,
    wire.total_tokens,
    wire.input_tokens_details?.cached_tokens,
    wire.output_tokens_details?.reasoning_tokens,
  );
}

function usage(
  promptTokens: number | undefined,
  completionTokens: number | undefined,
  totalTokens: number | undefined,
  cachedTokens: number | undefined,
  reasoningTokens: number | undefined,
): Usage {
  return {
    ...(promptTokens === undefined ? {} : { promptTokens }),
    ...(completionTokens === undefined ? {} : { completionTokens }),
    ...(totalTokens === undefined ? {} : { totalTokens }),
    ...(cachedTokens === undefined ? {} : { cachedTokens }),
    ...(reasoningTokens === undefined ? {} : { reasoningTokens }),
  };
}
