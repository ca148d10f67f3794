/**
 * When the lifecycle events fire, on the real loop with the scripted model, on both surfaces —
 * above all the Stop / StopFailure / Interrupt rules and races of seeds/004.
 */
import { describe, expect, it } from 'vitest';
import { StopAction } from '../../src/events/index.ts';
import { ModelError } from '../../src/content/index.ts';
import {
  callTools,
  collect,
  deferred,
  lastRequestText,
  loggingHook,
  say,
  start,
  SURFACES,
} from './support.ts';

/** Two runs' script: a tool step and its answer, then the second run's answer. */
const twoRuns = () => [
  callTools([{ id: 'c1', name: 'echo', args: { text: 'hi' } }]),
  say('One.'),
  say('Two.'),
];

describe.each(SURFACES)('turn lifecycle ($name)', ({ streaming }) => {
  it('fires the events of a tool-using turn in lifecycle order', async () => {
    const log: string[] = [];
    const { session } = await start({
      script: [callTools([{ id: 'c1', name: 'echo', args: { text: 'hi' } }]), say('Done.')],
      hooks: [loggingHook(log)],
    });
    const { result } = await collect(session.run('Say hi', { streaming }));
    await session.close('exit');
    expect(result.status).toBe('completed');
    expect(result.result).toBe('Done.');
    expect(result.modelCalls).toBe(2);
    expect(log).toEqual([
      'SessionStart:startup',
      'UserPromptSubmit',
      'BeforeModel',
      'BeforeToolSelection',
      'ModelTurnFinished',
      'PreToolUse:echo',
      'PostToolUse:echo',
      'BeforeModel',
      'BeforeToolSelection',
      'ModelTurnFinished',
      'Stop(active=false)',
      'SessionEnd',
    ]);
  });

  it('numbers the model calls of each run (modelCall), the same number on the event and the context', async () => {
    const seen: string[] = [];
    const { session } = await start({
      script: twoRuns(),
      hooks: [
        {
          name: 'numbers',
          onCompletionCall(context, event) {
            // eslint-disable-next-line @typescript-eslint/no-deprecated -- the first release's name, still filled in
            seen.push(`before ${event.modelCall} ctx ${context.modelCall} alias ${event.turn}`);
            return { kind: 'continue' };
          },
          onModelTurnFinished(context, event) {
            seen.push(`after ${event.modelCall} ctx ${context.modelCall}`);
            return { kind: 'continue' };
          },
        },
      ],
    });
    await collect(session.run('first', { streaming }));
    await collect(session.run('second', { streaming }));
    await session.close('exit');
    expect(seen).toEqual([
      'before 1 ctx 1 alias 1',
      'after 1 ctx 1',
      'before 2 ctx 2 alias 2',
      'after 2 ctx 2',
      'before 1 ctx 1 alias 1',
      'after 1 ctx 1',
    ]);
  });

  it("gives each run one id, the same on every hook's context of the run, another for the next run", async () => {
    const ids: string[][] = [[], []];
    let run = 0;
    const record = (context: { readonly runId: string }) => ids[run]?.push(context.runId);
    const { session } = await start({
      script: twoRuns(),
      hooks: [
        {
          name: 'ids',
          onCompletionCall: (context) => (record(context), { kind: 'continue' }),
          onToolCall: (context) => (record(context), { kind: 'run' }),
          onStop: (context) => (record(context), { kind: 'continue' }),
        },
      ],
    });
    await collect(session.run('first', { streaming }));
    run = 1;
    await collect(session.run('second', { streaming }));
    await session.close('exit');
    const [first = [], second = []] = ids;
    expect(first).toHaveLength(4);
    expect(new Set(first).size).toBe(1);
    expect(second).toHaveLength(2);
    expect(new Set(second).size).toBe(1);
    expect(first[0]).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(second[0]).not.toBe(first[0]);
  });

  it('does not fire Stop after a tool step whose provider said stop', async () => {
    const log: string[] = [];
    const { session } = await start({
      script: [callTools([{ id: 'c1', name: 'echo', args: { text: 'x' } }], 'stop'), say('Final.')],
      hooks: [loggingHook(log)],
    });
    const { events, result } = await collect(session.run('go', { streaming }));
    expect(result.status).toBe('completed');
    expect(log.filter((entry) => entry.startsWith('Stop'))).toEqual(['Stop(active=false)']);
    expect(log.indexOf('Stop(active=false)')).toBeGreaterThan(log.indexOf('PostToolUse:echo'));
    const responses = events.filter((event) => event.type === 'model-response');
    expect(responses.map((event) => event.finishReason)).toEqual(['tool_calls', 'stop']);
  });

  it('with stopContinuationsPerTurn: 1, continues a turn exactly once when a Stop hook always blocks, with stopHookActive on the second Stop', async () => {
    const log: string[] = [];
    const stops: boolean[] = [];
    const { session, model } = await start({
      script: [
        say('First answer.'),
        say('Checked again.'),
        say('Second turn.'),
        say('Second turn checked.'),
      ],
      hooks: [
        loggingHook(log, {
          onStop: (_context, event) => {
            stops.push(event.stopHookActive);
            return StopAction.block('Run one more check');
          },
        }),
      ],
      agent: { stopContinuationsPerTurn: 1 },
    });
    const first = await collect(session.run('one', { streaming }));
    expect(first.result.status).toBe('completed');
    expect(first.result.result).toBe('Checked again.');
    expect(first.result.modelCalls).toBe(2);
    expect(lastRequestText(model, 1)).toBe('Run one more check');
    expect(
      first.events.flatMap((event) => (event.type === 'hook-report' ? [event.report.level] : [])),
    ).toEqual(['warning']);

    const second = await collect(session.run('two', { streaming }));
    expect(second.result.status).toBe('completed');
    expect(second.result.modelCalls).toBe(2);
    expect(lastRequestText(model, 3)).toBe('Run one more check');
    expect(stops).toEqual([false, true, false, true]);
    expect(model.callCount).toBe(4);
  });

  it('lets a prompt queued while the Stop hook runs make its continuation moot', async () => {
    const log: string[] = [];
    const stopEntered = deferred();
    const release = deferred<StopAction>();
    let stopCalls = 0;
    const { session, model } = await start({
      script: [say('Answer one.'), say('Answer to the queued prompt.')],
      hooks: [
        loggingHook(log, {
          onStop: () => {
            stopCalls++;
            if (stopCalls > 1) return StopAction.continue();
            stopEntered.resolve();
            return release.promise;
          },
        }),
      ],
    });
    const handle = session.run('first', { streaming });
    await stopEntered.promise;
    expect(session.enqueue('queued prompt')).toBe(true);
    release.resolve(StopAction.block('keep going'));
    const { result } = await collect(handle);
    expect(result.status).toBe('completed');
    expect(result.result).toBe('Answer to the queued prompt.');
    expect(model.callCount).toBe(2);
    expect(lastRequestText(model, 1)).toBe('queued prompt');
    expect(log.filter((entry) => entry.startsWith('Stop') || entry === 'UserPromptSubmit')).toEqual(
      ['UserPromptSubmit', 'Stop(active=false)', 'UserPromptSubmit', 'Stop(active=false)'],
    );
  });

  it('does not fire Stop for a turn while another prompt is queued', async () => {
    const log: string[] = [];
    const modelStarted = deferred();
    const release = deferred();
    const { session } = await start({
      script: async (_request, index) => {
        if (index === 0) {
          modelStarted.resolve();
          await release.promise;
        }
        return say(`answer ${index + 1}`);
      },
      hooks: [loggingHook(log)],
    });
    const handle = session.run('first', { streaming });
    await modelStarted.promise;
    session.enqueue('second');
    release.resolve();
    const { result } = await collect(handle);
    expect(result.result).toBe('answer 2');
    expect(log.filter((entry) => entry.startsWith('Stop'))).toEqual(['Stop(active=false)']);
  });

  it('fires Interrupt and never Stop when the turn is cancelled during the model call', async () => {
    const log: string[] = [];
    const modelStarted = deferred();
    const { session } = await start({
      script: () => {
        modelStarted.resolve();
        return { ...say('too late'), delayMs: 60_000 };
      },
      hooks: [loggingHook(log)],
    });
    const handle = session.run('slow', { streaming });
    await modelStarted.promise;
    handle.cancel('user pressed Ctrl-C');
    const { result, events } = await collect(handle);
    expect(result.status).toBe('cancelled');
    expect(result.reason).toBe('user pressed Ctrl-C');
    expect(log).toEqual([
      'SessionStart:startup',
      'UserPromptSubmit',
      'BeforeModel',
      'BeforeToolSelection',
      'Interrupt',
    ]);
    expect(events.at(-2)).toMatchObject({ type: 'turn-end', status: 'cancelled' });
  });

  it('fires nothing more when cancelled after the turn (and its Stop) completed, and Interrupt only for the turn cancelled later', async () => {
    const log: string[] = [];
    const secondStarted = deferred();
    const { session } = await start({
      script: (_request, index) => {
        if (index === 0) return say('one');
        secondStarted.resolve();
        return { ...say('two'), delayMs: 60_000 };
      },
      hooks: [loggingHook(log)],
    });
    const first = session.run('first', { streaming });
    const done = await collect(first);
    first.cancel();
    expect(done.result.status).toBe('completed');

    const second = session.run('second', { streaming });
    await secondStarted.promise;
    second.cancel();
    second.cancel();
    const cancelled = await collect(second);
    expect(cancelled.result.status).toBe('cancelled');
    expect(
      log.filter((entry) => ['Stop(active=false)', 'Interrupt', 'StopFailure'].includes(entry)),
    ).toEqual(['Stop(active=false)', 'Interrupt']);
  });

  it('discards a Stop hook whose turn is cancelled while it runs, and fires Interrupt', async () => {
    const log: string[] = [];
    const stopEntered = deferred();
    const release = deferred<StopAction>();
    const { session, model } = await start({
      script: [say('answer'), say('continuation that must not happen')],
      hooks: [
        loggingHook(log, {
          onStop: (context) => {
            stopEntered.resolve();
            expect(context.signal.aborted).toBe(false);
            return release.promise;
          },
          onInterrupt: (context) => {
            // The Interrupt hook gets a live signal of its own.
            expect(context.signal.aborted).toBe(false);
            return { kind: 'continue' };
          },
        }),
      ],
    });
    const handle = session.run('go', { streaming });
    await stopEntered.promise;
    handle.cancel();
    release.resolve(StopAction.block('continue please'));
    const { result } = await collect(handle);
    expect(result.status).toBe('cancelled');
    expect(model.callCount).toBe(1);
    expect(log.slice(-2)).toEqual(['Stop(active=false)', 'Interrupt']);
  });

  it('fires StopFailure and not Stop for a safety-filtered answer', async () => {
    const log: string[] = [];
    const failures: unknown[] = [];
    const { session } = await start({
      script: [
        {
          blocks: [{ type: 'text', text: 'I cannot' }],
          finishReason: 'safety',
          rawStopReason: 'SAFETY',
        },
      ],
      hooks: [
        loggingHook(log, {
          onStopFailure: (_context, event) => (failures.push(event), { kind: 'continue' }),
        }),
      ],
    });
    const { result } = await collect(session.run('bad', { streaming }));
    expect(result.status).toBe('failed');
    expect(result.reason).toContain('safety');
    expect(log).not.toContain('Stop(active=false)');
    expect(log.at(-1)).toBe('StopFailure');
    expect(failures).toEqual([
      expect.objectContaining({ finishReason: 'safety', rawStopReason: 'SAFETY', prompt: 'bad' }),
    ]);
  });

  it('fires StopFailure and not Stop when the provider fails', async () => {
    const log: string[] = [];
    const { session } = await start({ script: [], hooks: [loggingHook(log)] });
    const { result } = await collect(session.run('anything', { streaming }));
    expect(result.status).toBe('failed');
    expect(result.error).toBeInstanceOf(ModelError);
    expect(result.error?.message).toBe(
      'scripted model has no line for call 1 (the script has 0 lines)',
    );
    expect(log.at(-1)).toBe('StopFailure');
    expect(log).not.toContain('Interrupt');
  });

  it('ends the run budget_exhausted, with a Notification, when the model-call budget is spent', async () => {
    const log: string[] = [];
    const { session } = await start({
      script: Array.from({ length: 5 }, (_, index) =>
        callTools([{ id: `c${index}`, name: 'echo', args: { text: 'again' } }]),
      ),
      hooks: [loggingHook(log)],
      agent: { maxModelCalls: 3 },
    });
    const { result } = await collect(session.run('loop forever', { streaming }));
    expect(result.status).toBe('budget_exhausted');
    expect(result.modelCalls).toBe(3);
    expect(result.reason).toContain('limit of 3 model calls');
    expect(log.filter((entry) => entry.startsWith('Notification'))).toEqual([
      'Notification:budget_exhausted',
    ]);
    expect(log).not.toContain('Stop(active=false)');
  });

  it('gives SessionStart context to the first prompt and appends UserPromptSubmit context to the prompt', async () => {
    const { session, model } = await start({
      script: [say('ok'), say('ok again')],
      hooks: [
        loggingHook([], {
          onSessionStart: () => ({ kind: 'continue', additionalContext: 'Project: hookwire' }),
          onPromptSubmit: (_context, event) => ({
            kind: 'continue',
            additionalContext: `(prompt had ${event.prompt.length} characters)`,
          }),
        }),
      ],
    });
    await collect(session.run('hello', { streaming }));
    await collect(session.run('again', { streaming }));
    expect(lastRequestText(model, 0)).toBe('Project: hookwire hello (prompt had 5 characters)');
    expect(lastRequestText(model, 1)).toBe('again (prompt had 5 characters)');
  });
});
