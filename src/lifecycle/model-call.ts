/**
 * A model call, for every host: before it, BeforeModel (`completionCall`: patch / respond / deny
 * / stop) then BeforeToolSelection (`toolSelection`, when the request offers tools and no
 * synthetic answer stands) and the tool choice enforced on the request; after it, AfterModel
 * (`modelOutput`: replace / deny / stop) on the answer or a chunk of it.
 */
import type { Message, ModelRequest, ModelResponse } from '../content/index.ts';
import {
  applyRequestPatch,
  type CompletionCallAction,
  type ModelOutputAction,
  type RequestPatch,
} from '../events/index.ts';
import type { LifecycleHooks } from './lifecycle-hooks.ts';
import { deniedTurnEnd } from './turn-end.ts';
import { enforceToolChoice, withToolChoice } from './tool-choice.ts';

/** What the host does with the call. */
export type BeforeModelDecision =
  /** Call the model with `request` (patched, tool choice enforced). */
  | {
      readonly kind: 'call';
      readonly request: ModelRequest;
      readonly patch: RequestPatch | undefined;
    }
  /** Do not call the model: `response` is its answer. */
  | { readonly kind: 'respond'; readonly request: ModelRequest; readonly response: ModelResponse }
  /** The call is refused: the turn ends `stopped` with `turnEnd`, the run goes on. */
  | { readonly kind: 'deny'; readonly reason: string; readonly turnEnd: string }
  /** The turn and the run end. */
  | { readonly kind: 'stop'; readonly reason: string };

/** The facts of a model call about to be made. */
export interface ModelCallFacts {
  readonly request: ModelRequest;
  /** The message the call answers (built only for a hook that observes BeforeModel). */
  readonly prompt: () => Message;
  /** The history before it. */
  readonly history: () => readonly Message[];
  /** The run's model-call count, this call included. */
  readonly modelCall: number;
}

/**
 * BeforeModel, BeforeToolSelection and the enforced tool choice. Returns at once, with no
 * promise, when no hook observes either event.
 */
export function beforeModelCall(
  hooks: LifecycleHooks,
  facts: ModelCallFacts,
): BeforeModelDecision | Promise<BeforeModelDecision> {
  const { request, modelCall } = facts;
  const fired = hooks.fire('completionCall', () => ({
    prompt: facts.prompt(),
    history: facts.history(),
    modelCall,
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- the first release's name, still filled in
    turn: modelCall,
    request,
  }));
  if (fired === undefined) return selectTools(hooks, request, undefined);
  return fired.then((action) => afterBeforeModel(hooks, request, action));
}

function afterBeforeModel(
  hooks: LifecycleHooks,
  request: ModelRequest,
  action: CompletionCallAction,
): BeforeModelDecision | Promise<BeforeModelDecision> {
  switch (action.kind) {
    case 'continue':
      return selectTools(hooks, request, undefined);
    case 'patch':
      return selectTools(hooks, applyRequestPatch(request, action.patch), action.patch);
    case 'respond':
      return { kind: 'respond', request: enforceToolChoice(request), response: action.response };
    case 'deny':
      return {
        kind: 'deny',
        reason: action.reason,
        turnEnd: deniedTurnEnd('BeforeModel', action.reason),
      };
    case 'stop':
      return { kind: 'stop', reason: action.reason };
  }
}

function selectTools(
  hooks: LifecycleHooks,
  request: ModelRequest,
  patch: RequestPatch | undefined,
): BeforeModelDecision | Promise<BeforeModelDecision> {
  const tools = request.tools;
  const fired =
    tools !== undefined && tools.length > 0
      ? hooks.fire('toolSelection', () => ({
          request,
          tools,
          toolChoice: request.settings?.toolChoice,
        }))
      : undefined;
  if (fired === undefined) return { kind: 'call', request: enforceToolChoice(request), patch };
  return fired.then((action) => ({
    kind: 'call',
    request: enforceToolChoice(
      action.kind === 'choose' ? withToolChoice(request, action.toolChoice) : request,
    ),
    patch,
  }));
}

/** What the host does with a model's answer (or a chunk of it) after AfterModel. */
export type ModelOutputDecision =
  | { readonly kind: 'keep' }
  | { readonly kind: 'replace'; readonly response: ModelResponse }
  /** The output is refused: the turn ends `stopped` with `turnEnd`, the run goes on. */
  | { readonly kind: 'deny'; readonly reason: string; readonly turnEnd: string }
  | { readonly kind: 'stop'; readonly reason: string };

const KEEP: ModelOutputDecision = { kind: 'keep' };

/** AfterModel's action as the decision the host applies. */
export function modelOutputDecision(action: ModelOutputAction): ModelOutputDecision {
  switch (action.kind) {
    case 'continue':
      return KEEP;
    case 'replace':
      return action;
    case 'deny':
      return {
        kind: 'deny',
        reason: action.reason,
        turnEnd: deniedTurnEnd('AfterModel', action.reason),
      };
    case 'stop':
      return action;
  }
}

/** The facts of a model's output. */
export interface ModelOutputFacts {
  readonly request: ModelRequest;
  readonly response: ModelResponse;
  /** True for a chunk of a stream (text, or the terminal chunk with tool calls and finish). */
  readonly isChunk: boolean;
  readonly isTerminal: boolean;
}

/** AfterModel on the output. Returns at once, with no promise, when no hook observes it. */
export function afterModelOutput(
  hooks: LifecycleHooks,
  facts: ModelOutputFacts,
): ModelOutputDecision | Promise<ModelOutputDecision> {
  const fired = hooks.fire('modelOutput', () => facts);
  if (fired === undefined) return KEEP;
  return fired.then(modelOutputDecision);
}
