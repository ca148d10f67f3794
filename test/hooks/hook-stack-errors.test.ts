import { describe, expect, it } from 'vitest';
import {
  HookError,
  HookStack,
  ObservationAction,
  StopAction,
  ToolCallAction,
  type AgentHook,
  type HookEventKind,
} from '../../src/hooks/index.ts';
import { HookwireError } from '../../src/content/index.ts';
import { contextWithReports, stopEvent, toolCallEvent } from './support.ts';

class AuditHook implements AgentHook {
  onToolCall(): ToolCallAction {
    throw new Error('audit log unavailable');
  }
}

async function caught(work: () => unknown): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error('expected the dispatch to fail');
}

describe('HookStack errors', () => {
  it('wraps a synchronous throw in a HookError naming the hook, the event and the cause', async () => {
    const { context } = contextWithReports();
    const cause = new Error('disk full');
    const stack = new HookStack([
      {
        name: 'guard',
        onToolCall: () => {
          throw cause;
        },
      },
    ]);
    const error = await caught(() => stack.onToolCall(context, toolCallEvent()));
    expect(error).toBeInstanceOf(HookError);
    expect(HookwireError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'hook_failed',
      hookName: 'guard',
      event: 'toolCall',
      cause,
    });
    expect((error as Error).message).toBe('hook "guard" failed on toolCall: disk full');
  });

  it('wraps a rejection in a HookError and does not consult later hooks', async () => {
    const { context } = contextWithReports();
    let later = 0;
    const stack = new HookStack([
      { name: 'remote-policy', onStop: () => Promise.reject(new Error('connection refused')) },
      { onStop: () => (later++, StopAction.continue()) },
    ]);
    const error = await caught(() => stack.onStop(context, stopEvent));
    expect(error).toMatchObject({ hookName: 'remote-policy', event: 'stop' });
    expect((error as Error).message).toContain('connection refused');
    expect(later).toBe(0);
  });

  it('names an unnamed hook by its class, else by its one-based position', async () => {
    const { context } = contextWithReports();
    const byClass = await caught(() =>
      new HookStack([new AuditHook()]).onToolCall(context, toolCallEvent()),
    );
    expect(byClass).toMatchObject({ hookName: 'AuditHook' });
    const byPosition = await caught(() =>
      new HookStack([
        { onToolCall: () => ToolCallAction.run() },
        {
          onToolCall: () => {
            throw new Error('x');
          },
        },
      ]).onToolCall(context, toolCallEvent()),
    );
    expect(byPosition).toMatchObject({ hookName: 'hook #2' });
  });

  it('wraps once: a failure inside a nested stack reaches the outer caller naming the inner hook', async () => {
    const { context } = contextWithReports();
    const outer = new HookStack([
      new HookStack(
        [
          {
            name: 'inner-guard',
            onToolCall: () => {
              throw new Error('boom');
            },
          },
        ],
        { name: 'inner' },
      ),
    ]);
    const error = await caught(() => outer.onToolCall(context, toolCallEvent()));
    expect(error).toMatchObject({ hookName: 'inner-guard', event: 'toolCall' });
    expect((error as HookError).cause).toBeInstanceOf(Error);
    expect(HookError.isHookError((error as HookError).cause)).toBe(false);
  });

  it('fails with a HookError when a hook answers with something that is not an action of its event', async () => {
    const { context } = contextWithReports();
    const stack = new HookStack([
      { name: 'sloppy', onStop: () => ({ kind: 'rewrite' }) as unknown as StopAction },
    ]);
    const error = await caught(() => stack.onStop(context, stopEvent));
    expect(error).toMatchObject({ hookName: 'sloppy', event: 'stop' });
    expect((error as Error).message).toContain('onStop returned an action of kind "rewrite"');
  });

  it('fails when a model-selection hook answers with a promise', async () => {
    const { context } = contextWithReports();
    const stack = new HookStack([
      {
        name: 'router',
        onModelSelection: (() =>
          Promise.resolve(ObservationAction.continue())) as unknown as NonNullable<
          AgentHook['onModelSelection']
        >,
      },
    ]);
    const error = await caught(() => stack.onModelSelection(context, {} as never));
    expect((error as Error).message).toContain('must return its action synchronously');
  });

  it("records a failure under onHookError: 'record', reports it as a warning and continues as if the hook had continued", async () => {
    const { context, reports } = contextWithReports();
    const recorded: HookError[] = [];
    const stack = new HookStack(
      [
        { onToolCall: () => ToolCallAction.rewrite({ n: 1 }) },
        { name: 'flaky', onToolCall: () => Promise.reject(new Error('timeout')) },
        {
          name: 'throws',
          onToolCall: () => {
            throw new Error('bug');
          },
        },
        {
          onToolCall: (_context, event) =>
            ToolCallAction.rewrite({ n: (event.args as { n: number }).n + 1 }),
        },
      ],
      { onHookError: 'record', onRecordedError: (error) => recorded.push(error) },
    );
    expect(await stack.resolveToolCall(context, toolCallEvent())).toEqual({
      action: ToolCallAction.rewrite({ n: 2 }),
      args: { n: 2 },
      rewritten: true,
    });
    expect(stack.errors.map((error) => error.hookName)).toEqual(['flaky', 'throws']);
    expect(recorded).toEqual(stack.errors);
    expect(reports.map((report) => [report.level, report.hookName, report.event])).toEqual([
      ['warning', 'flaky', 'toolCall'],
      ['warning', 'throws', 'toolCall'],
    ]);
  });

  it("lets an outer 'record' stack record the failure of a failing nested stack", async () => {
    const { context } = contextWithReports();
    const outer = new HookStack(
      [
        new HookStack([
          {
            name: 'deep',
            onStop: () => {
              throw new Error('x');
            },
          },
        ]),
        { onStop: () => StopAction.block('still consulted') },
      ],
      { onHookError: 'record' },
    );
    expect(await outer.onStop(context, stopEvent)).toEqual(StopAction.block('still consulted'));
    expect(outer.errors.map((error) => error.hookName)).toEqual(['deep']);
  });
});

describe('HookStack interest', () => {
  it('dispatches only to members interested in the event and skips the rest', () => {
    const { context } = contextWithReports();
    const called: string[] = [];
    const stack = new HookStack([
      { onTextDelta: () => (called.push('implements'), ObservationAction.continue()) },
      {
        observes: () => false,
        onTextDelta: () => (called.push('declines'), ObservationAction.continue()),
      },
      { onToolCall: () => ToolCallAction.run() },
    ]);
    void stack.onTextDelta(context, { delta: 'd', aggregated: 'd' });
    expect(called).toEqual(['implements']);
    expect(stack.observes('textDelta')).toBe(true);
    expect(stack.observes('reasoningDelta')).toBe(false);
  });

  it('sees members pushed into a nested stack after it was nested', () => {
    const inner = new HookStack();
    const outer = new HookStack([inner]);
    expect(outer.observes('textDelta')).toBe(false);
    inner.push({ onTextDelta: () => ObservationAction.continue() });
    expect(outer.observes('textDelta')).toBe(true);
  });

  it('observes each kind exactly when some member implements it', () => {
    const kinds: HookEventKind[] = ['toolCall', 'stop', 'sessionEnd'];
    const stack = new HookStack([
      { onToolCall: () => ToolCallAction.run() },
      new HookStack([{ onStop: () => StopAction.continue() }]),
    ]);
    expect(kinds.map((kind) => stack.observes(kind))).toEqual([true, true, false]);
  });

  it('refuses to contain itself', () => {
    const stack = new HookStack();
    expect(() => stack.push(stack)).toThrow(/cannot contain itself/);
  });
});
