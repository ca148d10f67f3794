/**
 * Every composition rule of `HookStack`, asserted identically for a flat stack and for nested
 * arrangements of the same members, with ordering read from an execution log. Each rule also runs
 * with members answering through promises, which must compose exactly like synchronous answers.
 */
import { describe, expect, it } from 'vitest';
import {
  CompletionCallAction,
  ContextAction,
  InvalidToolCallAction,
  ModelOutputAction,
  ModelTurnAction,
  ObservationAction,
  PromptSubmitAction,
  StopAction,
  ToolCallAction,
  ToolResultAction,
  ToolSelectionAction,
  type AgentHook,
  type Awaitable,
} from '../../src/hooks/index.ts';
import {
  arrangements,
  completionCallEvent,
  contextWithReports,
  invalidToolCallEvent,
  modelOutputEvent,
  modelTurnFinishedEvent,
  response,
  stopEvent,
  toolCallEvent,
  toolResultEvent,
  toolSelectionEvent,
} from './support.ts';

const answerModes = [
  ['synchronous answers', <T>(value: T): Awaitable<T> => value],
  ['promise answers', <T>(value: T): Awaitable<T> => Promise.resolve(value)],
] as const;

describe.each(arrangements)('HookStack composition (%s)', (_arrangement, compose) => {
  describe.each(answerModes)('with %s', (_mode, answer) => {
    const log: string[] = [];
    const logged =
      <Event, Action>(label: string, action: (event: Event) => Action) =>
      (_context: unknown, event: Event): Awaitable<Action> => {
        log.push(label);
        return answer(action(event));
      };
    const fresh = () => {
      log.length = 0;
      return contextWithReports();
    };

    it('runs members in registration order and returns continue when all continue', async () => {
      const { context } = fresh();
      const stack = compose(
        ['a', 'b', 'c'].map((label): AgentHook => ({
          onToolCall: logged(label, () => ToolCallAction.run()),
        })),
      );
      expect(await stack.onToolCall(context, toolCallEvent())).toEqual(ToolCallAction.run());
      expect(log).toEqual(['a', 'b', 'c']);
    });

    it('accumulates completion-call patches and warns once per overwritten field', async () => {
      const { context, reports } = fresh();
      const stack = compose([
        {
          onCompletionCall: logged('a', () =>
            CompletionCallAction.patch({ temperature: 0.1, extraContext: ['one'] }),
          ),
        },
        { onCompletionCall: logged('b', () => CompletionCallAction.continue()) },
        {
          onCompletionCall: logged('c', () =>
            CompletionCallAction.patch({
              temperature: 0.5,
              extraContext: ['two'],
              activeTools: ['x', 'y'],
            }),
          ),
        },
        {
          onCompletionCall: logged('d', () =>
            CompletionCallAction.patch({ activeTools: ['y', 'z'] }),
          ),
        },
      ]);
      expect(await stack.onCompletionCall(context, completionCallEvent)).toEqual(
        CompletionCallAction.patch({
          temperature: 0.5,
          extraContext: ['one', 'two'],
          activeTools: ['y'],
        }),
      );
      expect(log).toEqual(['a', 'b', 'c', 'd']);
      expect(reports).toHaveLength(1);
      expect(reports[0]).toMatchObject({ level: 'warning', event: 'completionCall' });
      expect(reports[0]?.text).toContain('RequestPatch.temperature');
    });

    it.each([
      ['stop', CompletionCallAction.stop('budget')],
      ['deny', CompletionCallAction.deny('blocked')],
      ['respond', CompletionCallAction.respond(response('cached'))],
    ])(
      'lets a completion-call %s short-circuit and discard earlier patches',
      async (_kind, terminal) => {
        const { context } = fresh();
        const stack = compose([
          { onCompletionCall: logged('a', () => CompletionCallAction.patch({ temperature: 0.1 })) },
          { onCompletionCall: logged('b', () => terminal) },
          { onCompletionCall: logged('c', () => CompletionCallAction.patch({ topP: 0.5 })) },
        ]);
        expect(await stack.onCompletionCall(context, completionCallEvent)).toEqual(terminal);
        expect(log).toEqual(['a', 'b']);
      },
    );

    it('aggregates tool choices: none beats required beats auto, allowlists intersect, omitted lists are unrestricted', async () => {
      const { context } = fresh();
      const stack = compose([
        {
          onToolSelection: logged('a', () =>
            ToolSelectionAction.choose({
              mode: 'auto',
              allowedToolNames: ['read', 'write', 'list'],
            }),
          ),
        },
        { onToolSelection: logged('b', () => ToolSelectionAction.choose({ mode: 'required' })) },
        {
          onToolSelection: logged('c', () =>
            ToolSelectionAction.choose({ mode: 'auto', allowedToolNames: ['list', 'read'] }),
          ),
        },
      ]);
      expect(await stack.onToolSelection(context, toolSelectionEvent)).toEqual(
        ToolSelectionAction.choose({ mode: 'required', allowedToolNames: ['list', 'read'] }),
      );
      // Case-insensitive, in the declared tools' spelling, sorted.
      const spelled = compose([
        {
          onToolSelection: () =>
            ToolSelectionAction.choose({ mode: 'auto', allowedToolNames: ['Read_File', 'GLOB'] }),
        },
        {
          onToolSelection: () =>
            ToolSelectionAction.choose({ mode: 'auto', allowedToolNames: ['glob', 'read_file'] }),
        },
      ]);
      const declared = ['read_file', 'glob', 'grep'].map((name) => ({
        name,
        parameters: { type: 'object' as const },
      }));
      expect(
        await spelled.onToolSelection(context, { ...toolSelectionEvent, tools: declared }),
      ).toEqual(
        ToolSelectionAction.choose({ mode: 'auto', allowedToolNames: ['glob', 'read_file'] }),
      );
      const none = compose([
        { onToolSelection: logged('d', () => ToolSelectionAction.choose({ mode: 'none' })) },
        { onToolSelection: logged('e', () => ToolSelectionAction.choose({ mode: 'required' })) },
      ]);
      expect(await none.onToolSelection(context, toolSelectionEvent)).toEqual(
        ToolSelectionAction.choose({ mode: 'none' }),
      );
      expect(log).toEqual(['a', 'b', 'c', 'd', 'e']);
    });

    it('chains model-output replacements and short-circuits at the first deny', async () => {
      const { context } = fresh();
      const seen: string[] = [];
      const replacer = (label: string, replacement: string): AgentHook => ({
        onModelOutput: logged(label, (event: typeof modelOutputEvent) => {
          seen.push(JSON.stringify(event.response.content.blocks));
          return ModelOutputAction.replace(response(replacement));
        }),
      });
      const stack = compose([replacer('a', 'first'), replacer('b', 'second')]);
      expect(await stack.onModelOutput(context, modelOutputEvent)).toEqual(
        ModelOutputAction.replace(response('second')),
      );
      expect(seen).toEqual([
        JSON.stringify(response('original').content.blocks),
        JSON.stringify(response('first').content.blocks),
      ]);
      const denied = compose([
        replacer('c', 'replaced'),
        { onModelOutput: logged('d', () => ModelOutputAction.deny('unsafe')) },
        replacer('e', 'never'),
      ]);
      expect(await denied.onModelOutput(context, modelOutputEvent)).toEqual(
        ModelOutputAction.deny('unsafe'),
      );
      expect(log).toEqual(['a', 'b', 'c', 'd']);
    });

    it('short-circuits model-turn hooks at the first non-continue', async () => {
      const { context } = fresh();
      const stack = compose([
        { onModelTurnFinished: logged('a', () => ModelTurnAction.continue()) },
        {
          onModelTurnFinished: logged('b', () => ModelTurnAction.retryWithFeedback('be complete')),
        },
        { onModelTurnFinished: logged('c', () => ModelTurnAction.stop('never')) },
      ]);
      expect(await stack.onModelTurnFinished(context, modelTurnFinishedEvent)).toEqual(
        ModelTurnAction.retryWithFeedback('be complete'),
      );
      expect(log).toEqual(['a', 'b']);
    });

    it('takes the first invalid-tool-call decision, deferring past undefined, and returns undefined when none decides', async () => {
      const { context } = fresh();
      const stack = compose([
        { onInvalidToolCall: logged('a', () => undefined) },
        { onInvalidToolCall: logged('b', () => InvalidToolCallAction.repair('add')) },
        { onInvalidToolCall: logged('c', () => InvalidToolCallAction.fail()) },
      ]);
      expect(await stack.onInvalidToolCall(context, invalidToolCallEvent)).toEqual(
        InvalidToolCallAction.repair('add'),
      );
      const undecided = compose([
        { onInvalidToolCall: logged('d', () => undefined) },
        { onInvalidToolCall: logged('e', () => undefined) },
      ]);
      expect(await undecided.onInvalidToolCall(context, invalidToolCallEvent)).toBeUndefined();
      expect(log).toEqual(['a', 'b', 'd', 'e']);
    });

    it('chains tool-call rewrites and keeps the last rewrite through a later skip', async () => {
      const { context } = fresh();
      const seen: unknown[] = [];
      const stack = compose([
        {
          onToolCall: logged(
            'a',
            (event: ReturnType<typeof toolCallEvent>) => (
              seen.push(event.args),
              ToolCallAction.rewrite({ n: 1 })
            ),
          ),
        },
        {
          onToolCall: logged(
            'b',
            (event: ReturnType<typeof toolCallEvent>) => (
              seen.push(event.args),
              ToolCallAction.rewrite({ n: 2 })
            ),
          ),
        },
        {
          onToolCall: logged(
            'c',
            (event: ReturnType<typeof toolCallEvent>) => (
              seen.push(event.args),
              ToolCallAction.skip('no')
            ),
          ),
        },
        { onToolCall: logged('d', () => ToolCallAction.rewrite({ n: 4 })) },
      ]);
      expect(await stack.resolveToolCall(context, toolCallEvent('tc1', { n: 0 }))).toEqual({
        action: ToolCallAction.skip('no', { n: 2 }),
        args: { n: 2 },
        rewritten: true,
      });
      expect(seen).toEqual([{ n: 0 }, { n: 1 }, { n: 2 }]);
      expect(log).toEqual(['a', 'b', 'c']);
    });

    it('short-circuits on a supplied tool result and keeps an earlier rewrite in its args', async () => {
      const { context } = fresh();
      const stack = compose([
        { onToolCall: logged('a', () => ToolCallAction.rewrite({ safe: true })) },
        { onToolCall: logged('b', () => ToolCallAction.result({ cached: 1 })) },
        { onToolCall: logged('c', () => ToolCallAction.skip('never asked')) },
      ]);
      expect(await stack.resolveToolCall(context, toolCallEvent('tc1', { n: 0 }))).toEqual({
        action: ToolCallAction.result({ cached: 1 }, { safe: true }),
        args: { safe: true },
        rewritten: true,
      });
      expect(log).toEqual(['a', 'b']);
    });

    it('keeps an earlier tool-call rewrite through a later stop, in onToolCall as well', async () => {
      const { context } = fresh();
      const stack = compose([
        { onToolCall: logged('a', () => ToolCallAction.rewrite({ safe: true })) },
        { onToolCall: logged('b', () => ToolCallAction.stop('halt')) },
        { onToolCall: logged('c', () => ToolCallAction.run()) },
      ]);
      expect(await stack.onToolCall(context, toolCallEvent())).toEqual(
        ToolCallAction.stop('halt', { safe: true }),
      );
      expect(log).toEqual(['a', 'b']);
    });

    it('chains tool-result presentations, leaves the raw result alone and joins context in order', async () => {
      const { context } = fresh();
      const seen: unknown[] = [];
      const stack = compose([
        {
          onToolResult: logged(
            'a',
            (event: typeof toolResultEvent) => (
              seen.push(event.presentation),
              ToolResultAction.rewrite('short', 'ctx-a')
            ),
          ),
        },
        {
          onToolResult: logged(
            'b',
            (event: typeof toolResultEvent) => (
              seen.push(event.raw.error),
              ToolResultAction.keep('ctx-b')
            ),
          ),
        },
        {
          onToolResult: logged(
            'c',
            (event: typeof toolResultEvent) => (
              seen.push(event.presentation),
              ToolResultAction.keep()
            ),
          ),
        },
      ]);
      expect(await stack.onToolResult(context, toolResultEvent)).toEqual(
        ToolResultAction.rewrite('short', 'ctx-a\nctx-b'),
      );
      expect(seen).toEqual(['raw failure', 'raw failure', 'short']);
      expect(log).toEqual(['a', 'b', 'c']);
    });

    it.each([
      ['onSessionStart', { source: 'startup' }],
      ['onToolFailure', { toolName: 't', toolCallId: 'c', args: {}, error: 'boom' }],
      ['onPreCompact', { trigger: 'auto', customInstructions: undefined }],
    ] as const)(
      '%s joins contexts in order and short-circuits at the first stop',
      async (method, event) => {
        const { context } = fresh();
        const stack = compose([
          { [method]: logged('a', () => ContextAction.continue('one')) },
          { [method]: logged('b', () => ContextAction.continue()) },
          { [method]: logged('c', () => ContextAction.continue('two')) },
        ]);
        const call = (target: AgentHook) =>
          (target[method] as (context: unknown, event: unknown) => Awaitable<ContextAction>)(
            context,
            event,
          );
        expect(await call(stack)).toEqual(ContextAction.continue('one\ntwo'));
        const stopped = compose([
          { [method]: logged('d', () => ContextAction.continue('lost')) },
          { [method]: logged('e', () => ContextAction.stop('halt')) },
          { [method]: logged('f', () => ContextAction.continue('never')) },
        ]);
        expect(await call(stopped)).toEqual(ContextAction.stop('halt'));
        expect(log).toEqual(['a', 'b', 'c', 'd', 'e']);
      },
    );

    it('joins prompt contexts and short-circuits at the first deny or stop', async () => {
      const { context } = fresh();
      const joined = compose([
        { onPromptSubmit: logged('a', () => PromptSubmitAction.continue('one')) },
        { onPromptSubmit: logged('b', () => PromptSubmitAction.continue('two')) },
      ]);
      expect(await joined.onPromptSubmit(context, { prompt: 'p' })).toEqual(
        PromptSubmitAction.continue('one\ntwo'),
      );
      const stopped = compose([
        { onPromptSubmit: logged('c', () => PromptSubmitAction.stop('kept but not run')) },
        { onPromptSubmit: logged('d', () => PromptSubmitAction.deny('never')) },
      ]);
      expect(await stopped.onPromptSubmit(context, { prompt: 'p' })).toEqual(
        PromptSubmitAction.stop('kept but not run'),
      );
      expect(log).toEqual(['a', 'b', 'c']);
    });

    it('joins Stop block reasons in order, and the first stop wins over blocks', async () => {
      const { context } = fresh();
      const blocks = compose([
        { onStop: logged('a', () => StopAction.block('first')) },
        { onStop: logged('b', () => StopAction.continue()) },
        { onStop: logged('c', () => StopAction.block('second')) },
      ]);
      expect(await blocks.onStop(context, stopEvent)).toEqual(StopAction.block('first\nsecond'));
      const stopped = compose([
        { onStop: logged('d', () => StopAction.block('lost')) },
        { onStop: logged('e', () => StopAction.stop('done')) },
        { onStop: logged('f', () => StopAction.block('never')) },
      ]);
      expect(await stopped.onStop(context, stopEvent)).toEqual(StopAction.stop('done'));
      expect(log).toEqual(['a', 'b', 'c', 'd', 'e']);
    });

    it.each([
      ['onTextDelta', { delta: 'x', aggregated: 'x' }],
      ['onToolCallDelta', { index: 0, toolCallId: undefined, toolName: 'add', delta: '{' }],
      [
        'onCompletionResponse',
        {
          prompt: completionCallEvent.prompt,
          response: response('r'),
          usage: undefined,
          messageId: undefined,
          raw: undefined,
        },
      ],
      ['onStreamFinish', { prompt: completionCallEvent.prompt, response: response('r') }],
      [
        'onStopFailure',
        { error: 'safety', finishReason: 'safety', rawStopReason: 'SAFETY', prompt: 'p' },
      ],
      ['onInterrupt', { prompt: 'p' }],
      ['onNotification', { notificationType: 'idle_prompt', message: 'm', details: null }],
      ['onSessionEnd', { reason: 'exit' }],
    ] as const)('%s short-circuits at the first stop', async (method, event) => {
      const { context } = fresh();
      const stack = compose([
        { [method]: logged('a', () => ObservationAction.continue()) },
        { [method]: logged('b', () => ObservationAction.stop('enough')) },
        { [method]: logged('c', () => ObservationAction.continue()) },
      ]);
      const target = stack as unknown as Record<
        typeof method,
        (context: unknown, event: unknown) => Awaitable<ObservationAction>
      >;
      expect(await target[method](context, event)).toEqual(ObservationAction.stop('enough'));
      expect(log).toEqual(['a', 'b']);
    });
  });

  it('returns synchronously (not a promise) when every member answers synchronously', () => {
    const { context } = contextWithReports();
    const stack = compose([
      {
        onToolCall: () => ToolCallAction.rewrite({ n: 1 }),
        onTextDelta: () => ObservationAction.continue(),
        onStop: () => StopAction.block('b'),
      },
      {
        onToolCall: () => ToolCallAction.run(),
        onTextDelta: () => ObservationAction.continue(),
        onStop: () => StopAction.continue(),
      },
    ]);
    const toolCall = stack.onToolCall(context, toolCallEvent());
    expect(toolCall).not.toBeInstanceOf(Promise);
    expect(toolCall).toEqual(ToolCallAction.rewrite({ n: 1 }));
    expect(stack.resolveToolCall(context, toolCallEvent())).not.toBeInstanceOf(Promise);
    expect(stack.onTextDelta(context, { delta: 'd', aggregated: 'd' })).toBe(
      ObservationAction.continue(),
    );
    expect(stack.onStop(context, stopEvent)).toEqual(StopAction.block('b'));
  });

  it('turns asynchronous only at the first member that answers with a promise', async () => {
    const { context } = contextWithReports();
    const log: string[] = [];
    const stack = compose([
      { onTextDelta: () => (log.push('sync'), ObservationAction.continue()) },
      { onTextDelta: async () => (log.push('async'), ObservationAction.continue()) },
      { onTextDelta: () => (log.push('after'), ObservationAction.stop('late stop')) },
    ]);
    const pending = stack.onTextDelta(context, { delta: 'd', aggregated: 'd' });
    expect(pending).toBeInstanceOf(Promise);
    expect(log).toEqual(['sync', 'async']);
    expect(await pending).toEqual(ObservationAction.stop('late stop'));
    expect(log).toEqual(['sync', 'async', 'after']);
  });
});
