/**
 * The AI SDK language-model middleware that fires hookwire's model-call hooks, with the loop's
 * rules (src/loop/model-step.ts):
 *
 * - `BeforeModel` (`completionCall`) before each call, on the neutral request converted from
 *   the call options: a patch changes the call options (prompt, tools, settings); a synthetic
 *   response is returned as the model's answer and **the model is never called**; a deny
 *   rejects the call with `HookDeniedError`, a stop with `HookStoppedError`.
 * - `BeforeToolSelection` (`toolSelection`) when the call offers tools: the choice is enforced
 *   on the call itself — `none` sends no tools, an allowlist sends only those tools, and the
 *   mode becomes the call's `toolChoice`.
 * - `AfterModel` (`modelOutput`) on the whole answer of `doGenerate`; on a stream, on each text
 *   chunk (a replacement changes the text that streams on) and once on a terminal chunk holding
 *   the tool calls and the finish reason (a replacement replaces those). A deny or stop errors
 *   the call (the stream) with `HookDeniedError` / `HookStoppedError`.
 *
 * When no hook observes an event, nothing is converted for it: with no hooks at all the
 * middleware passes the call options and results through untouched.
 */
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4GenerateResult,
  LanguageModelV4Middleware,
  LanguageModelV4StreamPart,
  LanguageModelV4StreamResult,
} from '@ai-sdk/provider';
import { wrapLanguageModel } from 'ai';
import {
  textOf,
  type Message,
  type ModelRequest,
  type ModelResponse,
} from '../../content/index.ts';
import {
  afterModelOutput,
  beforeModelCall,
  isPromiseLike,
  type ModelOutputDecision,
} from '../../lifecycle/index.ts';
import { fromAiSdkCallOptions, toAiSdkCallOptions } from './ai-sdk-request.ts';
import {
  fromAiSdkContentPart,
  fromAiSdkFinishReason,
  fromAiSdkGenerateResult,
  fromAiSdkUsage,
  toAiSdkContent,
  toAiSdkFinishReason,
  toAiSdkGenerateResult,
  toAiSdkUsage,
} from './ai-sdk-response.ts';
import { HookDeniedError, HookStoppedError } from '../embedding/hook-errors.ts';
import { activeScope, RunScope, type HookwireCore } from '../embedding/run-scope.ts';

/** What `transformParams` decided for the call options it returned. */
interface Prepared {
  readonly scope: RunScope;
  /** The neutral request as sent (after patches and tool choice). */
  readonly request: ModelRequest;
  /** A BeforeModel synthetic answer: the model is not called. */
  readonly synthetic: ModelResponse | undefined;
}

const emptyPrompt: Message = { speaker: 'human', blocks: [] };

function lastHumanIndex(contents: readonly Message[]): number {
  for (let index = contents.length - 1; index >= 0; index--)
    if (contents[index]?.speaker === 'human') return index;
  return -1;
}

/** AfterModel's deny or stop as the error that ends the call. */
function outputEnds(decision: ModelOutputDecision): Error | undefined {
  if (decision.kind === 'deny') return new HookDeniedError('AfterModel', decision.reason);
  if (decision.kind === 'stop') return new HookStoppedError('AfterModel', decision.reason);
  return undefined;
}

/**
 * The middleware of one hookwire instance. Compose it with other middleware through
 * `wrapLanguageModel` like any other; `hw.wrapModel(model)` does exactly that.
 */
export function hookwireMiddleware(core: HookwireCore): LanguageModelV4Middleware {
  const hooks = core.hooks;
  const prepared = new WeakMap<LanguageModelV4CallOptions, Prepared>();

  async function transformParams({
    type,
    params,
    model,
  }: {
    type: 'generate' | 'stream';
    params: LanguageModelV4CallOptions;
    model: LanguageModelV4;
  }): Promise<LanguageModelV4CallOptions> {
    // The run's model-call count advances for every call, hooked or not (tool hooks read it).
    const active = activeScope();
    const counted = active?.nextModelCall();
    const onCall = hooks.observes('completionCall');
    const onSelection = hooks.observes('toolSelection') && (params.tools?.length ?? 0) > 0;
    const onOutput = hooks.observes('modelOutput');
    if (!onCall && !onSelection && !onOutput) return params;
    const scope = active ?? new RunScope(core, params.abortSignal, type === 'stream');
    const turn = counted ?? scope.nextModelCall();

    const shown = fromAiSdkCallOptions(model.modelId, params);
    // The lifecycle's BeforeModel / BeforeToolSelection rule; the middleware applies it.
    const promptIndex = lastHumanIndex(shown.contents);
    const decided = beforeModelCall(scope.lifecycle, {
      request: shown,
      prompt: () => shown.contents[promptIndex] ?? emptyPrompt,
      history: () => (promptIndex < 0 ? shown.contents : shown.contents.slice(0, promptIndex)),
      modelCall: turn,
    });
    const decision = isPromiseLike(decided) ? await decided : decided;
    if (decision.kind === 'deny') throw new HookDeniedError('BeforeModel', decision.reason);
    if (decision.kind === 'stop') {
      scope.stopReason ??= decision.reason;
      throw new HookStoppedError('BeforeModel', decision.reason);
    }
    const request = decision.request;
    const synthetic = decision.kind === 'respond' ? decision.response : undefined;
    // A fresh object even when nothing changed: the key of this call's decision.
    const next = request === shown ? { ...params } : toAiSdkCallOptions(params, shown, request);
    prepared.set(next, { scope, request, synthetic });
    return next;
  }

  function wrapGenerate({
    doGenerate,
    params,
  }: {
    doGenerate: () => PromiseLike<LanguageModelV4GenerateResult>;
    params: LanguageModelV4CallOptions;
  }): PromiseLike<LanguageModelV4GenerateResult> {
    const state = prepared.get(params);
    // No hook saw this call: the model's own answer, with no extra step in between.
    if (state === undefined) return doGenerate();
    return generateWithHooks(state, doGenerate);
  }

  async function generateWithHooks(
    state: Prepared,
    doGenerate: () => PromiseLike<LanguageModelV4GenerateResult>,
  ): Promise<LanguageModelV4GenerateResult> {
    if (state.synthetic !== undefined) return toAiSdkGenerateResult(state.synthetic);
    const result = await doGenerate();
    if (!hooks.observes('modelOutput')) return result;
    const response = fromAiSdkGenerateResult(result);
    const action = await afterModelOutput(state.scope.lifecycle, {
      request: state.request,
      response,
      isChunk: false,
      isTerminal: true,
    });
    const ended = outputEnds(action);
    if (ended !== undefined) {
      if (ended instanceof HookStoppedError) state.scope.stopReason ??= ended.reason;
      throw ended;
    }
    if (action.kind !== 'replace') return result;
    const replaced = toAiSdkGenerateResult(action.response, result);
    // Usage a hook did not touch keeps the provider's full breakdown.
    return action.response.usage === response.usage
      ? { ...replaced, usage: result.usage }
      : replaced;
  }

  async function wrapStream({
    doStream,
    params,
  }: {
    doStream: () => PromiseLike<LanguageModelV4StreamResult>;
    params: LanguageModelV4CallOptions;
  }): Promise<LanguageModelV4StreamResult> {
    const state = prepared.get(params);
    if (state === undefined) return doStream();
    if (state.synthetic !== undefined) return { stream: syntheticStream(state.synthetic) };
    const result = await doStream();
    if (!hooks.observes('modelOutput')) return result;
    return { ...result, stream: result.stream.pipeThrough(afterModelChunks(state)) };
  }

  /** AfterModel per chunk on a stream, as the loop's streaming call fires it. */
  function afterModelChunks(
    state: Prepared,
  ): TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart> {
    const hooksOfRun = state.scope.lifecycle;
    const toolCalls: LanguageModelV4Content[] = [];
    const fail = (
      controller: TransformStreamDefaultController<LanguageModelV4StreamPart>,
      error: Error,
    ): void => {
      if (error instanceof HookStoppedError) state.scope.stopReason ??= error.reason;
      controller.error(error);
    };
    return new TransformStream({
      async transform(part, controller) {
        if (part.type === 'text-delta') {
          const action = await afterModelOutput(hooksOfRun, {
            request: state.request,
            response: { content: { speaker: 'ai', blocks: [{ type: 'text', text: part.delta }] } },
            isChunk: true,
            isTerminal: false,
          });
          const ended = outputEnds(action);
          if (ended !== undefined) {
            fail(controller, ended);
            return;
          }
          controller.enqueue(
            action.kind === 'replace' ? { ...part, delta: textOf(action.response.content) } : part,
          );
          return;
        }
        if (part.type === 'tool-call') {
          // Held back for the terminal chunk, which may replace them.
          toolCalls.push(part);
          return;
        }
        if (part.type !== 'finish') {
          controller.enqueue(part);
          return;
        }
        const blocks = toolCalls.flatMap((call) => {
          const block = fromAiSdkContentPart(call);
          return block === undefined ? [] : [block];
        });
        const terminal: ModelResponse = {
          content: { speaker: 'ai', blocks },
          ...fromAiSdkFinishReason(part.finishReason),
          usage: fromAiSdkUsage(part.usage),
        };
        const action = await afterModelOutput(hooksOfRun, {
          request: state.request,
          response: terminal,
          isChunk: true,
          isTerminal: true,
        });
        const ended = outputEnds(action);
        if (ended !== undefined) {
          fail(controller, ended);
          return;
        }
        if (action.kind !== 'replace') {
          for (const call of toolCalls) controller.enqueue(call as LanguageModelV4StreamPart);
          controller.enqueue(part);
          return;
        }
        const replacement = action.response;
        for (const call of toAiSdkContent(replacement.content))
          if (call.type === 'tool-call') controller.enqueue(call);
        controller.enqueue({
          ...part,
          finishReason:
            replacement.finishReason === undefined
              ? part.finishReason
              : toAiSdkFinishReason(replacement.finishReason, replacement.rawStopReason),
          usage:
            replacement.usage === undefined || replacement.usage === terminal.usage
              ? part.usage
              : toAiSdkUsage(replacement.usage),
        });
      },
    });
  }

  return { specificationVersion: 'v4', transformParams, wrapGenerate, wrapStream };
}

/** True when some hook of `hooks` observes a model-call event (what the middleware fires). */
export function observesModelCalls(hooks: HookwireCore['hooks']): boolean {
  return (
    hooks.observes('completionCall') ||
    hooks.observes('toolSelection') ||
    hooks.observes('modelOutput')
  );
}

type WrappableModel = Parameters<typeof wrapLanguageModel>[0]['model'];

/**
 * `model` with `middleware` (this instance's `hookwireMiddleware`), deciding per call: while some
 * hook observes a model-call event the call goes through the AI SDK's `wrapLanguageModel` with
 * the middleware; while none does it goes straight to the model (counted as the run's model
 * call, which tool hooks read), with none of the middleware's promise layers, closures or
 * parameter objects. Hooks pushed onto the stack later are seen on the next call.
 */
export function wrapModelWithHooks(
  core: HookwireCore,
  model: WrappableModel,
  middleware: LanguageModelV4Middleware,
): LanguageModelV4 {
  // An empty middleware list gives the model as a `LanguageModelV4` (older specification
  // versions adapted), exactly what `wrapLanguageModel` wraps.
  const base = wrapLanguageModel({ model, middleware: [] });
  const hooked = wrapLanguageModel({ model: base, middleware });
  const hooks = core.hooks;
  return {
    specificationVersion: 'v4',
    provider: hooked.provider,
    modelId: hooked.modelId,
    supportedUrls: hooked.supportedUrls,
    doGenerate(params) {
      if (observesModelCalls(hooks)) return hooked.doGenerate(params);
      activeScope()?.nextModelCall();
      return base.doGenerate(params);
    },
    doStream(params) {
      if (observesModelCalls(hooks)) return hooked.doStream(params);
      activeScope()?.nextModelCall();
      return base.doStream(params);
    },
  };
}

/** A BeforeModel synthetic answer as the stream a model would have sent. */
export function syntheticStream(
  response: ModelResponse,
): ReadableStream<LanguageModelV4StreamPart> {
  const parts: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: [] }];
  toAiSdkContent(response.content).forEach((part, index) => {
    const id = `hookwire-${index}`;
    if (part.type === 'text') {
      parts.push({ type: 'text-start', id });
      parts.push({ type: 'text-delta', id, delta: part.text });
      parts.push({ type: 'text-end', id });
    } else if (part.type === 'reasoning') {
      parts.push({ type: 'reasoning-start', id });
      parts.push({ type: 'reasoning-delta', id, delta: part.text });
      parts.push({ type: 'reasoning-end', id });
    } else {
      parts.push(part);
    }
  });
  parts.push({
    type: 'finish',
    finishReason: toAiSdkFinishReason(response.finishReason, response.rawStopReason),
    usage: toAiSdkUsage(response.usage),
  });
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
}
