/**
 * The call of a model step, after its request is prepared and before its answer is accepted:
 * the blocking call (`generate`, then AfterModel on the whole answer) or the streaming call
 * (deltas emitted as they arrive, per-delta hooks, AfterModel per text chunk and on the terminal
 * chunk). AfterModel's decisions are the lifecycle's (`modelOutputDecision`); the stream's
 * per-delta hooks are looked up once per call and called directly.
 */
import {
  textOf,
  toolCallsOf,
  type ContentBlock,
  type LanguageModel,
  type ModelRequest,
  type ModelResponse,
} from '../content/index.ts';
import {
  afterModelOutput,
  isPromiseLike,
  modelCallFailed,
  modelOutputDecision,
  type ModelOutputDecision,
} from '../lifecycle/index.ts';
import { CancelledError } from './loop-error.ts';
import type { RunState, TurnEnd } from './run-state.ts';

/** The step ends with the turn `stopped` (`endsRun`: the run too). */
export const stopped = (reason: string, endsRun: boolean): StepEnd => ({
  kind: 'end',
  end: { status: 'stopped', reason, endsRun },
});

/** A model call that ends the step (and the turn). */
export interface StepEnd {
  readonly kind: 'end';
  readonly end: TurnEnd;
}

/** The answer of the call, or how it ended the step. */
export type CallOutcome = { readonly kind: 'response'; readonly response: ModelResponse } | StepEnd;

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

export async function callBlocking(
  run: RunState,
  model: LanguageModel,
  request: ModelRequest,
): Promise<CallOutcome> {
  let response: ModelResponse;
  try {
    const steps = run.config.stepRunner;
    response = await (steps === undefined
      ? model.generate(request, { signal: run.signal })
      : steps.runModel({ turn: run.currentTurn, modelCall: run.budget.used }, () =>
          model.generate(request, { signal: run.signal }),
        ));
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
export async function callStreaming(
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
