/**
 * One model call of a step, from request preparation to the accepted answer:
 *
 * budget → BeforeModel (`completionCall`: patch / respond / deny / stop) → BeforeToolSelection
 * (`toolSelection`; the tool choice is then enforced on the request) → model selection (sync) →
 * the call (`generate`, or `stream` with delta hooks and per-chunk AfterModel) → AfterModel on the
 * whole response (blocking) → completion-response / stream-finish observers → finish reason
 * reconciled → `modelTurnFinished` (continue / repeat / retry with feedback / stop) → a
 * safety-filtered, refused or failed answer ends the turn as failed.
 *
 * Both surfaces share everything but the call itself (`callBlocking` / `callStreaming`, in
 * `model-call.ts`); the BeforeModel / BeforeToolSelection and AfterModel rules are the
 * lifecycle's (src/lifecycle/model-call.ts), as for every host.
 */
import {
  reconcileFinishReason,
  toolCallsOf,
  type FinishReason,
  type LanguageModel,
  type Message,
  type ModelRequest,
  type ModelResponse,
  type ToolCallBlock,
} from '../content/index.ts';
import { beforeModelCall, failedAnswer, isPromiseLike } from '../lifecycle/index.ts';
import { CancelledError } from './loop-error.ts';
import { callBlocking, callStreaming, stopped, type StepEnd } from './model-call.ts';
import { endModelCallSpan, startModelCallSpan, type ModelCallEnd } from './run-telemetry.ts';
import type { RunState, TurnState } from './run-state.ts';
import { isoTime } from './timestamp.ts';

/** What one model call leads to. */
export type ModelStepOutcome =
  | {
      readonly kind: 'accepted';
      /** The accepted answer, its finish reason reconciled with its content. */
      readonly response: ModelResponse;
      readonly finishReason: FinishReason | undefined;
      /** The request as sent (after patches and tool-choice enforcement). */
      readonly request: ModelRequest;
      readonly toolCalls: readonly ToolCallBlock[];
    }
  /** The turn was rejected by a `modelTurnFinished` hook: call the model again. */
  | { readonly kind: 'retry' }
  | StepEnd;

/**
 * Runs one model call of `turn`, and records it (a `model-call` transcript record; with a
 * tracer, its `chat` span, open from its first guarding hook to its answer).
 */
export async function runModelStep(run: RunState, turn: TurnState): Promise<ModelStepOutcome> {
  let outcome: ModelStepOutcome | undefined;
  let failure: unknown;
  try {
    outcome = await modelStep(run, turn);
    return outcome;
  } catch (error) {
    failure = error;
    throw error;
  } finally {
    if (run.modelCallStart !== undefined) finishModelCall(run, turn, outcome, failure);
  }
}

function finishModelCall(
  run: RunState,
  turn: TurnState,
  outcome: ModelStepOutcome | undefined,
  failure: unknown,
): void {
  const startTime = run.modelCallStart ?? Date.now();
  run.modelCallStart = undefined;
  const model = run.calledModel;
  let end: ModelCallEnd;
  if (outcome === undefined) {
    end =
      failure instanceof CancelledError || run.signal.aborted
        ? { status: 'cancelled', model }
        : {
            status: 'failed',
            model,
            reason: failure instanceof Error ? failure.message : String(failure),
          };
  } else if (outcome.kind === 'accepted') {
    end = {
      status: model === undefined ? 'synthetic' : 'answered',
      model,
      finishReason: outcome.finishReason,
      usage: outcome.response.usage,
      responseId: outcome.response.id,
    };
  } else if (outcome.kind === 'retry') {
    end = { status: 'retried', model };
  } else {
    const { status, reason, endsRun } = outcome.end;
    end = {
      status:
        status === 'failed'
          ? 'failed'
          : status === 'cancelled'
            ? 'cancelled'
            : endsRun
              ? 'stopped'
              : 'denied',
      model,
      reason,
      finishReason: outcome.end.failure?.finishReason,
    };
  }
  // Absent fields are `undefined`, which the JSON encoding leaves out (no spread per field).
  run.record({
    type: 'model-call',
    turn: turn.number,
    modelCall: run.budget.used,
    provider: model?.provider,
    model: model?.modelId,
    status: end.status,
    finishReason: end.finishReason,
    usage: end.usage,
    reason: end.reason,
    durationMs: Date.now() - startTime,
    time: isoTime(startTime),
  });
  const span = run.modelCallSpan;
  if (span !== undefined) {
    run.modelCallSpan = undefined;
    endModelCallSpan(span, end);
  }
}

async function modelStep(run: RunState, turn: TurnState): Promise<ModelStepOutcome> {
  const { config, context } = run;
  run.throwIfCancelled();
  if (!run.budget.take()) return budgetExhausted(run);
  const modelCall = run.budget.used;
  context.setModelCall(modelCall);
  run.emit({ type: 'step-start', turn: turn.number, modelCall });
  startModelCall(run, modelCall);

  const history = run.session.history;
  let request: ModelRequest = baseRequest(run);
  // The prompt/history views are built only for hooks that observe them.
  let prompt: Message | undefined;
  let before: readonly Message[] | undefined;
  const promptView = (): Message => (prompt ??= history[turn.promptIndex] ?? emptyPrompt);
  const historyView = (): readonly Message[] => (before ??= history.slice(0, turn.promptIndex));

  // BeforeModel, BeforeToolSelection and the enforced tool choice (the lifecycle's rule): with no
  // hook observing either, decided at once, with no await.
  const prepared = beforeModelCall(run, {
    request,
    prompt: promptView,
    history: historyView,
    modelCall,
  });
  const decided = isPromiseLike(prepared) ? await prepared : prepared;
  if (decided.kind === 'deny') return stopped(decided.turnEnd, false);
  if (decided.kind === 'stop') return stopped(decided.reason, true);
  request = decided.request;
  const patch = decided.kind === 'call' ? decided.patch : undefined;
  const synthetic = decided.kind === 'respond' ? decided.response : undefined;

  let response: ModelResponse;
  if (synthetic !== undefined) {
    response = synthetic;
  } else {
    let model: LanguageModel = config.model;
    // Synchronous by contract: called through the guard, reported here, never awaited.
    const action = run.callSync('modelSelection', () => ({
      prompt: promptView(),
      history: historyView(),
      requestPatch: patch,
      previousModel: run.previousModel,
      defaultModel: config.model,
      selected: config.model,
    }));
    if (action !== undefined) {
      run.hookOutcome('modelSelection', action);
      if (action.kind === 'stop') return stopped(action.reason, true);
      if (action.kind === 'select' && action.model !== model) {
        model = action.model;
        if (patch?.model === undefined) request = { ...request, model: model.modelId };
      }
    }
    run.previousModel = model;
    run.calledModel = model;
    // A step runner journals one blocking call per model call (see step-runner.ts).
    const called =
      run.streaming && config.stepRunner === undefined
        ? await callStreaming(run, model, request, modelCall)
        : await callBlocking(run, model, request);
    if (called.kind === 'end') return called;
    response = called.response;
    const answered = response;
    const firedObserver = run.streaming
      ? run.fire('streamFinish', () => ({ prompt: promptView(), response: answered }))
      : run.fire('completionResponse', () => ({
          prompt: promptView(),
          response: answered,
          usage: answered.usage,
          messageId: answered.id,
          raw: answered.raw,
        }));
    const observer = firedObserver && (await firedObserver);
    if (observer?.kind === 'stop') return stopped(observer.reason, true);
  }

  const toolCalls = toolCallsOf(response.content);
  const finishReason = reconcileFinishReason(response.finishReason, toolCalls.length > 0);

  const accepted = response;
  const sent = request;
  const firedTurnFinished = run.fire('modelTurnFinished', () => ({
    modelCall,
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- the first release's name, still filled in
    turn: modelCall,
    content: accepted.content,
    usage: accepted.usage,
    finishReason,
    rawStopReason: accepted.rawStopReason,
    maxTokens: sent.settings?.maxOutputTokens,
    hasToolCalls: toolCalls.length > 0,
    messageId: accepted.id,
    raw: accepted.raw,
  }));
  const turnFinished = firedTurnFinished && (await firedTurnFinished);
  if (turnFinished !== undefined) {
    const action = turnFinished;
    switch (action.kind) {
      case 'continue':
        break;
      case 'stop':
        return stopped(action.reason, true);
      case 'repeat':
      case 'retry':
        if (toolCalls.length > 0) {
          // Retrying would leave the rejected answer's tool calls unanswered in the history.
          run.report({
            level: 'warning',
            text: `a modelTurnFinished hook asked to ${action.kind === 'repeat' ? 'repeat' : 'retry'} a model turn that called tools; retries apply only to tool-free turns, so the turn was accepted (steer tool calls with tool-call hooks instead)`,
            event: 'modelTurnFinished',
          });
          break;
        }
        if (action.kind === 'retry') {
          run.appendMessage(response.content);
          run.appendMessage({
            speaker: 'human',
            blocks: [{ type: 'text', text: action.feedback }],
          });
          turn.promptIndex = history.length - 1;
        }
        run.emit({
          type: 'model-turn-retried',
          modelCall,
          retry: action.kind === 'repeat' ? 'repeat' : 'feedback',
        });
        return { kind: 'retry' };
    }
  }

  run.emit({
    type: 'model-response',
    modelCall,
    message: response.content,
    finishReason,
    rawStopReason: response.rawStopReason,
    usage: response.usage,
    synthetic: synthetic !== undefined,
  });

  const failed = failedAnswer(finishReason, response.rawStopReason);
  if (failed !== undefined) {
    return {
      kind: 'end',
      end: {
        status: 'failed',
        reason: failed,
        endsRun: true,
        failure: { finishReason, rawStopReason: response.rawStopReason },
      },
    };
  }
  return {
    kind: 'accepted',
    response:
      finishReason === response.finishReason ? response : withFinishReason(response, finishReason),
    finishReason,
    request,
    toolCalls,
  };
}

const emptyPrompt: Message = { speaker: 'human', blocks: [] };

/** Marks the start of a model call (and, with a tracer, opens its span). */
function startModelCall(run: RunState, modelCall: number): void {
  run.modelCallStart = Date.now();
  run.calledModel = undefined;
  const tracer = run.config.tracer;
  if (tracer !== undefined)
    run.modelCallSpan = startModelCallSpan(
      tracer,
      run.turnSpan ?? run.session.span,
      run.config.model,
      run.session.info.sessionId,
      modelCall,
    );
}

function baseRequest(run: RunState): ModelRequest {
  const { config } = run;
  const tools = config.tools?.declarations();
  // A copy of the history: the request outlives this step (providers, recorders keep it).
  const contents = run.session.history.slice();
  if (tools !== undefined && tools.length > 0) {
    return config.settings === undefined
      ? { model: config.model.modelId, contents, tools }
      : { model: config.model.modelId, contents, tools, settings: config.settings };
  }
  return config.settings === undefined
    ? { model: config.model.modelId, contents }
    : { model: config.model.modelId, contents, settings: config.settings };
}

function withFinishReason(
  response: ModelResponse,
  finishReason: FinishReason | undefined,
): ModelResponse {
  const { finishReason: _reported, ...rest } = response;
  return finishReason === undefined ? rest : { ...rest, finishReason };
}

async function budgetExhausted(run: RunState): Promise<ModelStepOutcome> {
  const reason = run.budget.exhaustedReason();
  await run.fire('notification', () => ({
    notificationType: 'budget_exhausted',
    message: reason,
    details: { maxModelCalls: run.budget.limit, modelCalls: run.budget.used },
  }));
  return { kind: 'end', end: { status: 'budget_exhausted', reason, endsRun: true } };
}
