import type OpenAI from 'openai';
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionCreateParamsStreaming,
} from 'openai/resources/chat/completions';
import type {
  ContentBlock,
  LanguageModel,
  ModelCallOptions,
  ModelRequest,
  ModelResponse,
  ModelStreamPart,
  Usage,
} from '../../../content/index.ts';
import { toModelError } from '../shared/model-error-mapping.ts';
import { parseToolArguments } from '../shared/tool-arguments.ts';
import { contextWindowOf } from '../shared/context-windows.ts';
import { buildChatRequest } from './chat-request.ts';
import { createOpenAIClient } from './client.ts';
import type { OpenAIModelOptions } from './client.ts';
import { chatFinishInfo } from './finish-reasons.ts';
import {
  isObject,
  notAnAnswerError,
  replyInfoOf,
  unfinishedStreamError,
  type ReplyInfo,
} from './reply-checks.ts';
import { chatUsage } from './usage.ts';

/** Options of `createOpenAIChatModel`. */
export type OpenAIChatModelOptions = OpenAIModelOptions;

/**
 * A `LanguageModel` over OpenAI Chat Completions (`POST /chat/completions`), which also serves
 * any OpenAI-compatible server (`compatible: true`, `baseURL` pointing at it). Streaming asks
 * for the usage chunk (`stream_options.include_usage`). Reasoning that compatible servers stream
 * as `reasoning_content` (DeepSeek, vLLM ≤ 0.9) or `reasoning` (newer vLLM) becomes a thinking
 * block. Errors are thrown as `ModelError`s; the abort signal cancels the HTTP request.
 */
export function createOpenAIChatModel(options: OpenAIChatModelOptions): LanguageModel {
  const client = createOpenAIClient(options);
  const compatible = options.compatible === true;
  const provider = compatible ? 'openai-compatible' : 'openai';
  return {
    provider,
    modelId: options.model,
    ...contextWindowOf(compatible ? undefined : 'openai', options),
    async generate(request, callOptions) {
      const signal = callOptions?.signal;
      try {
        const body = {
          ...buildChatRequest(withModel(request, options.model), { compatible }),
          stream: false,
        } as ChatCompletionCreateParamsNonStreaming;
        const { data: completion, response } = await client.chat.completions
          .create(body, requestOptions(signal))
          .withResponse();
        // An HTML page (a proxy, a wrong base URL) arrives as a string: never read it as an answer.
        if (!isObject(completion) || !Array.isArray(completion.choices))
          throw notAnAnswerError(
            provider,
            'a Chat Completions object',
            replyInfoOf(response),
            completion,
          );
        return completionToResponse(completion);
      } catch (error) {
        throw toModelError(error, provider, signal);
      }
    },
    stream(request, callOptions) {
      return streamChat(
        client,
        provider,
        withModel(request, options.model),
        compatible,
        callOptions,
      );
    },
  };
}

// The model chosen at creation is the default; a request that names its own model wins, so a
// hook's model selection reaches the provider.
function withModel(request: ModelRequest, model: string): ModelRequest {
  return request.model === '' ? { ...request, model } : request;
}

function requestOptions(signal: AbortSignal | undefined): { signal?: AbortSignal } {
  return signal === undefined ? {} : { signal };
}

/** The fields compatible servers add to a Chat Completions message or delta. */
interface ReasoningFields {
  readonly reasoning_content?: unknown;
  readonly reasoning?: unknown;
}

function reasoningText(fields: ReasoningFields): string | undefined {
  const value = fields.reasoning_content ?? fields.reasoning;
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function completionToResponse(completion: ChatCompletion): ModelResponse {
  const choice = completion.choices[0];
  const message = choice?.message;
  const blocks: ContentBlock[] = [];
  let refused = false;
  let toolCallCount = 0;
  if (message !== undefined) {
    const thought = reasoningText(message as ReasoningFields);
    if (thought !== undefined) blocks.push({ type: 'thinking', thought });
    if (typeof message.content === 'string' && message.content !== '') {
      blocks.push({ type: 'text', text: message.content });
    }
    if (typeof message.refusal === 'string' && message.refusal !== '') {
      refused = true;
      blocks.push({ type: 'text', text: message.refusal, metadata: { refusal: true } });
    }
    for (const call of message.tool_calls ?? []) {
      if (call.type !== 'function') continue;
      toolCallCount++;
      blocks.push({
        type: 'tool_call',
        id: call.id,
        name: call.function.name,
        parameters: parseToolArguments(call.function.arguments),
      });
    }
  }
  const finish = chatFinishInfo(choice?.finish_reason, {
    hasToolCalls: toolCallCount > 0,
    refused,
  });
  return {
    content: { speaker: 'ai', blocks },
    ...finish,
    ...(completion.usage === undefined ? {} : { usage: chatUsage(completion.usage) }),
    id: completion.id,
    raw: completion,
  };
}

/** One tool call being assembled from its fragments. */
interface PendingToolCall {
  id: string;
  name: string;
  arguments: string;
}

async function* streamChat(
  client: OpenAI,
  provider: string,
  request: ModelRequest,
  compatible: boolean,
  callOptions: ModelCallOptions | undefined,
): AsyncGenerator<ModelStreamPart> {
  const signal = callOptions?.signal;
  let text = '';
  let refusal = '';
  let thought = '';
  // Indexed by the wire `index`; sparse until every call has appeared.
  const toolCalls: (PendingToolCall | undefined)[] = [];
  let rawFinishReason: string | null = null;
  let usage: Usage | undefined;
  let id: string | undefined;
  let last: ChatCompletionChunk | undefined;
  // Set before the first event is read; the checks after the loop run only once it is.
  let reply!: ReplyInfo;
  let chunks = 0;
  let finished = false;
  try {
    const body = {
      ...buildChatRequest(request, { compatible }),
      stream: true,
      stream_options: { include_usage: true },
    } as ChatCompletionCreateParamsStreaming;
    const { data: stream, response } = await client.chat.completions
      .create(body, requestOptions(signal))
      .withResponse();
    reply = replyInfoOf(response);
    for await (const chunk of stream) {
      chunks++;
      last = chunk;
      id ??= chunk.id;
      if (chunk.usage !== undefined && chunk.usage !== null) usage = chatUsage(chunk.usage);
      // `n` > 1 is not supported: the first choice is the answer.
      const choice = chunk.choices[0];
      if (choice === undefined) continue;
      const delta = choice.delta;
      const reasoning = reasoningText(delta as ReasoningFields);
      if (reasoning !== undefined) {
        thought += reasoning;
        yield { type: 'reasoning-delta', text: reasoning };
      }
      if (typeof delta.content === 'string' && delta.content !== '') {
        text += delta.content;
        yield { type: 'text-delta', text: delta.content };
      }
      if (typeof delta.refusal === 'string' && delta.refusal !== '') {
        refusal += delta.refusal;
        yield { type: 'text-delta', text: delta.refusal };
      }
      if (delta.tool_calls !== undefined) {
        for (const fragment of delta.tool_calls) {
          const pending = (toolCalls[fragment.index] ??= { id: '', name: '', arguments: '' });
          const callId = fragment.id ?? undefined;
          const toolName = fragment.function?.name ?? undefined;
          const argumentsDelta = fragment.function?.arguments ?? '';
          if (callId !== undefined) pending.id = callId;
          if (toolName !== undefined) pending.name += toolName;
          pending.arguments += argumentsDelta;
          yield {
            type: 'tool-call-delta',
            index: fragment.index,
            ...(callId === undefined ? {} : { callId }),
            ...(toolName === undefined ? {} : { toolName }),
            argumentsDelta,
          };
        }
      }
      if (choice.finish_reason !== null) {
        rawFinishReason = choice.finish_reason;
        finished = true;
      }
    }
  } catch (error) {
    throw toModelError(error, provider, signal);
  }
  // The SDK ends a stream quietly when its request is aborted; a cancelled call must not look
  // like a short answer.
  if (signal?.aborted === true) throw toModelError(signal.reason, provider, signal);
  // Every Chat Completions stream ends its choice with a finish reason: without one the reply
  // was not a stream (a JSON body, an HTML page) or the connection was cut mid-answer.
  if (!finished) throw unfinishedStreamError(provider, 'a finish reason', reply, chunks);

  const blocks: ContentBlock[] = [];
  if (thought !== '') blocks.push({ type: 'thinking', thought });
  if (text !== '') blocks.push({ type: 'text', text });
  if (refusal !== '') blocks.push({ type: 'text', text: refusal, metadata: { refusal: true } });
  let toolCallCount = 0;
  for (const call of toolCalls) {
    // A hole means the server skipped an index; there is no call to report for it.
    if (call === undefined) continue;
    toolCallCount++;
    blocks.push({
      type: 'tool_call',
      id: call.id,
      name: call.name,
      parameters: parseToolArguments(call.arguments),
    });
  }
  const finish = chatFinishInfo(rawFinishReason, {
    hasToolCalls: toolCallCount > 0,
    refused: refusal !== '',
  });
  yield {
    type: 'finish',
    response: {
      content: { speaker: 'ai', blocks },
      ...finish,
      ...(usage === undefined ? {} : { usage }),
      ...(id === undefined ? {} : { id }),
      ...(last === undefined ? {} : { raw: last }),
    },
  };
}
