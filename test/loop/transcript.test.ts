/**
 * Sessions and transcripts: valid JSONL after a run, survival of a crash's truncated last line,
 * resume.
 */
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createAgent, historyOf, readTranscript } from '../../src/loop/index.ts';
import { DEFERRED_WRITE_MS, TranscriptWriter } from '../../src/loop/transcript.ts';
import { createScriptedModel, loadScriptedModel } from '../../src/testing.ts';
import { callTools, collect, loggingHook, say, start, SURFACES } from './support.ts';
import { HookStack } from '../../src/hooks/stack/hook-stack.ts';
import { testTempDir } from '../support/temp-dir.ts';
import { ModelError, textOf, type Message } from '../../src/content/index.ts';

describe.each(SURFACES)('sessions and transcripts ($name)', ({ streaming }) => {
  it('writes a transcript of valid JSONL records, even when a hook message holds newlines and quotes', async () => {
    const { session } = await start({
      script: [
        callTools([{ id: 'c1', name: 'echo', args: { text: 'line1\nline2 "quoted"' } }]),
        say('done'),
      ],
      hooks: [
        loggingHook([], {
          onStop: (context) => (
            context.report({ level: 'message', text: 'a\n"b"\n{' }),
            { kind: 'continue' }
          ),
        }),
      ],
    });
    await collect(session.run('q', { streaming }));
    await session.close('exit');
    const lines = (await readFile(session.transcriptPath, 'utf8')).trimEnd().split('\n');
    const records = lines.map((line) => JSON.parse(line) as { type: string });
    // The logging hook's own runs are recorded too (in-process hook runs, between the others).
    expect(records.filter((record) => record.type === 'hook-run').length).toBeGreaterThan(0);
    expect(
      records.filter((record) => record.type !== 'hook-run').map((record) => record.type),
    ).toEqual([
      'session-start',
      'turn-start',
      'message',
      'model-call',
      // The answer's calls, written ahead of its tool without its text; the whole answer follows.
      'pending-message',
      'message',
      // The tool's own result, before the PostToolUse hooks (the logging hook observes it) see
      // it. The reviewed result of the step's last call is the tool message itself, written
      // straight after it: no record of its own.
      'tool-result',
      'tool-call',
      'message',
      'model-call',
      'message',
      'hook-report',
      'turn-end',
      'session-end',
    ]);
    expect(session.transcriptPath).toBe(
      join(session.transcriptPath, '..', `${session.sessionId}.jsonl`),
    );
  });

  it('resumes from a transcript whose last line a crash cut short, with a warning', async () => {
    const cwd = await testTempDir('resume');
    const first = await start({ script: [say('first answer')], cwd });
    await collect(first.session.run('remember 42', { streaming }));
    await first.session.close('exit');
    await appendFile(
      first.session.transcriptPath,
      '{"type":"message","turn":2,"message":{"speaker":"hu',
    );

    const log: string[] = [];
    const model = createScriptedModel([say('you said 42')], { keepRequests: true });
    const agent = createAgent({ model, hooks: new HookStack([loggingHook(log)]), cwd });
    const resumed = await agent.openSession({ sessionId: first.session.sessionId, resume: true });
    expect(resumed.history.map((message) => message.speaker)).toEqual(['human', 'ai']);
    const { result, events } = await collect(resumed.run('what did I say?', { streaming }));
    await resumed.close('exit');
    expect(result.status).toBe('completed');
    expect(log[0]).toBe('SessionStart:resume');
    expect(model.requests[0]?.contents).toHaveLength(3);
    expect(
      events.some(
        (event) =>
          event.type === 'hook-report' && event.report.text.includes('truncated last line'),
      ),
    ).toBe(true);
    const again = createAgent({ model: createScriptedModel([]), cwd });
    const third = await again.openSession({ sessionId: first.session.sessionId, resume: true });
    expect(third.history).toHaveLength(4);
    await third.close();
  });

  it('writes records larger than its 64 KiB encoding buffer, multi-byte text included, and the records after them', async () => {
    const big = `${'é€😀 '.repeat(30_000)}end`;
    const { session } = await start({
      script: [
        callTools([{ id: 'c1', name: 'echo', args: { text: big } }], 'tool_calls', big),
        say('small answer'),
      ],
    });
    const { result } = await collect(session.run('echo a lot', { streaming }));
    expect(result.status).toBe('completed');
    await session.close('exit');
    const { records, warnings } = await readTranscript(session.transcriptPath);
    expect(warnings).toEqual([]);
    const history = historyOf(records);
    expect(textOf(history[1] as Message)).toBe(big);
    expect(history[2]?.blocks[0]).toMatchObject({ result: { text: big } });
    expect(textOf(history.at(-1) as Message)).toBe('small answer');
    expect(records.at(-1)?.type).toBe('session-end');
  });

  it('refuses to resume a session that has no transcript, and to reuse an id without resume', async () => {
    const { agent, session } = await start({ script: [] });
    await expect(agent.openSession({ sessionId: 'nope', resume: true })).rejects.toThrow(
      /No transcript for session nope/,
    );
    await expect(agent.openSession({ sessionId: session.sessionId })).rejects.toThrow(/resume it/);
  });

  it('refuses a second concurrent run and queues with enqueue instead', async () => {
    const { session } = await start({ script: [{ ...say('slow'), delayMs: 20 }, say('next')] });
    const handle = session.run('a', { streaming });
    expect(() => session.run('b')).toThrow(/session.enqueue/);
    expect(session.enqueue('b')).toBe(true);
    const { result } = await collect(handle);
    expect(result.result).toBe('next');
    expect(session.enqueue('c')).toBe(false);
  });
});

describe('transcript writer', () => {
  it('writes a record JSON cannot encode as an unencodable record, and every record around it', async () => {
    // The loop keeps such values out of its records (a tool's result is checked where it
    // enters); the writer still never throws on one, from its end-of-turn flush least of all.
    const path = join(await testTempDir('transcript-writer'), 'session.jsonl');
    const writer = await TranscriptWriter.open(path);
    const time = '2026-12-01T00:00:00.000Z';
    writer.append({ type: 'turn-start', turn: 1, prompt: 'count', time });
    writer.append({
      type: 'message',
      turn: 1,
      message: {
        speaker: 'tool',
        blocks: [{ type: 'tool_response', callId: 'c1', toolName: 'count', result: { n: 10n } }],
      },
      time,
    });
    writer.append({ type: 'turn-end', turn: 1, status: 'completed', time });
    await writer.close();
    const lines = (await readFile(path, 'utf8')).trimEnd().split('\n');
    expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual([
      { type: 'turn-start', turn: 1, prompt: 'count', time },
      {
        type: 'unencodable',
        recordType: 'message',
        error: expect.stringMatching(/BigInt/) as unknown,
        time,
      },
      { type: 'turn-end', turn: 1, status: 'completed', time },
    ]);
    const { records, warnings } = await readTranscript(path);
    expect(warnings).toEqual([]);
    // Read back, it stands for nothing: the history has no message from it.
    expect(records.map((record) => record.type as string)).toEqual([
      'turn-start',
      'unencodable',
      'turn-end',
    ]);
    expect(historyOf(records)).toEqual([]);
  });
});

describe('transcript writer: deferred records (hook runs)', () => {
  const time = '2026-12-01T00:00:00.000Z';
  const hookRun = (hook: string) =>
    ({
      type: 'hook-run',
      turn: 1,
      modelCall: 1,
      run: {
        event: 'PreToolUse',
        hook,
        kind: 'command',
        dialect: 'hookwire',
        decision: 'allow',
        status: 'ok',
        startTime: 0,
        durationMs: 1,
        exitCode: 0,
        signal: null,
        timedOut: false,
        failedClosed: false,
      },
      time,
    }) as const;
  /** Each line's hook name for a hook run, else its type. */
  const typesIn = async (path: string): Promise<string[]> =>
    (await readFile(path, 'utf8').catch(() => ''))
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => {
        const record = JSON.parse(line) as { type: string; run?: { hook: string } };
        return record.run?.hook ?? record.type;
      });

  it('writes a deferred record with the next record, in order, not in a write of its own', async () => {
    const path = join(await testTempDir('transcript-deferred'), 'session.jsonl');
    const writer = await TranscriptWriter.open(path);
    writer.appendDeferred(hookRun('guard'));
    // The end of this event-loop turn writes nothing for it alone.
    await new Promise((resolve) => setImmediate(resolve));
    expect(await typesIn(path)).toEqual([]);
    writer.append({ type: 'turn-end', turn: 1, status: 'completed', time });
    await new Promise((resolve) => setImmediate(resolve));
    expect(await typesIn(path)).toEqual(['guard', 'turn-end']);
    await writer.close();
  });

  it('writes a deferred record at a commit (before a tool or hook runs) and at close', async () => {
    const path = join(await testTempDir('transcript-deferred'), 'session.jsonl');
    const writer = await TranscriptWriter.open(path);
    writer.appendDeferred(hookRun('first'));
    writer.commit();
    expect(await typesIn(path)).toEqual(['first']);
    writer.appendDeferred(hookRun('second'));
    await writer.close();
    expect(await typesIn(path)).toEqual(['first', 'second']);
  });

  it('writes a deferred record on its own after DEFERRED_WRITE_MS when no other write comes', async () => {
    const path = join(await testTempDir('transcript-deferred'), 'session.jsonl');
    const writer = await TranscriptWriter.open(path);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      writer.appendDeferred(hookRun('idle'));
      vi.advanceTimersByTime(DEFERRED_WRITE_MS - 1);
      expect(await typesIn(path)).toEqual([]);
      vi.advanceTimersByTime(1);
      expect(await typesIn(path)).toEqual(['idle']);
    } finally {
      vi.useRealTimers();
      await writer.close();
    }
  });
});

describe('scripted model', () => {
  it('reads a JSONL script and names file:line and the problem for a bad line', async () => {
    const directory = await testTempDir('script');
    const good = join(directory, 'good.jsonl');
    await writeFile(
      good,
      '{"blocks": [{"type": "text", "text": "Hi"}], "finishReason": "stop"}\n\n{"blocks": [], "finishReason": null}\n',
    );
    const model = await loadScriptedModel(good);
    expect((await model.generate({ model: 'scripted', contents: [] })).content.blocks).toEqual([
      { type: 'text', text: 'Hi' },
    ]);
    expect(
      (await model.generate({ model: 'scripted', contents: [] })).finishReason,
    ).toBeUndefined();
    await expect(model.generate({ model: 'scripted', contents: [] })).rejects.toThrow(
      `scripted model has no line for call 3 (${good} has 2 lines)`,
    );

    const bad = join(directory, 'bad.jsonl');
    await writeFile(
      bad,
      '{"blocks": [], "finishReason": "stop"}\n{"blocks": [{"type": "txt"}], "finishReason": "STOP"}\n',
    );
    await expect(loadScriptedModel(bad)).rejects.toThrow(
      new RegExp(`${bad.replaceAll('/', '\\/')}:2: blocks\\.0`),
    );
    await writeFile(bad, 'not json\n');
    await expect(loadScriptedModel(bad)).rejects.toThrow(`${bad}:1: not valid JSON`);
  });

  it('streams text in several deltas, tool arguments in fragments, then one finish', async () => {
    const model = createScriptedModel([
      callTools(
        [{ id: 'c1', name: 'echo', args: { text: 'hello world' } }],
        'tool_calls',
        'one two three four five',
      ),
    ]);
    const parts = [];
    for await (const part of model.stream({ model: 'scripted', contents: [] })) parts.push(part);
    const textDeltas = parts.filter((part) => part.type === 'text-delta');
    const toolDeltas = parts.filter((part) => part.type === 'tool-call-delta');
    expect(textDeltas.length).toBeGreaterThanOrEqual(3);
    expect(textDeltas.map((part) => part.text).join('')).toBe('one two three four five');
    expect(toolDeltas.length).toBeGreaterThan(1);
    expect(JSON.parse(toolDeltas.map((part) => part.argumentsDelta).join(''))).toEqual({
      text: 'hello world',
    });
    expect(parts.at(-1)?.type).toBe('finish');
    expect(parts.filter((part) => part.type === 'finish')).toHaveLength(1);
  });

  it('rejects a delayed answer with an aborted ModelError when the call is cancelled', async () => {
    const model = createScriptedModel([{ ...say('late'), delayMs: 60_000 }]);
    const controller = new AbortController();
    const pending = model.generate(
      { model: 'scripted', contents: [] },
      { signal: controller.signal },
    );
    controller.abort();
    const error: unknown = await pending.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).kind).toBe('aborted');
  });
});
