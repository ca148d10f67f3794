import { GoogleGenAI, type GenerateContentConfig } from '@google/genai';
import type {
  LanguageModel,
  ModelCallOptions,
  ModelRequest,
  ModelResponse,
  ModelStreamPart,
} from '../../../content/index.ts';
import { retryAfterMilliseconds } from '../shared/model-error-mapping.ts';
import { contextWindowOf } from '../shared/context-windows.ts';
import { toGeminiModelError } from './gemini-error.ts';
import { fromGeminiResponse, GeminiResponseAssembler } from './gemini-response-assembler.ts';
import { toGeminiRequest } from './to-gemini-request.ts';

/**
 * The Gemini API version the adapter calls. Pinned to `v1beta` (the SDK's own default is `v1`),
 * because thinking configuration, thought signatures and function-call ids are `v1beta`
 * features: requests go to `{baseURL}/v1beta/models/{model}:generateContent` and
 * `…:streamGenerateContent?alt=sse`.
 */
export const GEMINI_API_VERSION = 'v1beta';

/** Options of {@link createGoogleModel}. */
export interface GoogleModelOptions {
  /** The model id, e.g. `gemini-2.5-flash`. A request's own non-empty `model` wins over it. */
  readonly model: string;
  /** The Gemini API key (sent as `x-goog-api-key`). */
  readonly apiKey?: string;
  /** The API root (without the version), e.g. `http://127.0.0.1:8080`. Default: Google's. */
  readonly baseURL?: string;
  /** Retries on 408/429/5xx with exponential backoff. Default 2; 0 disables retrying. */
  readonly maxRetries?: number;
  /**
   * The model's context window in tokens (`LanguageModel.contextWindow`, the loop's default
   * compaction budget). Default: the known window of the model id (`context-windows.ts`), none
   * for an id the table does not know.
   */
  readonly contextWindow?: number;
}

/**
 * A `LanguageModel` over the Gemini API (`generateContent` / `streamGenerateContent`), through
 * the official `@google/genai` SDK. `generate` makes one blocking call; `stream` yields text,
 * reasoning and tool-call deltas (Gemini sends each function call whole, so one delta carries
 * all its arguments), then one `finish` part. Errors are thrown as `ModelError`s; the call's
 * `signal` aborts the HTTP request (`config.abortSignal`).
 */
export function createGoogleModel(options: GoogleModelOptions): LanguageModel {
  const maxRetries = options.maxRetries ?? 2;
  const ai = new GoogleGenAI({
    apiKey: options.apiKey ?? 'not-needed',
    apiVersion: GEMINI_API_VERSION,
    // Explicit, so GOOGLE_GENAI_USE_VERTEXAI in the environment cannot switch the backend.
    vertexai: false,
    httpOptions: {
      ...(options.baseURL === undefined ? {} : { baseUrl: options.baseURL }),
      ...(maxRetries > 0 ? { retryOptions: { attempts: maxRetries + 1 } } : {}),
    },
  });
  const modelOf = (request: ModelRequest): string =>
    request.model === '' ? options.model : request.model;

  /**
   * The SDK's ApiError keeps no headers; a per-call fetch wrapper remembers the `retry-after`
   * of the last failed response so a 429 can carry it.
   */
  const callConfig = (
    config: GenerateContentConfig,
    signal: AbortSignal | undefined,
    seen: { retryAfterMs?: number },
  ): GenerateContentConfig => ({
    ...config,
    ...(signal === undefined ? {} : { abortSignal: signal }),
    httpOptions: {
      ...config.httpOptions,
      fetch: async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
        const response = await fetch(input, init);
        if (!response.ok) {
          const retryAfterMs = retryAfterMilliseconds(response.headers);
          if (retryAfterMs !== undefined) seen.retryAfterMs = retryAfterMs;
        }
        return response;
      },
    },
  });

  return {
    provider: 'google',
    modelId: options.model,
    ...contextWindowOf('google', options),

    async generate(request: ModelRequest, callOptions?: ModelCallOptions): Promise<ModelResponse> {
      const signal = callOptions?.signal;
      const seen: { retryAfterMs?: number } = {};
      try {
        const { model, contents, config } = toGeminiRequest(request, modelOf(request));
        const response = await ai.models.generateContent({
          model,
          contents,
          config: callConfig(config, signal, seen),
        });
        return fromGeminiResponse(response);
      } catch (error) {
        throw toGeminiModelError(error, signal, seen.retryAfterMs);
      }
    },

    async *stream(
      request: ModelRequest,
      callOptions?: ModelCallOptions,
    ): AsyncGenerator<ModelStreamPart> {
      const signal = callOptions?.signal;
      const seen: { retryAfterMs?: number } = {};
      const assembler = new GeminiResponseAssembler({ mergeText: true });
      const pending: ModelStreamPart[] = [];
      try {
        const { model, contents, config } = toGeminiRequest(request, modelOf(request));
        const chunks = await ai.models.generateContentStream({
          model,
          contents,
          config: callConfig(config, signal, seen),
        });
        for await (const chunk of chunks) {
          assembler.accept(chunk, pending);
          for (const part of pending) yield part;
          pending.length = 0;
        }
      } catch (error) {
        throw toGeminiModelError(error, signal, seen.retryAfterMs);
      }
      if (signal?.aborted === true) throw toGeminiModelError(signal.reason, signal);
      yield { type: 'finish', response: assembler.finish() };
    },
  };
}
