import type { Message as AnthropicMessage } from '@anthropic-ai/sdk/resources/messages';
import {
  message,
  reconcileFinishReason,
  type ContentBlock,
  type ModelResponse,
  type Usage,
} from '../../../content/index.ts';
import { ANTHROPIC_FINISH_REASONS } from './anthropic-finish-reasons.ts';

/** The usage counters Anthropic reports, in either the final message or a `message_delta`. */
export interface AnthropicUsageCounters {
  readonly input_tokens?: number | null;
  readonly output_tokens?: number | null;
  readonly cache_read_input_tokens?: number | null;
  readonly cache_creation_input_tokens?: number | null;
  readonly output_tokens_details?: { readonly thinking_tokens?: number | null } | null;
}

/**
 * Neutral usage from Anthropic's counters. `promptTokens` is the whole prompt: `input_tokens`
 * counts only the uncached part, so cache reads and cache writes are added back (as Anthropic
 * documents the total); `cachedTokens` is the cache reads; `reasoningTokens` is
 * `output_tokens_details.thinking_tokens` when reported (it is included in `completionTokens`).
 */
export function fromAnthropicUsage(counters: AnthropicUsageCounters): Usage {
  const input = counters.input_tokens ?? undefined;
  const cacheRead = counters.cache_read_input_tokens ?? undefined;
  const cacheWrite = counters.cache_creation_input_tokens ?? undefined;
  const output = counters.output_tokens ?? undefined;
  const reasoning = counters.output_tokens_details?.thinking_tokens ?? undefined;
  const prompt =
    input === undefined && cacheRead === undefined && cacheWrite === undefined
      ? undefined
      : (input ?? 0) + (cacheRead ?? 0) + (cacheWrite ?? 0);
  const usage: { -readonly [K in keyof Usage]: Usage[K] } = {};
  if (prompt !== undefined) usage.promptTokens = prompt;
  if (output !== undefined) usage.completionTokens = output;
  if (prompt !== undefined || output !== undefined)
    usage.totalTokens = (prompt ?? 0) + (output ?? 0);
  if (cacheRead !== undefined) usage.cachedTokens = cacheRead;
  if (reasoning !== undefined) usage.reasoningTokens = reasoning;
  return usage;
}

/**
 * Neutral blocks from Anthropic content blocks, in order: `text`, `thinking` (with its
 * signature), `redacted_thinking` (as a redacted thinking block whose `encryptedContent` is the
 * opaque `data`), `tool_use` (as a tool call). Server-tool blocks (web search, code execution)
 * have no neutral counterpart and are left out.
 */
export function fromAnthropicBlocks(blocks: AnthropicMessage['content']): ContentBlock[] {
  const result: ContentBlock[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case 'text':
        result.push({ type: 'text', text: block.text });
        break;
      case 'thinking':
        result.push({ type: 'thinking', thought: block.thinking, signature: block.signature });
        break;
      case 'redacted_thinking':
        result.push({
          type: 'thinking',
          thought: '',
          redacted: true,
          encryptedContent: block.data,
        });
        break;
      case 'tool_use':
        result.push({ type: 'tool_call', id: block.id, name: block.name, parameters: block.input });
        break;
      default:
        break;
    }
  }
  return result;
}

/** A complete neutral response from an Anthropic `Message` (the blocking call's result). */
export function fromAnthropicMessage(response: AnthropicMessage): ModelResponse {
  const blocks = fromAnthropicBlocks(response.content);
  return assembleResponse(
    blocks,
    response.stop_reason,
    fromAnthropicUsage(response.usage),
    response.id,
    response,
  );
}

/**
 * Builds the neutral response: the raw stop reason is mapped by the Anthropic table, then
 * reconciled with the content (`stop` with tool calls reads as `tool_calls`).
 */
export function assembleResponse(
  blocks: ContentBlock[],
  stopReason: string | null | undefined,
  usage: Usage | undefined,
  id: string | undefined,
  raw: unknown,
): ModelResponse {
  const finish = ANTHROPIC_FINISH_REASONS.map(stopReason);
  const finishReason = reconcileFinishReason(
    finish.finishReason,
    blocks.some((block) => block.type === 'tool_call'),
  );
  return {
    content: message('ai', blocks),
    ...(finishReason === undefined ? {} : { finishReason }),
    ...(finish.rawStopReason === undefined ? {} : { rawStopReason: finish.rawStopReason }),
    ...(usage === undefined || Object.keys(usage).length === 0 ? {} : { usage }),
    ...(id === undefined ? {} : { id }),
    raw,
  };
}
