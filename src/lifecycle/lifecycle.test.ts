/**
 * The lifecycle's performance contract, the one thing the host-parity suite cannot see: with no
 * hook observing a decision point's events, its decision comes back at once, not as a promise,
 * so no host awaits anything on the unobserved path. And the decisions themselves, once, on a
 * real `HookStack`.
 */
import { describe, expect, it } from 'vitest';
import type { HookReport } from '../events/context.ts';
import { RunHookContext } from '../hooks/hook-context.ts';
import { HookStack } from '../hooks/stack/hook-stack.ts';
import { StopAction } from '../events/index.ts';
import type { AgentHook } from '../hooks/agent-hook.ts';
import {
  afterModelOutput,
  afterToolCall,
  afterTurn,
  beforeModelCall,
  beforeToolCall,
  DEFAULT_STOP_CONTINUATIONS_PER_TURN,
  stackHooks,
  submitPrompt,
  toolFailed,
  type LifecycleHooks,
} from './index.ts';

function hooksOf(hooks: readonly AgentHook[], reports: HookReport[] = []): LifecycleHooks {
  const context = new RunHookContext({
    session: { sessionId: 's', transcriptPath: '', cwd: process.cwd() },
    report: (report) => reports.push(report),
  });
  return stackHooks(
    new HookStack(hooks),
    () => context,
    (report) => reports.push(report),
  );
}

const request = { model: 'm', contents: [] };
const call = { toolName: 'echo', toolCallId: 'c1', args: { text: 'hi' } };
const turn = { prompt: 'p', answer: () => 'a', continuations: 0, budget: 8 };

describe('the lifecycle with no hook observing its events', () => {
  it('decides every point at once, with no promise', () => {
    const hooks = hooksOf([]);
    const decisions: unknown[] = [
      submitPrompt(hooks, 'hello', undefined),
      beforeModelCall(hooks, {
        request,
        prompt: () => ({ speaker: 'human', blocks: [] }),
        history: () => [],
        modelCall: 1,
      }),
      afterModelOutput(hooks, {
        request,
        response: { content: { speaker: 'ai', blocks: [] } },
        isChunk: false,
        isTerminal: true,
      }),
      beforeToolCall(hooks, call, undefined),
      afterToolCall(hooks, { ...call, result: 1, skipped: false }),
      toolFailed(hooks, { ...call, error: 'boom' }),
      afterTurn(hooks, turn),
    ];
    for (const decision of decisions) expect(decision instanceof Promise).toBe(false);
    expect(decisions[0]).toEqual({
      kind: 'submit',
      prompt: 'hello',
      rewritten: false,
      before: undefined,
      after: undefined,
    });
    expect(decisions[3]).toEqual({ kind: 'run', args: call.args, rewritten: false });
    expect(decisions[6]).toEqual({ kind: 'end', status: 'completed', answered: false });
  });
});

describe('afterTurn', () => {
  it(`continues within the budget (default ${DEFAULT_STOP_CONTINUATIONS_PER_TURN}), then ends with a warning naming the option and the flag`, async () => {
    expect(DEFAULT_STOP_CONTINUATIONS_PER_TURN).toBe(8);
    const reports: HookReport[] = [];
    const hooks = hooksOf([{ onStop: () => StopAction.block('again') }], reports);
    expect(await afterTurn(hooks, { ...turn, continuations: 7 })).toEqual({
      kind: 'continue',
      continuation: 'again',
    });
    expect(await afterTurn(hooks, { ...turn, continuations: 8 })).toEqual({
      kind: 'end',
      status: 'completed',
      answered: true,
    });
    expect(reports.map((report) => report.text)).toEqual([
      'a Stop hook blocked again ("again"), but this turn already continued 8 time(s) (stopContinuationsPerTurn: 8); the turn ends. Raise stopContinuationsPerTurn (hookwire run --max-stop-continuations N) to let Stop hooks continue a turn more often.',
    ]);
  });

  it('a stop ends the turn stopped with its reason', async () => {
    const hooks = hooksOf([{ onStop: () => StopAction.stop('policy says stop') }]);
    expect(await afterTurn(hooks, turn)).toEqual({
      kind: 'end',
      status: 'stopped',
      reason: 'policy says stop',
    });
  });
});
