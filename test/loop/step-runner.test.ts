/**
 * The step-runner seam: every model call, tool call and hook run of a run goes through the
 * configured runner, in one deterministic order (a tool step's calls one after another), and
 * what the runner returns is what the loop uses — the property a durable runner's replay rests on.
 */
import { describe, expect, it } from 'vitest';
import type { ModelResponse } from '../../src/content/index.ts';
import type { StepRunner } from '../../src/loop/index.ts';
import type { Awaitable } from '../../src/events/index.ts';
import { callTools, collect, echoTool, loggingHook, say, start } from './support.ts';

/** Runs each step directly and logs it, before and after, to `log`. */
function recordingRunner(log: string[]): StepRunner {
  return {
    async runModel(step, call): Promise<ModelResponse> {
      log.push(`model ${step.turn}.${step.modelCall} start`);
      const response = await call();
      log.push(`model ${step.turn}.${step.modelCall} end`);
      return response;
    },
    async runTool(step, call): Promise<unknown> {
      log.push(`tool ${step.toolName}#${step.toolCallId} start`);
      const result = await call();
      log.push(`tool ${step.toolName}#${step.toolCallId} end`);
      return result;
    },
    runHook<A>(step: { event: string }, call: () => Awaitable<A> | undefined) {
      log.push(`hook ${step.event}`);
      return call();
    },
  };
}

describe('the step-runner seam', () => {
  it('routes every model call, tool call and hook run through the runner, calls in call order', async () => {
    const log: string[] = [];
    const { session } = await start({
      script: [
        callTools([
          { id: 'a', name: 'echo', args: { text: 'one' } },
          { id: 'b', name: 'echo', args: { text: 'two' } },
        ]),
        say('done'),
      ],
      hooks: [loggingHook([])],
      agent: { stepRunner: recordingRunner(log) },
    });
    const { result } = await collect(session.run('go'));
    await session.close('exit');
    expect(result.status).toBe('completed');
    expect(result.result).toBe('done');
    const steps = log.filter((line) => !line.startsWith('hook'));
    expect(steps).toEqual([
      'model 1.1 start',
      'model 1.1 end',
      'tool echo#a start',
      'tool echo#a end',
      'tool echo#b start',
      'tool echo#b end',
      'model 1.2 start',
      'model 1.2 end',
    ]);
    const hooks = log.filter((line) => line.startsWith('hook'));
    expect(hooks[0]).toBe('hook sessionStart');
    expect(hooks).toContain('hook toolCall');
    expect(hooks).toContain('hook toolResult');
    expect(hooks).toContain('hook stop');
    expect(hooks.at(-1)).toBe('hook sessionEnd');
    // PreToolUse of the second call fires only after the first call's tool finished.
    expect(log.indexOf('tool echo#a end')).toBeLessThan(
      log.lastIndexOf('hook toolCall', log.indexOf('tool echo#b start')),
    );
  });

  it('uses what the runner answers: a replayed tool result reaches the model, the tool not run', async () => {
    let ran = 0;
    const replaying: StepRunner = {
      runModel: (_step, call) => call(),
      runTool: async () => ({ text: 'from the journal' }),
      runHook: (_step, call) => call(),
    };
    const { session, model } = await start({
      script: [callTools([{ id: 'a', name: 'echo', args: { text: 'live' } }]), say('ok')],
      tools: [
        {
          ...echoTool,
          execute: async (args) => {
            ran++;
            return args;
          },
        },
      ],
      agent: { stepRunner: replaying },
    });
    await collect(session.run('go'));
    await session.close('exit');
    expect(ran).toBe(0);
    const second = model.requests[1];
    const toolMessage = second?.contents.at(-1);
    expect(toolMessage?.blocks[0]).toMatchObject({
      type: 'tool_response',
      callId: 'a',
      result: { text: 'from the journal' },
    });
  });

  it('opens a session from a given history: the model sees it, the turn is numbered after it', async () => {
    const log: string[] = [];
    const { agent, model } = await start({ script: [say('second answer')] });
    const session = await agent.openSession({
      history: [
        { speaker: 'human', blocks: [{ type: 'text', text: 'first prompt' }] },
        { speaker: 'ai', blocks: [{ type: 'text', text: 'first answer' }] },
      ],
      turns: 1,
    });
    const handle = session.run('second prompt');
    for await (const event of handle)
      if (event.type === 'turn-start') log.push(`turn ${event.turn}`);
    await handle.result;
    await session.close('exit');
    expect(log).toEqual(['turn 2']);
    const texts = model.requests[0]?.contents.map((message) =>
      message.blocks.map((block) => (block.type === 'text' ? block.text : '')).join(''),
    );
    expect(texts).toEqual(['first prompt', 'first answer', 'second prompt']);
  });
});
