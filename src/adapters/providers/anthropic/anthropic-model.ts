import Anthropic from '@anthropic-ai/sdk';
import type {
  MessageCreateParamsNonStreaming,
  RawMessageStreamEvent,
} from '@anthropic-ai/sdk/resources/messages';
import {
  ModelError,
  type LanguageModel,
  type ModelCallOptions,
  type ModelRequest,
  type ModelResponse,
  type ModelStreamPart,
} from '../../../content/index.ts';
import { contextWindowOf } from '../shared/context-windows.ts';
import { partStream } from '../shared/part-stream.ts';
import { toAnthropicModelError } from './anthropic-error.ts';
import { AnthropicStreamAssembler } from './anthropic-stream-assembler.ts';
import { fromAnthropicMessage } from './from-anthropic-response.ts';
import { toAnthropicRequest } from './to-anthropic-request.ts';

/** Options of {@link createAnthropicModel}. */
export interface AnthropicModelOptions {
  /** The model id, e.g. `claude-sonnet-4-5`. A request's own non-empty `model` wins over it. */
  readonly model: string;
  /** The API key. Required by the real API; a keyless local server accepts any placeholder. */
  readonly apiKey?: string;
  /** The API root (without `/v1`), e.g. `http://127.0.0.1:8080`. Default: Anthropic's API. */
  readonly baseURL?: string;
  /** Retries the SDK makes on 408/409/429/5xx and connection errors. Default 2. */
  readonly maxRetries?: number;
  /**
   * The model's context window in tokens (`LanguageModel.contextWindow`, the loop's default
   * compaction budget). Default: the known window of the model id (`context-windows.ts`), none
   * for an id the table does not know.
   */
  readonly contextWindow?: number;
}

/**
 * A `LanguageModel` over the Anthropic Messages API, through the official SDK
 * (`POST {baseURL}/v1/messages`). `generate` makes one blocking call; `stream` makes one
 * `stream: true` call and yields text, reasoning and tool-call deltas, then one `finish` part.
 * Errors are thrown as `ModelError`s; the call's `signal` aborts the HTTP request.
 */
export function createAnthropicModel(options: AnthropicModelOptions): LanguageModel {
  const client = new Anthropic({
    // Always explicit, so the SDK never reads ANTHROPIC_API_KEY or a profile behind our back.
    apiKey: options.apiKey ?? 'not-needed',
    ...(options.baseURL === undefined ? {} : { baseURL: options.baseURL }),
    maxRetries: options.maxRetries ?? 2,
  });
  const modelOf = (request: ModelRequest): string =>
    request.model === '' ? options.model : request.model;

  return {
    provider: 'anthropic',
    modelId: options.model,
    ...contextWindowOf('anthropic', options),

    async generate(request: ModelRequest, callOptions?: ModelCallOptions): Promise<ModelResponse> {
      const signal = callOptions?.signal;
      try {
        const body = toAnthropicRequest(request, modelOf(request));
        // The body never carries `stream`: a blocking call sends none.
        const response = await client.messages.create(
          body as MessageCreateParamsNonStreaming,
          signal === undefined ? undefined : { signal },
        );
        return fromAnthropicMessage(response);
      } catch (error) {
        throw toAnthropicModelError(error, signal);
      }
    },

    stream(request: ModelRequest, callOptions?: ModelCallOptions): AsyncIterable<ModelStreamPart> {
      const signal = callOptions?.signal;
      const assembler = new AnthropicStreamAssembler();
      return partStream<RawMessageStreamEvent>({
        open: async () =>
          client.messages.create(
            { ...toAnthropicRequest(request, modelOf(request)), stream: true },
            signal === undefined ? undefined : { signal },
          ),
        accept: (event) => assembler.accept(event),
        end: () => {
          // The SDK ends the iteration quietly when the request is aborted: report it as such.
          if (signal?.aborted === true) throw toAnthropicModelError(signal.reason, signal);
          if (!assembler.completed) {
            throw new ModelError({
              kind: 'network',
              provider: 'anthropic',
              message:
                'The Anthropic stream ended before message_stop: the connection was cut short',
            });
          }
          return { type: 'finish', response: assembler.finish() };
        },
        fail: (error) => toAnthropicModelError(error, signal),
      });
    },
  };
}
