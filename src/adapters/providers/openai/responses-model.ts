import type OpenAI from 'openai';
import type {
  Response,
  ResponseCreateParamsNonStreaming,
  ResponseCreateParamsStreaming,
  ResponseOutputItem,
  ResponseStreamEvent,
} from 'openai/resources/responses/responses';
import { ModelError } from '../../../content/index.ts';
import type {
  LanguageModel,
  ModelCallOptions,
  ModelRequest,
  ModelStreamPart,
} from '../../../content/index.ts';
import { toModelError } from '../shared/model-error-mapping.ts';
import { contextWindowOf } from '../shared/context-windows.ts';
import { createOpenAIClient } from './client.ts';
import type { OpenAIModelOptions } from './client.ts';
import { kindOfErrorCode, responseToModelResponse } from './responses-output.ts';
import { buildResponsesRequest } from './responses-request.ts';
import {
  isObject,
  notAnAnswerError,
  replyInfoOf,
  unfinishedStreamError,
  type ReplyInfo,
} from './reply-checks.ts';
import type { ResponsesRequestOptions } from './responses-request.ts';

/** Options of `createOpenAIResponsesModel`. */
export interface OpenAIResponsesModelOptions extends OpenAIModelOptions {
  /** Whether OpenAI stores responses (`store`). Default false: hookwire resends the history. */
  readonly store?: boolean;
  /**
   * Whether the model is a reasoning model, so encrypted reasoning is requested (with
   * `store: false`) and round-tripped. Default: guessed from the model id (`o1`…`o9`, `gpt-5`
   * except `-chat` variants, `codex`); set it for any other reasoning model.
   */
  readonly reasoningModel?: boolean;
}

const reasoningModelId = /^(o\d|gpt-5(?!.*-chat)|codex|gpt-oss)/;

/**
 * A `LanguageModel` over the OpenAI Responses API (`POST /responses`), stateless by default:
 * every call sends the whole conversation, and reasoning is carried between calls as encrypted
 * content on thinking blocks. A `failed` response and an `error` event throw `ModelError`s; the
 * abort signal cancels the HTTP request.
 */
export function createOpenAIResponsesModel(options: OpenAIResponsesModelOptions): LanguageModel {
  const client = createOpenAIClient(options);
  const provider = options.compatible === true ? 'openai-compatible' : 'openai';
  const store = options.store ?? false;
  const requestOptions: ResponsesRequestOptions = {
    store,
    encryptedReasoning: !store && (options.reasoningModel ?? reasoningModelId.test(options.model)),
  };
  const withModel = (request: ModelRequest): ModelRequest =>
    request.model === '' ? { ...request, model: options.model } : request;
  return {
    provider,
    modelId: options.model,
    ...contextWindowOf(options.compatible === true ? undefined : 'openai', options),
    async generate(request, callOptions) {
      const signal = callOptions?.signal;
      try {
        const body = {
          ...buildResponsesRequest(withModel(request), requestOptions),
          stream: false,
        } as ResponseCreateParamsNonStreaming;
        // Read raw: the SDK's own parsing of a Responses body throws a TypeError on a body that
        // is not JSON (an HTML page from a proxy or a wrong base URL). Error statuses still throw.
        const reply = await client.responses.create(body, signalOption(signal)).asResponse();
        const text = await reply.text();
        let data: unknown = text;
        try {
          data = JSON.parse(text) as unknown;
        } catch {
          // Not JSON: reported below with the start of the text.
        }
        if (!isObject(data) || !Array.isArray(data.output))
          throw notAnAnswerError(provider, 'a Responses object', replyInfoOf(reply), data);
        return responseToModelResponse(data as unknown as Response, provider);
      } catch (error) {
        throw toModelError(error, provider, signal);
      }
    },
    stream(request, callOptions) {
      return streamResponses(client, provider, withModel(request), requestOptions, callOptions);
    },
  };
}

function signalOption(signal: AbortSignal | undefined): { signal?: AbortSignal } {
  return signal === undefined ? {} : { signal };
}

// Output items as the stream builds them: the `added` item, grown by deltas, replaced by `done`.
// Typed loosely because the SDK's item types are read-only views of finished items.
interface GrowingMessagePart {
  type: string;
  text?: string;
  refusal?: string;
  annotations?: unknown[];
}
interface GrowingItem {
  type: string;
  arguments?: string;
  content?: GrowingMessagePart[];
  summary?: { type: 'summary_text'; text: string }[];
}

async function* streamResponses(
  client: OpenAI,
  provider: string,
  request: ModelRequest,
  requestOptions: ResponsesRequestOptions,
  callOptions: ModelCallOptions | undefined,
): AsyncGenerator<ModelStreamPart> {
  const signal = callOptions?.signal;
  // Indexed by output index; sparse while items are missing.
  const items: (GrowingItem | undefined)[] = [];
  // Output index → position among the response's tool calls (the delta `index`).
  const toolCallIndex = new Map<number, number>();
  let terminal: Response | undefined;
  let last: ResponseStreamEvent | undefined;
  // Set before the first event is read; the checks after the loop run only once it is.
  let reply!: ReplyInfo;
  let events = 0;
  try {
    const body = {
      ...buildResponsesRequest(request, requestOptions),
      stream: true,
    } as ResponseCreateParamsStreaming;
    const { data: stream, response } = await client.responses
      .create(body, signalOption(signal))
      .withResponse();
    reply = replyInfoOf(response);
    for await (const event of stream) {
      events++;
      last = event;
      switch (event.type) {
        case 'response.output_item.added': {
          const item = { ...(event.item as unknown as GrowingItem) };
          if (item.content !== undefined) item.content = item.content.map((part) => ({ ...part }));
          if (item.summary !== undefined) item.summary = item.summary.map((part) => ({ ...part }));
          items[event.output_index] = item;
          if (event.item.type === 'function_call') {
            const index = toolCallIndex.size;
            toolCallIndex.set(event.output_index, index);
            item.arguments ??= '';
            yield {
              type: 'tool-call-delta',
              index,
              callId: event.item.call_id,
              toolName: event.item.name,
              argumentsDelta: event.item.arguments,
            };
          }
          break;
        }
        case 'response.output_text.delta': {
          const part = contentPart(items, event.output_index, event.content_index, 'output_text');
          part.text = (part.text ?? '') + event.delta;
          yield { type: 'text-delta', text: event.delta };
          break;
        }
        case 'response.refusal.delta': {
          const part = contentPart(items, event.output_index, event.content_index, 'refusal');
          part.refusal = (part.refusal ?? '') + event.delta;
          yield { type: 'text-delta', text: event.delta };
          break;
        }
        case 'response.function_call_arguments.delta': {
          const item = (items[event.output_index] ??= { type: 'function_call', arguments: '' });
          item.arguments = (item.arguments ?? '') + event.delta;
          yield {
            type: 'tool-call-delta',
            index: toolCallIndex.get(event.output_index) ?? toolCallIndex.size,
            argumentsDelta: event.delta,
          };
          break;
        }
        case 'response.reasoning_summary_text.delta': {
          const item = (items[event.output_index] ??= { type: 'reasoning', summary: [] });
          const summary = (item.summary ??= []);
          const part = (summary[event.summary_index] ??= { type: 'summary_text', text: '' });
          part.text += event.delta;
          yield { type: 'reasoning-delta', text: event.delta };
          break;
        }
        case 'response.reasoning_text.delta': {
          const part = contentPart(
            items,
            event.output_index,
            event.content_index,
            'reasoning_text',
          );
          part.text = (part.text ?? '') + event.delta;
          yield { type: 'reasoning-delta', text: event.delta };
          break;
        }
        case 'response.output_item.done':
          items[event.output_index] = event.item as unknown as GrowingItem;
          break;
        case 'response.completed':
        case 'response.incomplete':
        case 'response.failed':
          terminal = event.response;
          break;
        case 'error':
          // Servers that omit the SSE `event:` line deliver the error event as data.
          throw new ModelError({
            kind: kindOfErrorCode(event.code),
            provider,
            message: event.code === null ? event.message : `${event.code}: ${event.message}`,
            cause: event,
          });
        default:
          break;
      }
    }
  } catch (error) {
    throw toModelError(error, provider, signal);
  }
  // The SDK ends a stream quietly when its request is aborted; a cancelled call must not look
  // like a short answer.
  if (signal?.aborted === true) throw toModelError(signal.reason, provider, signal);

  // Every Responses stream ends with response.completed, .incomplete or .failed: without one the
  // reply was not a stream (a JSON body, an HTML page) or the connection was cut mid-answer.
  if (terminal === undefined)
    throw unfinishedStreamError(provider, 'a terminal response event', reply, events);
  const assembled = items.filter((item) => item !== undefined) as unknown as ResponseOutputItem[];
  const output = terminal.output.length > 0 ? terminal.output : assembled;
  yield { type: 'finish', response: responseToModelResponse(terminal, provider, output, last) };
}

function contentPart(
  items: (GrowingItem | undefined)[],
  outputIndex: number,
  contentIndex: number,
  type: string,
): GrowingMessagePart {
  const item = (items[outputIndex] ??= {
    type: type === 'reasoning_text' ? 'reasoning' : 'message',
    content: [],
  });
  if (type === 'reasoning_text') item.summary ??= [];
  const content = (item.content ??= []);
  return (content[contentIndex] ??=
    type === 'output_text' ? { type, text: '', annotations: [] } : { type });
}
