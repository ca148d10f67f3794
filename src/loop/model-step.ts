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
 * Both surfaces share everything but the call itself (`callBlocking` / `callStreaming`).
 */
import {
  reconcileFinishReason,
  textOf,
  toolCallsOf,
  type ContentBlock,
  type FinishReason,
  type LanguageModel,
  type Message,
  type ModelRequest,
  type ModelResponse,
  type ToolCallBlock,
} from '../content/index.ts';
import {
  afterModelOutput,
  beforeModelCall,
  failedAnswer,
  isPromiseLike,
  modelCallFailed,
  modelOutputDecision,
  type ModelOutputDecision,
} from '../lifecycle/index.ts';
import { CancelledError } from './loop-error.ts';
import { endModelCallSpan, startModelCallSpan, type ModelCallEnd } from './run-telemetry.ts';
import type { RunState, TurnEnd, TurnState } from './run-state.ts';
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
  | { readonly kind: 'end'; readonly end: TurnEnd };

const stopped = (
  reason: string,
  endsRun: boolean,
): Extract<ModelStepOutcome, { readonly kind: 'end' }> => ({
  kind: 'end',
  end: { status: 'stopped', reason, endsRun },
});

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
    const called = run.streaming
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

type StepEnd = Extract<ModelStepOutcome, { readonly kind: 'end' }>;
type CallOutcome = { readonly kind: 'response'; readonly response: ModelResponse } | StepEnd;

/** A model error: cancellation when the run was cancelled, else a failed turn (StopFailure). */
function modelFailure(run: RunState, error: unknown): CallOutcome {
  if (run.signal.aborted) throw new CancelledError(run.cancelReason());
  const failure = error instanceof Error ? error : new Error(String(error));
  return {
    kind: 'end',
    end: {
      status: 'failed',
      reason: modelCallFailed(failure.message),
      error: failure,
      endsRun: true,
      failure: { finishReason: undefined, rawStopReason: undefined },
    },
  };
}

/** Applies AfterModel's decision; a non-undefined result ends the step. */
function outputEnds(decision: ModelOutputDecision): StepEnd | undefined {
  if (decision.kind === 'deny') return stopped(decision.turnEnd, false);
  if (decision.kind === 'stop') return stopped(decision.reason, true);
  return undefined;
}

async function callBlocking(
  run: RunState,
  model: LanguageModel,
  request: ModelRequest,
): Promise<CallOutcome> {
  let response: ModelResponse;
  try {
    response = await model.generate(request, { signal: run.signal });
  } catch (error) {
    return modelFailure(run, error);
  }
  const decided = afterModelOutput(run, { request, response, isChunk: false, isTerminal: true });
  const decision = isPromiseLike(decided) ? await decided : decided;
  const ended = outputEnds(decision);
  if (ended !== undefined) return ended;
  if (decision.kind === 'replace') response = decision.response;
  return { kind: 'response', response };
}

/**
 * The streaming call. Deltas are emitted as they arrive; AfterModel sees each text chunk (a
 * replacement changes the text emitted and the text of the assembled answer) and one terminal
 * chunk carrying the tool calls and the finish reason (a replacement there replaces the tool
 * calls and finish information).
 */
async function callStreaming(
  run: RunState,
  model: LanguageModel,
  request: ModelRequest,
  modelCall: number,
): Promise<CallOutcome> {
  const { context } = run;
  // Looked up once per call (the per-chunk fire sites call them directly); an unobserved event's
  // handler is `undefined` and its event never built.
  const onOutput = run.handler('modelOutput');
  const onText = run.handler('textDelta');
  const onReasoning = run.handler('reasoningDelta');
  const onToolCall = run.handler('toolCallDelta');
  const watchText = onText !== undefined;
  let text = '';
  let replaced = false;
  let reasoning = '';
  let reasoningPart = 0;
  let finish: ModelResponse | undefined;
  try {
    for await (const part of model.stream(request, { signal: run.signal })) {
      switch (part.type) {
        case 'text-delta': {
          let delta = part.text;
          if (onOutput !== undefined) {
            const pending = onOutput(context, {
              request,
              response: { content: { speaker: 'ai', blocks: [{ type: 'text', text: delta }] } },
              isChunk: true,
              isTerminal: false,
            });
            const decision = modelOutputDecision(
              isPromiseLike(pending) ? await run.settle(pending) : pending,
            );
            const ended = outputEnds(decision);
            if (ended !== undefined) return ended;
            if (decision.kind === 'replace') {
              delta = textOf(decision.response.content);
              replaced = true;
            }
          }
          if (onOutput !== undefined || watchText) text += delta;
          if (onText !== undefined) {
            const pending = onText(context, { delta, aggregated: text });
            const action = isPromiseLike(pending) ? await run.settle(pending) : pending;
            if (action.kind === 'stop') return stopped(action.reason, true);
          }
          run.emit({ type: 'text-delta', modelCall, text: delta });
          break;
        }
        case 'reasoning-delta': {
          if (onReasoning !== undefined) {
            reasoning += part.text;
            const pending = onReasoning(context, {
              id: `${modelCall}:${reasoningPart}`,
              delta: part.text,
              aggregated: reasoning,
            });
            const action = isPromiseLike(pending) ? await run.settle(pending) : pending;
            if (action.kind === 'stop') return stopped(action.reason, true);
          }
          if (part.signature !== undefined) {
            // A signature closes a thinking block: the next reasoning delta starts a new part.
            reasoningPart++;
            reasoning = '';
          }
          run.emit({ type: 'reasoning-delta', modelCall, text: part.text });
          break;
        }
        case 'tool-call-delta': {
          if (onToolCall !== undefined) {
            const pending = onToolCall(context, {
              index: part.index,
              toolCallId: part.callId,
              toolName: part.toolName,
              delta: part.argumentsDelta,
            });
            const action = isPromiseLike(pending) ? await run.settle(pending) : pending;
            if (action.kind === 'stop') return stopped(action.reason, true);
          }
          run.emit({
            type: 'tool-call-delta',
            modelCall,
            index: part.index,
            ...(part.callId === undefined ? {} : { toolCallId: part.callId }),
            ...(part.toolName === undefined ? {} : { toolName: part.toolName }),
            argumentsDelta: part.argumentsDelta,
          });
          break;
        }
        case 'finish':
          finish = part.response;
          break;
      }
    }
  } catch (error) {
    if (error instanceof CancelledError) throw error;
    return modelFailure(run, error);
  }
  if (finish === undefined) {
    return modelFailure(run, new Error(`the ${model.provider} stream ended without a finish part`));
  }
  if (replaced) finish = withText(finish, text);
  if (onOutput !== undefined) {
    const terminal: ModelResponse = {
      ...finish,
      content: { speaker: 'ai', blocks: toolCallsOf(finish.content) },
    };
    const action = await run.settle(
      onOutput(context, { request, response: terminal, isChunk: true, isTerminal: true }),
    );
    run.hookOutcome('modelOutput', action);
    const decision = modelOutputDecision(action);
    const ended = outputEnds(decision);
    if (ended !== undefined) return ended;
    if (decision.kind === 'replace') {
      const kept = finish.content.blocks.filter((block) => block.type !== 'tool_call');
      const { finishReason: _f, rawStopReason: _r, usage: _u, ...rest } = finish;
      const replacement = decision.response;
      finish = {
        ...rest,
        content: { speaker: 'ai', blocks: [...kept, ...replacement.content.blocks] },
        ...(replacement.finishReason === undefined
          ? {}
          : { finishReason: replacement.finishReason }),
        ...(replacement.rawStopReason === undefined
          ? {}
          : { rawStopReason: replacement.rawStopReason }),
        ...(replacement.usage === undefined ? {} : { usage: replacement.usage }),
      };
    }
  }
  return { kind: 'response', response: finish };
}

/** The response with its text blocks replaced by one block of `text`, where the first one was. */
function withText(response: ModelResponse, text: string): ModelResponse {
  const blocks: ContentBlock[] = [];
  let placed = false;
  for (const block of response.content.blocks) {
    if (block.type !== 'text') {
      blocks.push(block);
    } else if (!placed) {
      blocks.push({ type: 'text', text });
      placed = true;
    }
  }
  if (!placed && text !== '') blocks.unshift({ type: 'text', text });
  return { ...response, content: { ...response.content, blocks } };
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
