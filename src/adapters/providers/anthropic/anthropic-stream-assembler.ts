import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import type {
  ContentBlock,
  ModelResponse,
  ModelStreamPart,
  Usage,
} from '../../../content/index.ts';
import {
  assembleResponse,
  fromAnthropicUsage,
  type AnthropicUsageCounters,
} from './from-anthropic-response.ts';

type BlockState =
  | { readonly kind: 'text'; text: string }
  | { readonly kind: 'thinking'; thought: string; signature: string | undefined }
  | { readonly kind: 'redacted'; readonly data: string }
  | {
      readonly kind: 'tool';
      readonly id: string;
      readonly name: string;
      readonly ordinal: number;
      readonly initialInput: unknown;
      json: string;
    }
  | { readonly kind: 'ignored' };

/**
 * Turns Anthropic's raw SSE events into neutral stream parts and, at the end, the assembled
 * response. Each event yields at most one part:
 *
 * - `text_delta` → `text-delta`; `thinking_delta` → `reasoning-delta`; `signature_delta` →
 *   a `reasoning-delta` with empty text and the block's `signature`.
 * - `content_block_start` of a `tool_use` → a `tool-call-delta` announcing the call id and name
 *   with empty arguments; each `input_json_delta` → a `tool-call-delta` with the fragment. The
 *   part's `index` is the call's position among the response's tool calls. Fragments are
 *   assembled per content-block index, so several calls may interleave.
 * - `message_start`/`message_delta` carry the id, usage and stop reason into the final response;
 *   `content_block_stop`, `message_stop` and unknown events yield nothing.
 *
 * Arguments that are not valid JSON are kept as their raw string so the loop's invalid-tool-call
 * handling can report them.
 */
export class AnthropicStreamAssembler {
  // Indexed by content-block index; holes stay undefined.
  readonly #blocks: (BlockState | undefined)[] = [];
  #toolCount = 0;
  #id: string | undefined;
  #stopReason: string | null | undefined;
  #usage: AnthropicUsageCounters | undefined;
  #lastEvent: unknown;
  /** True once `message_stop` arrived: the stream is complete. */
  completed = false;

  accept(event: RawMessageStreamEvent): ModelStreamPart | undefined {
    this.#lastEvent = event;
    switch (event.type) {
      case 'message_start':
        this.#id = event.message.id;
        this.#usage = event.message.usage;
        this.#stopReason = event.message.stop_reason;
        return undefined;
      case 'content_block_start':
        return this.#start(event.index, event.content_block);
      case 'content_block_delta':
        return this.#delta(event.index, event.delta);
      case 'message_delta':
        this.#stopReason = event.delta.stop_reason ?? this.#stopReason;
        // message_delta usage counters are cumulative; keep input counters from message_start
        // when the delta leaves them null.
        this.#usage = mergeUsage(this.#usage, event.usage);
        return undefined;
      case 'message_stop':
        this.completed = true;
        return undefined;
      default:
        return undefined;
    }
  }

  #start(
    index: number,
    block: Extract<RawMessageStreamEvent, { type: 'content_block_start' }>['content_block'],
  ): ModelStreamPart | undefined {
    switch (block.type) {
      case 'text':
        this.#blocks[index] = { kind: 'text', text: block.text };
        return block.text === '' ? undefined : { type: 'text-delta', text: block.text };
      case 'thinking':
        this.#blocks[index] = {
          kind: 'thinking',
          thought: block.thinking,
          signature: block.signature === '' ? undefined : block.signature,
        };
        return block.thinking === ''
          ? undefined
          : { type: 'reasoning-delta', text: block.thinking };
      case 'redacted_thinking':
        this.#blocks[index] = { kind: 'redacted', data: block.data };
        return undefined;
      case 'tool_use': {
        const ordinal = this.#toolCount++;
        this.#blocks[index] = {
          kind: 'tool',
          id: block.id,
          name: block.name,
          ordinal,
          initialInput: block.input,
          json: '',
        };
        return {
          type: 'tool-call-delta',
          index: ordinal,
          callId: block.id,
          toolName: block.name,
          argumentsDelta: '',
        };
      }
      default:
        this.#blocks[index] = { kind: 'ignored' };
        return undefined;
    }
  }

  #delta(
    index: number,
    delta: Extract<RawMessageStreamEvent, { type: 'content_block_delta' }>['delta'],
  ): ModelStreamPart | undefined {
    const state = this.#blocks[index];
    if (state === undefined) return undefined;
    switch (delta.type) {
      case 'text_delta':
        if (state.kind !== 'text') return undefined;
        state.text += delta.text;
        return { type: 'text-delta', text: delta.text };
      case 'thinking_delta':
        if (state.kind !== 'thinking') return undefined;
        state.thought += delta.thinking;
        return { type: 'reasoning-delta', text: delta.thinking };
      case 'signature_delta':
        if (state.kind !== 'thinking') return undefined;
        state.signature = (state.signature ?? '') + delta.signature;
        return { type: 'reasoning-delta', text: '', signature: state.signature };
      case 'input_json_delta':
        if (state.kind !== 'tool') return undefined;
        state.json += delta.partial_json;
        return {
          type: 'tool-call-delta',
          index: state.ordinal,
          argumentsDelta: delta.partial_json,
        };
      default:
        return undefined;
    }
  }

  /** The assembled response: blocks in content-block order, mapped finish reason, usage, id. */
  finish(): ModelResponse {
    const blocks: ContentBlock[] = [];
    for (const state of this.#blocks) {
      if (state === undefined) continue;
      switch (state.kind) {
        case 'text':
          blocks.push({ type: 'text', text: state.text });
          break;
        case 'thinking':
          blocks.push(
            state.signature === undefined
              ? { type: 'thinking', thought: state.thought }
              : { type: 'thinking', thought: state.thought, signature: state.signature },
          );
          break;
        case 'redacted':
          blocks.push({
            type: 'thinking',
            thought: '',
            redacted: true,
            encryptedContent: state.data,
          });
          break;
        case 'tool':
          blocks.push({
            type: 'tool_call',
            id: state.id,
            name: state.name,
            parameters: parseArguments(state.json, state.initialInput),
          });
          break;
        case 'ignored':
          break;
      }
    }
    const usage: Usage | undefined =
      this.#usage === undefined ? undefined : fromAnthropicUsage(this.#usage);
    return assembleResponse(blocks, this.#stopReason, usage, this.#id, this.#lastEvent);
  }
}

function parseArguments(json: string, initialInput: unknown): unknown {
  if (json === '') return initialInput ?? {};
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return json;
  }
}

function mergeUsage(
  start: AnthropicUsageCounters | undefined,
  delta: AnthropicUsageCounters,
): AnthropicUsageCounters {
  if (start === undefined) return delta;
  return {
    input_tokens: delta.input_tokens ?? start.input_tokens ?? null,
    output_tokens: delta.output_tokens ?? start.output_tokens ?? null,
    cache_read_input_tokens: delta.cache_read_input_tokens ?? start.cache_read_input_tokens ?? null,
    cache_creation_input_tokens:
      delta.cache_creation_input_tokens ?? start.cache_creation_input_tokens ?? null,
    output_tokens_details: delta.output_tokens_details ?? start.output_tokens_details ?? null,
  };
}
