/**
 * `modelOutput` (external `AfterModel`): the model's output as it arrives, each chunk when
 * streaming, the whole response when blocking.
 */
import type { ModelRequest, ModelResponse } from '../content/index.ts';
import {
  hookLLMRequestInputSchema,
  hookLLMResponseInputSchema,
  hookLLMResponseSchema,
  toHookLLMRequest,
  toHookLLMResponse,
  type HookLLMRequest,
  type HookLLMResponse,
  type HookLLMResponseOverride,
} from '../wire/index.ts';
import { responseFromOverride } from './completion-call.ts';
import { NEXT, type EventDefinition, type ExternalSide } from './define-event.ts';
import { CONTINUE } from './shared.ts';

/**
 * The model's output as it arrives (external `AfterModel`): each chunk when streaming, the whole
 * response when blocking. A hook may replace it, deny it (the turn is aborted) or stop the run.
 */
export interface ModelOutputEvent {
  readonly request: ModelRequest;
  /** For a chunk: the chunk's content only; `finishReason` only on the terminal chunk. */
  readonly response: ModelResponse;
  /** True for a streamed chunk, false for a complete (blocking) response. */
  readonly isChunk: boolean;
  /** True on the last chunk of a stream, and for a complete response. */
  readonly isTerminal: boolean;
}

/**
 * The model's output, per chunk when streaming (external `AfterModel`). Replacements chain: a
 * later hook sees the earlier replacement; the first `deny` or `stop` short-circuits.
 */
export type ModelOutputAction =
  | { readonly kind: 'continue' }
  | { readonly kind: 'replace'; readonly response: ModelResponse }
  | { readonly kind: 'deny'; readonly reason: string }
  | { readonly kind: 'stop'; readonly reason: string };
export const ModelOutputAction = {
  continue: (): ModelOutputAction => CONTINUE,
  replace: (response: ModelResponse): ModelOutputAction => ({ kind: 'replace', response }),
  deny: (reason: string): ModelOutputAction => ({ kind: 'deny', reason }),
  stop: (reason: string): ModelOutputAction => ({ kind: 'stop', reason }),
} as const;

/** The payload fields of `AfterModel`. */
export interface AfterModelInput {
  readonly llm_request: HookLLMRequest;
  readonly llm_response: HookLLMResponse;
}

/** The `hookSpecificOutput` of `AfterModel`. */
export interface AfterModelOutput {
  readonly llm_response?: HookLLMResponseOverride;
}

interface OutputState {
  response: ModelResponse | undefined;
}

type External = ExternalSide<
  'AfterModel',
  ModelOutputEvent,
  ModelOutputAction,
  AfterModelInput,
  AfterModelOutput
>;

/** Replacements chain into later members; the first deny/stop short-circuits. */
export const modelOutput: EventDefinition<
  'modelOutput',
  'onModelOutput',
  ModelOutputEvent,
  ModelOutputAction,
  External
> = {
  kind: 'modelOutput',
  method: 'onModelOutput',
  actionKinds: ['continue', 'replace', 'deny', 'stop'],
  compose: {
    proceed: CONTINUE,
    start: (): OutputState => ({ response: undefined }),
    accept(state: OutputState, action) {
      if (action.kind === 'continue') return NEXT;
      if (action.kind === 'replace') {
        state.response = action.response;
        return NEXT;
      }
      return action; // deny or stop
    },
    eventFor: (state: OutputState, event) =>
      state.response === undefined ? event : { ...event, response: state.response },
    finish: (state: OutputState) =>
      state.response === undefined
        ? ModelOutputAction.continue()
        : ModelOutputAction.replace(state.response),
  },
  external: {
    name: 'AfterModel',
    aliases: [],
    matcher: undefined,
    can: { deny: true, stop: true, textIsContext: false, failClosed: 'deny' },
    input: () => ({
      llm_request: hookLLMRequestInputSchema(),
      llm_response: hookLLMResponseInputSchema(),
    }),
    output: () => ({
      llm_response: hookLLMResponseSchema()
        .optional()
        .describe('Replaces the response (or chunk).'),
    }),
    toPayload: (event) => ({
      llm_request: toHookLLMRequest(event.request),
      llm_response: toHookLLMResponse(event.response),
    }),
    fromPayload: (payload) => ({
      request: payload.llm_request,
      response: payload.llm_response,
      isChunk: false,
      isTerminal: true,
    }),
    toAction(outcome, event, reasons) {
      if (outcome.stopped) return ModelOutputAction.stop(reasons.stop());
      if (outcome.denied) return ModelOutputAction.deny(reasons.deny());
      if (outcome.llmResponse !== undefined)
        return ModelOutputAction.replace(responseFromOverride(outcome.llmResponse, event.response));
      return ModelOutputAction.continue();
    },
    describeAction: (action) =>
      action.kind === 'replace' ? { llm_response: { version: 2, ...action.response } } : {},
    chainPayload(payload, specific) {
      const replacement = specific['llm_response'];
      if (replacement === undefined) return payload;
      return {
        ...payload,
        llm_response: { ...payload.llm_response, ...(replacement as object) },
      };
    },
  },
};
