import type { ContentBlock, Message, ToolDeclaration, Usage } from './blocks.ts';
import type { FinishReason } from './finish-reason.ts';

/**
 * Which tools the model may call. `none` sends no tools, `required` asks the provider to call
 * one, `auto` lets the model decide. `allowedToolNames` restricts the tools offered; absent means
 * unrestricted.
 */
export interface ToolChoice {
  readonly mode: 'auto' | 'required' | 'none';
  readonly allowedToolNames?: readonly string[];
}

/** Provider-neutral reasoning controls; each adapter maps what its API supports. */
export interface ReasoningSettings {
  /** Effort level for providers that take one (OpenAI, Gemini 3 thinking level). */
  readonly effort?: 'minimal' | 'low' | 'medium' | 'high';
  /** Token budget for providers that take one (Anthropic, Gemini 2.5). */
  readonly budgetTokens?: number;
  /** Ask the provider to return reasoning summaries / thoughts where it can. */
  readonly includeThoughts?: boolean;
}

/** The generation settings of a model request (the `settings` of the v2 request envelope). */
export interface GenerationSettings {
  readonly temperature?: number;
  readonly maxOutputTokens?: number;
  readonly topP?: number;
  readonly topK?: number;
  readonly stopSequences?: readonly string[];
  readonly seed?: number;
  readonly systemInstruction?: string;
  readonly toolChoice?: ToolChoice;
  readonly reasoning?: ReasoningSettings;
  /** Provider-specific request fields, shallow-merged into the provider's request body. */
  readonly additionalParams?: Readonly<Record<string, unknown>>;
}

/** One model call: the model id, the conversation so far, the tools offered and the settings. */
export interface ModelRequest {
  readonly model: string;
  readonly contents: readonly Message[];
  readonly tools?: readonly ToolDeclaration[];
  readonly settings?: GenerationSettings;
}

/** A complete model answer. `content.speaker` is `ai`. */
export interface ModelResponse {
  readonly content: Message;
  readonly finishReason?: FinishReason;
  readonly rawStopReason?: string;
  readonly usage?: Usage;
  /** The provider's response id, when it has one. */
  readonly id?: string;
  /** The provider's raw response (blocking) or last raw event (streaming), for diagnostics. */
  readonly raw?: unknown;
}

/**
 * What a streaming model call yields. Deltas come first, in the order the provider sent them;
 * the last part is always one `finish` carrying the assembled response, which is the only part
 * that carries the finish reason.
 */
export type ModelStreamPart =
  | { readonly type: 'text-delta'; readonly text: string }
  | {
      readonly type: 'reasoning-delta';
      readonly text: string;
      /** Set when this delta completes a thinking block with a signature. */
      readonly signature?: string;
    }
  | {
      readonly type: 'tool-call-delta';
      /** Position of the call in the response, stable across its fragments. */
      readonly index: number;
      readonly callId?: string;
      readonly toolName?: string;
      readonly argumentsDelta: string;
    }
  | { readonly type: 'finish'; readonly response: ModelResponse };

export interface ModelCallOptions {
  /** Cancels the call (and the HTTP request behind it). */
  readonly signal?: AbortSignal;
}

/**
 * The boundary between the loop and a model provider. Core layers depend only on this interface;
 * provider SDKs live in adapters. Errors are thrown as `ModelError`s.
 */
export interface LanguageModel {
  /** Provider id: `openai`, `anthropic`, `google`, `scripted`, … */
  readonly provider: string;
  /** The model id sent to the provider. */
  readonly modelId: string;
  /**
   * The model's context window in tokens, when the adapter knows it: the loop's default context
   * budget (`maxContextTokens`), past which it compacts the history. Absent: unknown.
   */
  readonly contextWindow?: number;
  /** One blocking call. */
  generate(request: ModelRequest, options?: ModelCallOptions): Promise<ModelResponse>;
  /** One streaming call; the iterable ends with exactly one `finish` part. */
  stream(request: ModelRequest, options?: ModelCallOptions): AsyncIterable<ModelStreamPart>;
}

/** The kinds of model failure an adapter reports, so policies need no provider types. */
export type ModelErrorKind =
  | 'authentication'
  | 'rate_limit'
  | 'context_length'
  | 'invalid_request'
  | 'server'
  | 'network'
  | 'aborted'
  | 'script'
  | 'unknown';

export type { ContentBlock };
