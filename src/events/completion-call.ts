/**
 * `completionCall` (external `BeforeModel`): before each model call, first of the step's request
 * hooks (completion call, then tool selection, then model selection, then the call).
 */
import type { Message, ModelRequest, ModelResponse } from '../content/index.ts';
import {
  hookLLMRequestInputSchema,
  hookLLMRequestOverrideSchema,
  hookLLMResponseSchema,
  mergeHookLLMRequest,
  mergeLLMRequestOverrides,
  toHookLLMRequest,
  type HookLLMRequest,
  type HookLLMRequestOverride,
  type HookLLMResponseOverride,
} from '../wire/index.ts';
import { NEXT, type EventDefinition, type ExternalSide } from './define-event.ts';
import { isEmptyRequestPatch, mergeRequestPatches, type RequestPatch } from './request-patch.ts';
import { CONTINUE } from './shared.ts';

/**
 * Fires before each model call (external `BeforeModel`), first of the step's request hooks:
 * completion call, then tool selection, then model selection, then the call. `request` is the
 * request as the loop would send it before any hook changed it (the tools are all the tools the
 * step offers; tool selection narrows them afterwards).
 */
export interface CompletionCallEvent {
  /** The prompt that opened this turn (or the latest continuation/feedback message). */
  readonly prompt: Message;
  /** History preceding the prompt. */
  readonly history: readonly Message[];
  /** One-based model-call index within the run (the same number as `HookContext.modelCall`). */
  readonly modelCall: number;
  /** @deprecated The same number as `modelCall`; use `modelCall`. */
  readonly turn: number;
  readonly request: ModelRequest;
}

/**
 * Before each model call. Patches accumulate in registration order (see `RequestPatch`); the
 * first `respond`, `deny` or `stop` short-circuits the rest, and a `stop`/`deny` discards the
 * patches before it. `respond` skips the model call and uses the synthetic response (the
 * accumulated patches are irrelevant then). `deny` aborts the turn without calling the model;
 * `stop` ends the run.
 */
export type CompletionCallAction =
  | { readonly kind: 'continue' }
  | { readonly kind: 'patch'; readonly patch: RequestPatch }
  | { readonly kind: 'respond'; readonly response: ModelResponse }
  | { readonly kind: 'deny'; readonly reason: string }
  | { readonly kind: 'stop'; readonly reason: string };
export const CompletionCallAction = {
  continue: (): CompletionCallAction => CONTINUE,
  patch: (patch: RequestPatch): CompletionCallAction => ({ kind: 'patch', patch }),
  respond: (response: ModelResponse): CompletionCallAction => ({ kind: 'respond', response }),
  deny: (reason: string): CompletionCallAction => ({ kind: 'deny', reason }),
  stop: (reason: string): CompletionCallAction => ({ kind: 'stop', reason }),
} as const;

/** The payload fields of `BeforeModel`. */
export interface BeforeModelInput {
  readonly llm_request: HookLLMRequest;
}

/** The `hookSpecificOutput` of `BeforeModel`. */
export interface BeforeModelOutput {
  readonly llm_request?: HookLLMRequestOverride;
  readonly llm_response?: HookLLMResponseOverride;
}

/** A `BeforeModel` hook's `llm_request` override as a `RequestPatch` for the stack to merge. */
export function requestPatchFromOverride(override: HookLLMRequestOverride): RequestPatch {
  // The wire's rule: settings shallow-merge, so a provider-fields object replaces the request's
  // (only in-process patches deep-merge additionalParams).
  const { systemInstruction, temperature, maxOutputTokens, topP, toolChoice, reasoning, ...rest } =
    override.settings ?? {};
  const settings = Object.keys(rest).length > 0 ? rest : undefined;
  return {
    ...(override.model === undefined ? {} : { model: override.model }),
    ...(override.contents === undefined ? {} : { history: override.contents }),
    ...(override.tools === undefined ? {} : { tools: override.tools }),
    ...(systemInstruction === undefined ? {} : { systemInstruction }),
    ...(temperature === undefined ? {} : { temperature }),
    ...(maxOutputTokens === undefined ? {} : { maxOutputTokens }),
    ...(topP === undefined ? {} : { topP }),
    ...(toolChoice === undefined ? {} : { toolChoice }),
    ...(reasoning === undefined ? {} : { reasoning }),
    ...(settings === undefined ? {} : { settings }),
  };
}

/** A hook's `llm_response` as a neutral response (a synthetic answer, or a replacement over `base`). */
export function responseFromOverride(
  override: HookLLMResponseOverride,
  base?: ModelResponse,
): ModelResponse {
  const { version: _version, ...fields } = override;
  return { ...base, ...fields };
}

function lastHumanPrompt(contents: readonly Message[]): Message {
  for (let index = contents.length - 1; index >= 0; index--) {
    const candidate = contents[index];
    if (candidate?.speaker === 'human') return candidate;
  }
  return { speaker: 'human', blocks: [] };
}

interface CompletionCallState {
  patch: RequestPatch | undefined;
  /** The one patch action seen so far, returned as is when no other member patches. */
  single: CompletionCallAction | undefined;
}

type External = ExternalSide<
  'BeforeModel',
  CompletionCallEvent,
  CompletionCallAction,
  BeforeModelInput,
  BeforeModelOutput
>;

/** Patches accumulate (`mergeRequestPatches`); the first respond/deny/stop short-circuits and discards them. */
export const completionCall: EventDefinition<
  'completionCall',
  'onCompletionCall',
  CompletionCallEvent,
  CompletionCallAction,
  External
> = {
  kind: 'completionCall',
  method: 'onCompletionCall',
  actionKinds: ['continue', 'patch', 'respond', 'deny', 'stop'],
  compose: {
    proceed: CONTINUE,
    start: (): CompletionCallState => ({ patch: undefined, single: undefined }),
    accept(state: CompletionCallState, action, member) {
      if (action.kind === 'continue') return NEXT;
      if (action.kind !== 'patch') return action; // respond, deny or stop: earlier patches are discarded
      if (state.patch === undefined) {
        state.patch = action.patch;
        state.single = action;
      } else {
        state.patch = mergeRequestPatches(state.patch, action.patch, (field) => {
          member.warn(
            `two completion-call hooks set RequestPatch.${field} for the same model call; the later one ("${member.name()}") wins`,
          );
        });
        state.single = undefined;
      }
      return NEXT;
    },
    eventFor: (_state, event) => event,
    finish(state: CompletionCallState) {
      if (state.patch === undefined || isEmptyRequestPatch(state.patch))
        return CompletionCallAction.continue();
      return state.single ?? CompletionCallAction.patch(state.patch);
    },
  },
  external: {
    name: 'BeforeModel',
    aliases: [],
    matcher: undefined,
    can: { deny: true, stop: true, textIsContext: false, failClosed: 'deny' },
    input: () => ({ llm_request: hookLLMRequestInputSchema() }),
    output: () => ({
      llm_request: hookLLMRequestOverrideSchema()
        .optional()
        .describe(
          'Merged over the outgoing request: contents/tools replace, settings shallow-merge.',
        ),
      llm_response: hookLLMResponseSchema()
        .optional()
        .describe('A synthetic response: the model is not called.'),
    }),
    toPayload: (event) => ({ llm_request: toHookLLMRequest(event.request) }),
    fromPayload(payload) {
      const request = payload.llm_request as ModelRequest;
      return {
        prompt: lastHumanPrompt(request.contents),
        history: request.contents,
        modelCall: 1,
        // eslint-disable-next-line @typescript-eslint/no-deprecated -- the first release's name, still filled in
        turn: 1,
        request,
      };
    },
    toAction(outcome, _event, reasons) {
      if (outcome.stopped) return CompletionCallAction.stop(reasons.stop());
      if (outcome.denied) return CompletionCallAction.deny(reasons.deny());
      if (outcome.llmResponse !== undefined)
        return CompletionCallAction.respond(responseFromOverride(outcome.llmResponse));
      if (outcome.llmRequest !== undefined)
        return CompletionCallAction.patch(requestPatchFromOverride(outcome.llmRequest));
      return CompletionCallAction.continue();
    },
    describeAction(action, outcomes) {
      if (action.kind === 'respond') return { llm_response: { version: 2, ...action.response } };
      // A patch is reported in the wire's own terms, from the hooks' llm_request outputs.
      const override = mergeLLMRequestOverrides(outcomes.map((outcome) => outcome.llmRequest));
      return override === undefined ? {} : { llm_request: override };
    },
    chainPayload(payload, specific) {
      if (specific['llm_request'] === undefined) return payload;
      return {
        ...payload,
        llm_request: mergeHookLLMRequest(
          payload.llm_request as ModelRequest,
          specific['llm_request'],
        ) as HookLLMRequest,
      };
    },
  },
};
