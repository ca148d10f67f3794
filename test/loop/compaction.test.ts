/**
 * Compaction on the real loop: a long scripted session past its context budget compacts
 * (PreCompact → summary → PostCompact), keeps working with a history valid for every provider,
 * and resumes from the compacted history; a provider's too-long rejection compacts and retries.
 */
import { describe, expect, it } from 'vitest';
import { ModelError, type ModelRequest } from '../../src/content/index.ts';
import { ContextAction } from '../../src/events/index.ts';
import {
  readTranscript,
  toolPairingProblems,
  type RunEvent,
  type Tool,
  type TranscriptRecord,
} from '../../src/loop/index.ts';
import { SUMMARIZER_INSTRUCTION, SUMMARY_PREAMBLE } from '../../src/loop/compaction.ts';
import type { ScriptedTurn } from '../../src/testing.ts';
import { callTools, collect, echoTool, loggingHook, say, start, SURFACES } from './support.ts';

const isSummary = (request: ModelRequest): boolean =>
  request.settings?.systemInstruction === SUMMARIZER_INSTRUCTION;

const text = (request: ModelRequest): string =>
  request.contents
    .flatMap((message) => message.blocks)
    .map((block) => (block.type === 'text' ? block.text : ''))
    .join('\n');

/** Six tool steps echoing 600 characters each, then an answer; summaries on request. */
function longScript(steps = 6) {
  let step = 0;
  return (request: ModelRequest): ScriptedTurn => {
    if (isSummary(request)) return say('The agent echoed six long texts for the user.');
    step++;
    return step <= steps
      ? callTools([{ id: `c${step}`, name: 'echo', args: { text: `${step}:${'x'.repeat(600)}` } }])
      : say(`done after ${step - 1} steps`);
  };
}

describe.each(SURFACES)('compaction ($name)', ({ streaming }) => {
  it('compacts past the budget with PreCompact instructions in the summary request, and keeps working', async () => {
    const log: string[] = [];
    const summaries: string[] = [];
    const { session, model, agent } = await start({
      agent: { maxContextTokens: 700 },
      tools: [echoTool],
      hooks: [
        loggingHook(log, {
          onPreCompact: (_context, event) => {
            expect(event.trigger).toBe('auto');
            return ContextAction.continue('Keep the step numbers.');
          },
          onPostCompact: (_context, event) => {
            summaries.push(event.summary);
            expect(event.tokensAfter).toBeLessThan(event.tokensBefore);
            return { kind: 'continue' };
          },
        }),
      ],
      script: longScript(),
    });
    const { result, events } = await collect(session.run('echo six long texts', { streaming }));
    expect(result.status).toBe('completed');
    expect(result.result).toBe('done after 6 steps');
    const summaryRequests = model.requests.filter(isSummary);
    expect(summaryRequests.length).toBeGreaterThanOrEqual(1);
    // The hooks' instructions are in the summarization request, after the conversation.
    const asked = text(summaryRequests[0] as ModelRequest);
    expect(asked).toContain('Keep the step numbers.');
    expect(asked.indexOf('Keep the step numbers.')).toBeGreaterThan(
      asked.indexOf('</conversation>'),
    );
    expect(log.filter((entry) => entry === 'PreCompact:auto')).toHaveLength(summaryRequests.length);
    expect(log.filter((entry) => entry === 'PostCompact:auto')).toHaveLength(
      summaryRequests.length,
    );
    expect(summaries[0]).toBe('The agent echoed six long texts for the user.');
    expect(events.some((event) => event.type === 'compaction')).toBe(true);
    // Every request the agent made, before and after compacting, pairs its tool calls.
    const agentRequests = model.requests.filter((request) => !isSummary(request));
    for (const request of agentRequests) expect(toolPairingProblems(request.contents)).toEqual([]);
    // After compacting, the request starts with the summary and is shorter than before.
    const after = agentRequests.find((request) =>
      text(request).startsWith(SUMMARY_PREAMBLE),
    ) as ModelRequest;
    expect(after).toBeDefined();
    expect(after.contents[1]?.speaker).toBe('ai');
    // The transcript records the compaction; a resume continues from the compacted history.
    const history = [...session.history];
    await session.close('exit');
    const records = (await readTranscript(session.transcriptPath)).records;
    const compaction = records.find(
      (record): record is Extract<TranscriptRecord, { type: 'compaction' }> =>
        record.type === 'compaction',
    );
    expect(compaction).toMatchObject({ trigger: 'auto', summary: summaries[0] });
    const resumed = await agent.openSession({ sessionId: session.sessionId, resume: true });
    expect(resumed.history).toEqual(history);
    expect(toolPairingProblems(resumed.history)).toEqual([]);
    await resumed.close('exit');
  });

  it('compacts once after a provider rejects a request as too long, then retries it', async () => {
    const log: string[] = [];
    let rejected = false;
    const inner = longScript(3);
    const { session, model } = await start({
      tools: [echoTool],
      hooks: [loggingHook(log)],
      script: (request) => {
        if (!isSummary(request) && request.contents.length >= 6 && !rejected) {
          rejected = true;
          throw new ModelError({
            kind: 'context_length',
            provider: 'scripted',
            message: 'prompt is too long: 250000 tokens > 200000 maximum',
          });
        }
        return inner(request);
      },
    });
    const { result } = await collect(session.run('echo', { streaming }));
    expect(result.status).toBe('completed');
    expect(rejected).toBe(true);
    expect(model.requests.filter(isSummary)).toHaveLength(1);
    expect(log).toContain('PreCompact:auto');
    expect(log).not.toContain('StopFailure');
  });
});

describe('Session.compact', () => {
  it("compacts on demand with trigger manual and the caller's instructions", async () => {
    const log: string[] = [];
    const { session, model } = await start({
      tools: [echoTool],
      hooks: [loggingHook(log)],
      script: longScript(2),
    });
    await collect(session.run('echo twice'));
    const outcome = await session.compact({ instructions: 'Mention the echo tool.' });
    expect(outcome).toMatchObject({ kind: 'compacted' });
    expect(log).toContain('PreCompact:manual');
    expect(log).toContain('PostCompact:manual');
    expect(text(model.requests.filter(isSummary)[0] as ModelRequest)).toContain(
      'Mention the echo tool.',
    );
    expect(session.history[0]?.speaker).toBe('human');
    expect(toolPairingProblems(session.history)).toEqual([]);
    await session.close('exit');
  });
});

/** A tool whose one result is large (as a whole log file read at once), from tiny arguments. */
const bigReadTool: Tool = {
  declaration: {
    name: 'big_read',
    description: 'Reads the log.',
    parameters: { type: 'object', properties: {}, additionalProperties: false },
  },
  execute: async () => 'log line\n'.repeat(700),
};

const reportsOf = (events: readonly RunEvent[]): string[] =>
  events.flatMap((event) => (event.type === 'hook-report' ? [event.report.text] : []));

describe('compaction that cannot cut its way under the budget', () => {
  it('one huge tool result: the history shrinks and fits the budget, the result cut with a note (was 1,595 → 1,619 tokens)', async () => {
    const { session, model } = await start({
      agent: { maxContextTokens: 1000 },
      tools: [bigReadTool],
      script: (request) => {
        if (isSummary(request))
          return say('The user asked the agent to read the log; the agent called big_read for it.');
        return request.contents.length === 1
          ? callTools([{ id: 'r1', name: 'big_read', args: {} }], 'tool_calls', '')
          : say('The log repeats one line.');
      },
    });
    const { result, events } = await collect(session.run('read the log'));
    expect(result.status).toBe('completed');
    expect(result.result).toBe('The log repeats one line.');
    const compaction = events.find(
      (event): event is Extract<RunEvent, { type: 'compaction' }> => event.type === 'compaction',
    );
    expect(compaction).toBeDefined();
    // Never larger than before, and within the budget.
    expect(compaction?.tokensAfter).toBeLessThan(compaction?.tokensBefore ?? 0);
    expect(compaction?.tokensAfter).toBeLessThanOrEqual(1000);
    // The request after compaction: the summary, the call, and its result cut with a note.
    const after = model.requests.filter((request) => !isSummary(request)).at(-1) as ModelRequest;
    expect(text(after)).toContain(SUMMARY_PREAMBLE);
    expect(toolPairingProblems(after.contents)).toEqual([]);
    const cutResult = after.contents
      .flatMap((message) => message.blocks)
      .find((block) => block.type === 'tool_response');
    expect(String(cutResult?.type === 'tool_response' ? cutResult.result : '')).toMatch(
      /^log line\n[\s\S]*\n\[hookwire cut this tool result from 6300 characters when it compacted the history, to fit the context budget of 1000 tokens\]$/,
    );
    expect(reportsOf(events)).toContainEqual(
      expect.stringMatching(/^compaction cut 1 tool result of the recent messages/),
    );
    await session.close('exit');
  });

  it('fails the run with context_budget_exceeded when even the compacted history is over the budget', async () => {
    const { session } = await start({
      agent: { maxContextTokens: 1000 },
      tools: [echoTool],
      script: (request) => (isSummary(request) ? say('Hi.') : say('ok')),
    });
    // A first turn worth summarizing, then a prompt that alone is over the budget.
    const first = await collect(session.run(`hello ${'there '.repeat(100)}`));
    expect(first.result.status).toBe('completed');
    const second = await collect(session.run(`Translate this: ${'word '.repeat(1000)}`));
    expect(second.result.status).toBe('failed');
    expect(second.result.error).toMatchObject({ code: 'context_budget_exceeded' });
    expect(second.result.error?.message).toMatch(
      /^the history was compacted \(\d+ → \d+ estimated tokens\), but the next request is still over the context budget of 1000 tokens: /,
    );
    await session.close('exit');
  });

  it('a summary answered with a tool call is asked again once for text', async () => {
    let summaryCalls = 0;
    const inner = longScript();
    const { session, model } = await start({
      agent: { maxContextTokens: 700 },
      tools: [echoTool],
      script: (request) => {
        if (isSummary(request) && ++summaryCalls === 1)
          return callTools([{ id: 's1', name: 'echo', args: { text: 'no' } }]);
        return inner(request);
      },
    });
    const { result, events } = await collect(session.run('echo six long texts'));
    expect(result.status).toBe('completed');
    expect(reportsOf(events)).toContain(
      'the model answered the summary request with a tool call (echo) instead of text; asking once more for text',
    );
    const summaries = model.requests.filter(isSummary);
    expect(text(summaries[1] as ModelRequest)).toContain('Answer with the summary as plain text.');
    const compactions = events.filter((event) => event.type === 'compaction');
    expect(compactions.length).toBeGreaterThanOrEqual(1);
    // The tool call never became the summary.
    expect(JSON.stringify(session.history)).not.toContain('"s1"');
    await session.close('exit');
  });

  it('a summary answered with a tool call twice is not applied, and the warning says why', async () => {
    const { session } = await start({
      agent: { maxContextTokens: 700 },
      tools: [echoTool],
      script: (request) =>
        isSummary(request)
          ? callTools([{ id: 's1', name: 'echo', args: { text: 'no' } }])
          : longScript(2)(request),
    });
    const { events } = await collect(session.run('echo twice'));
    expect(events.some((event) => event.type === 'compaction')).toBe(false);
    expect(reportsOf(events)).toContainEqual(
      expect.stringContaining(
        'the history was not compacted: the model answered the summary request with a tool call (echo) instead of text, twice; a summary must be text',
      ),
    );
    await session.close('exit');
  });
});
