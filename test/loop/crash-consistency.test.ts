/**
 * Crash-consistent sessions (issue 11, findings 6 and 7): a tool call is on record before it runs
 * and its result the moment it is known; a resumed history answers every call (from the records,
 * or as interrupted); a cancelled step still answers its calls; and a session is locked while it
 * is open, a dead holder's lock being taken over.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Message } from '../../src/content/index.ts';
import {
  createAgent,
  historyOf,
  readTranscript,
  type RunEvent,
  type TranscriptRecord,
} from '../../src/loop/index.ts';
import { repairToolResults } from '../../src/loop/transcript.ts';
import type { Tool } from '../../src/loop/tool.ts';
import { ToolRegistry } from '../../src/loop/tool-registry.ts';
import { createScriptedModel } from '../../src/testing.ts';
import { historyPairingProblems } from '../support/tool-pairing.ts';
import {
  callTools,
  collect,
  deferred,
  echoTool,
  loggingHook,
  say,
  start,
  SURFACES,
} from './support.ts';
import { HookStack } from '../../src/hooks/stack/hook-stack.ts';

const directories: string[] = [];
afterEach(async () => {
  for (const directory of directories.splice(0))
    await rm(directory, { recursive: true, force: true });
});
async function scratch(): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'hookwire-crash-'));
  directories.push(directory);
  return directory;
}

/** The records on disk right now (what a process killed at this instant would leave). */
function recordsOnDisk(path: string): TranscriptRecord[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as TranscriptRecord);
}

/** The calls on record: in AI messages, and in their write-ahead (`pending-message`). */
function callIdsOf(records: readonly TranscriptRecord[]): string[] {
  return records.flatMap((record) =>
    record.type === 'message' || record.type === 'pending-message'
      ? record.message.blocks.flatMap((block) => (block.type === 'tool_call' ? [block.id] : []))
      : [],
  );
}

describe.each(SURFACES)('crash-consistent tool steps ($name)', ({ streaming }) => {
  it('has each call on disk before its tool runs, and each result on disk as soon as it is known', async () => {
    const cwd = await scratch();
    let transcriptPath = '';
    const seenAtStart: Record<string, string[]> = {};
    const slowMayFinish = deferred();
    let resultsWhileSlowRan: TranscriptRecord[] = [];
    const fast: Tool = {
      declaration: { name: 'fast', parameters: { type: 'object' } },
      execute: (_args, context) => {
        seenAtStart[context.toolCallId] = callIdsOf(recordsOnDisk(transcriptPath));
        return Promise.resolve('fast done');
      },
    };
    const slow: Tool = {
      declaration: { name: 'slow', parameters: { type: 'object' } },
      execute: async (_args, context) => {
        seenAtStart[context.toolCallId] = callIdsOf(recordsOnDisk(transcriptPath));
        // Let the fast call finish and be recorded, then look at the disk.
        await new Promise((resolve) => setTimeout(resolve, 30));
        resultsWhileSlowRan = recordsOnDisk(transcriptPath).filter(
          (record) => record.type === 'tool-result',
        );
        slowMayFinish.resolve();
        return 'slow done';
      },
    };
    const { session } = await start({
      cwd,
      script: [
        callTools([
          { id: 'call-fast', name: 'fast', args: {} },
          { id: 'call-slow', name: 'slow', args: {} },
        ]),
        say('done'),
      ],
      tools: [fast, slow],
    });
    transcriptPath = session.transcriptPath;
    const { result } = await collect(session.run('go', { streaming }));
    await slowMayFinish.promise;
    expect(result.status).toBe('completed');
    expect(seenAtStart).toEqual({
      'call-fast': ['call-fast', 'call-slow'],
      'call-slow': ['call-fast', 'call-slow'],
    });
    expect(resultsWhileSlowRan).toEqual([
      expect.objectContaining({
        type: 'tool-result',
        reviewed: true,
        response: expect.objectContaining({ callId: 'call-fast', result: 'fast done' }) as unknown,
      }),
    ]);
    await session.close('exit');
  });

  it('answers every call of a cancelled step in the history, so the session runs on with a valid history', async () => {
    const started = deferred();
    const hang: Tool = {
      declaration: { name: 'hang', parameters: { type: 'object' } },
      execute: (_args, context) =>
        new Promise((_resolve, reject) => {
          started.resolve();
          context.signal.addEventListener('abort', () => {
            reject(new Error('aborted'));
          });
        }),
    };
    const { session, model } = await start({
      script: [
        callTools([
          { id: 'c-echo', name: 'echo', args: { text: 'hi' } },
          { id: 'c-hang', name: 'hang', args: {} },
        ]),
        say('second run answer'),
      ],
      tools: [echoTool, hang],
    });
    const handle = session.run('go', { streaming });
    void started.promise.then(() => {
      handle.cancel('user pressed Ctrl-C');
    });
    const { result } = await collect(handle);
    expect(result.status).toBe('cancelled');
    expect(historyPairingProblems(session.history)).toEqual([]);
    const toolMessage = session.history.at(-1) as Message;
    expect(toolMessage.blocks).toEqual([
      { type: 'tool_response', callId: 'c-echo', toolName: 'echo', result: { text: 'hi' } },
      {
        type: 'tool_response',
        callId: 'c-hang',
        toolName: 'hang',
        result: null,
        error:
          'not completed: the run was cancelled (user pressed Ctrl-C); the tool may or may not have run',
      },
    ]);
    const again = await collect(session.run('next', { streaming }));
    expect(again.result.status).toBe('completed');
    expect(historyPairingProblems(model.requests[1]?.contents ?? [])).toEqual([]);
    await session.close('exit');
  });
});

/** The texts of the hook reports (warnings and messages) a run emitted. */
function reportTexts(events: readonly RunEvent[]): string[] {
  return events.flatMap((event) => (event.type === 'hook-report' ? [event.report.text] : []));
}

/** A transcript as a process killed in the middle of a two-call step leaves it. */
async function interruptedTranscript(
  cwd: string,
  sessionId: string,
  results: readonly TranscriptRecord[],
): Promise<string> {
  const path = join(cwd, '.hookwire', 'sessions', `${sessionId}.jsonl`);
  await mkdir(join(cwd, '.hookwire', 'sessions'), { recursive: true });
  const time = new Date().toISOString();
  const records: TranscriptRecord[] = [
    { type: 'session-start', version: 1, sessionId, cwd, source: 'startup', time },
    { type: 'turn-start', turn: 1, prompt: 'tidy up', time },
    {
      type: 'message',
      turn: 1,
      message: { speaker: 'human', blocks: [{ type: 'text', text: 'tidy up' }] },
      time,
    },
    {
      type: 'message',
      turn: 1,
      message: {
        speaker: 'ai',
        blocks: [
          { type: 'tool_call', id: 'c1', name: 'echo', parameters: { text: 'one' } },
          { type: 'tool_call', id: 'c2', name: 'echo', parameters: { text: 'two' } },
        ],
      },
      time,
    },
    ...results,
  ];
  await writeFile(path, records.map((record) => JSON.stringify(record)).join('\n') + '\n');
  return path;
}

describe('resuming a session interrupted in the middle of a tool step', () => {
  it('answers a call from its recorded result and a call without one as interrupted, records the answer, and sends a valid history', async () => {
    const cwd = await scratch();
    const time = new Date().toISOString();
    const path = await interruptedTranscript(cwd, 'crashed', [
      {
        type: 'tool-result',
        turn: 1,
        response: { type: 'tool_response', callId: 'c1', toolName: 'echo', result: 'one' },
        reviewed: true,
        time,
      },
    ]);
    const model = createScriptedModel([say('resumed fine')], { keepRequests: true });
    const agent = createAgent({ model, tools: new ToolRegistry([echoTool]), cwd });
    const session = await agent.openSession({ sessionId: 'crashed', resume: true });
    const { result, events } = await collect(session.run('go on'));
    expect(result.status).toBe('completed');
    const sent = model.requests[0]?.contents ?? [];
    expect(historyPairingProblems(sent)).toEqual([]);
    expect(sent.map((message) => message.speaker)).toEqual(['human', 'ai', 'tool', 'human']);
    expect(sent[2]?.blocks[0]).toEqual({
      type: 'tool_response',
      callId: 'c1',
      toolName: 'echo',
      result: 'one',
    });
    expect(sent[2]?.blocks[1]).toMatchObject({ callId: 'c2', result: null });
    expect((sent[2]?.blocks[1] as { error: string }).error).toMatch(
      /^The session was interrupted while this tool call was in progress: the tool may or may not have run/,
    );
    expect(
      reportTexts(events).some((text) => text.includes('interrupted in the middle of a tool step')),
    ).toBe(true);
    await session.close('exit');
    // The answer is in the transcript: read back plainly, the history is valid as it is.
    const { records } = await readTranscript(path);
    const messages = records.flatMap((record) =>
      record.type === 'message' ? [record.message] : [],
    );
    expect(historyPairingProblems(messages)).toEqual([]);
  });

  it('withholds a result its PostToolUse hooks never reviewed', async () => {
    const cwd = await scratch();
    const time = new Date().toISOString();
    await interruptedTranscript(cwd, 'unreviewed', [
      {
        type: 'tool-result',
        turn: 1,
        response: { type: 'tool_response', callId: 'c1', toolName: 'echo', result: 'secret' },
        reviewed: false,
        time,
      },
      {
        type: 'tool-result',
        turn: 1,
        response: { type: 'tool_response', callId: 'c2', toolName: 'echo', result: 'two' },
        reviewed: false,
        time,
      },
      {
        type: 'tool-result',
        turn: 1,
        response: {
          type: 'tool_response',
          callId: 'c2',
          toolName: 'echo',
          result: 'two, reviewed',
        },
        reviewed: true,
        additionalContext: 'checked by the policy hook',
        time,
      },
    ]);
    const agent = createAgent({ model: createScriptedModel([]), cwd });
    const session = await agent.openSession({ sessionId: 'unreviewed', resume: true });
    const tool = session.history.at(-1) as Message;
    expect(JSON.stringify(tool)).not.toContain('secret');
    expect(tool.blocks).toEqual([
      expect.objectContaining({
        callId: 'c1',
        result: null,
        error: expect.stringContaining(
          'before its result was reviewed by the PostToolUse hooks',
        ) as unknown,
      }),
      { type: 'tool_response', callId: 'c2', toolName: 'echo', result: 'two, reviewed' },
      { type: 'text', text: 'checked by the policy hook' },
    ]);
    await session.close('exit');
  });
});

describe('an answer written ahead of its tools (pending-message)', () => {
  const time = new Date().toISOString();
  const human: Message = { speaker: 'human', blocks: [{ type: 'text', text: 'tidy up' }] };
  const calls: Message = {
    speaker: 'ai',
    blocks: [
      { type: 'thinking', thought: 'two files', signature: 'sig-1' },
      { type: 'tool_call', id: 'c1', name: 'echo', parameters: { text: 'one' } },
    ],
  };
  const whole: Message = {
    speaker: 'ai',
    blocks: [
      { type: 'thinking', thought: 'two files', signature: 'sig-1' },
      { type: 'text', text: 'Removing the first file.' },
      { type: 'tool_call', id: 'c1', name: 'echo', parameters: { text: 'one' } },
    ],
  };
  const answer: Message = {
    speaker: 'tool',
    blocks: [{ type: 'tool_response', callId: 'c1', toolName: 'echo', result: 'one' }],
  };
  const message = (of: Message): TranscriptRecord => ({
    type: 'message',
    turn: 1,
    message: of,
    time,
  });
  const pending: TranscriptRecord = { type: 'pending-message', turn: 1, message: calls, time };

  it('reads as the whole answer once its message record follows, and as its calls alone until then', () => {
    expect(historyOf([message(human), pending, message(whole), message(answer)])).toEqual([
      human,
      whole,
      answer,
    ]);
    const cut = repairToolResults([message(human), pending]);
    expect(cut.history.slice(0, 2)).toEqual([human, calls]);
    expect(cut.restored).toEqual(new Set([1]));
    expect(cut.history[2]).toMatchObject({
      speaker: 'tool',
      blocks: [{ callId: 'c1', result: null }],
    });
    expect(historyPairingProblems(cut.history)).toEqual([]);
  });

  it('is not replaced by a later AI message with other calls', () => {
    const other: Message = {
      speaker: 'ai',
      blocks: [{ type: 'tool_call', id: 'c9', name: 'echo', parameters: { text: 'nine' } }],
    };
    const { history } = repairToolResults([message(human), pending, message(other)]);
    expect(history.slice(0, 2)).toEqual([human, calls]);
    expect(history.filter((entry) => entry === other)).toHaveLength(1);
  });

  it('resumes a session killed right after the write-ahead: the calls and their reasoning, answered as interrupted, with a warning that the text was lost', async () => {
    const cwd = await scratch();
    const path = join(cwd, '.hookwire', 'sessions', 'ahead.jsonl');
    await mkdir(join(cwd, '.hookwire', 'sessions'), { recursive: true });
    const records: TranscriptRecord[] = [
      { type: 'session-start', version: 3, sessionId: 'ahead', cwd, source: 'startup', time },
      { type: 'turn-start', turn: 1, prompt: 'tidy up', time },
      message(human),
      pending,
    ];
    await writeFile(path, records.map((record) => JSON.stringify(record)).join('\n') + '\n');
    const model = createScriptedModel([say('resumed fine')], { keepRequests: true });
    const agent = createAgent({ model, tools: new ToolRegistry([echoTool]), cwd });
    const session = await agent.openSession({ sessionId: 'ahead', resume: true });
    const { result, events } = await collect(session.run('go on'));
    expect(result.status).toBe('completed');
    const sent = model.requests[0]?.contents ?? [];
    expect(historyPairingProblems(sent)).toEqual([]);
    expect(sent.slice(0, 2)).toEqual([human, calls]);
    expect(sent[2]?.blocks[0]).toMatchObject({ callId: 'c1', result: null });
    expect(
      reportTexts(events).some((text) =>
        text.includes('the text of the answer that made the calls was lost'),
      ),
    ).toBe(true);
    await session.close('exit');
    // Resume recorded the answer and its calls: read back plainly, the messages are valid.
    const { records: after } = await readTranscript(path);
    const messages = after.flatMap((record) => (record.type === 'message' ? [record.message] : []));
    expect(historyPairingProblems(messages)).toEqual([]);
    expect(historyOf(after).slice(0, 3)).toEqual(sent.slice(0, 3));
  });
});

describe('session locks', () => {
  it('refuses a second open of a session while it is open, naming the holder, and opens it once closed', async () => {
    const cwd = await scratch();
    const agent = createAgent({ model: createScriptedModel([say('a'), say('b')]), cwd });
    const first = await agent.openSession({ sessionId: 'busy' });
    await collect(first.run('one'));
    const failure = await agent
      .openSession({ sessionId: 'busy', resume: true })
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ name: 'LoopError', code: 'session_locked' });
    expect((failure as Error).message).toContain(
      `Session busy is in use by another hookwire process (pid ${process.pid} on host ${hostname()}, since `,
    );
    await first.close('exit');
    const second = await agent.openSession({ sessionId: 'busy', resume: true });
    expect(second.history).toHaveLength(2);
    await second.close('exit');
  });

  it('lets exactly one of two racing opens win', async () => {
    const cwd = await scratch();
    const agent = createAgent({ model: createScriptedModel([]), cwd });
    const outcomes = await Promise.allSettled([
      agent.openSession({ sessionId: 'race' }),
      agent.openSession({ sessionId: 'race' }),
    ]);
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    const rejected = outcomes.find((outcome) => outcome.status === 'rejected');
    expect(String((rejected as PromiseRejectedResult).reason)).toMatch(
      /in use|already has a transcript/,
    );
    for (const outcome of outcomes) if (outcome.status === 'fulfilled') await outcome.value.close();
  });

  it('takes over the lock of a process that died, and of a pid reused by another process', async () => {
    const cwd = await scratch();
    const agent = createAgent({ model: createScriptedModel([say('first')]), cwd });
    const session = await agent.openSession({ sessionId: 'stale' });
    await collect(session.run('one'));
    await session.close('exit');
    const lockPath = `${session.transcriptPath}.lock`;

    // A process that has exited: its pid is free.
    const dead = spawn(process.execPath, ['-e', '']);
    const deadPid = await new Promise<number>((resolve) =>
      dead.on('exit', () => {
        resolve(dead.pid ?? 0);
      }),
    );
    const stale = {
      pid: deadPid,
      host: hostname(),
      startedAt: '2026-01-01T00:00:00.000Z',
      sessionId: 'stale',
    };
    await writeFile(lockPath, JSON.stringify(stale));
    const resumed = await agent.openSession({ sessionId: 'stale', resume: true });
    const taken = JSON.parse(await readFile(lockPath, 'utf8')) as { pid: number };
    expect(taken.pid).toBe(process.pid);
    await resumed.close();
    await expect(readFile(lockPath, 'utf8')).rejects.toThrow(/ENOENT/);

    // A live pid that started at another time than the lock says: the pid was reused.
    if (process.platform === 'linux') {
      await writeFile(lockPath, JSON.stringify({ ...stale, pid: process.ppid, processStart: '1' }));
      const again = await agent.openSession({ sessionId: 'stale', resume: true });
      await again.close();
    }
  });

  it('never takes over a lock held on another host, and says which file to delete', async () => {
    const cwd = await scratch();
    const agent = createAgent({ model: createScriptedModel([]), cwd });
    const session = await agent.openSession({ sessionId: 'remote' });
    await session.close();
    const lockPath = `${session.transcriptPath}.lock`;
    await writeFile(
      lockPath,
      JSON.stringify({
        pid: 1,
        host: 'build-server-7',
        startedAt: '2026-12-01T06:00:00.000Z',
        sessionId: 'remote',
      }),
    );
    await expect(agent.openSession({ sessionId: 'remote', resume: true })).rejects.toThrow(
      `Session remote is in use by another hookwire process (pid 1 on host build-server-7, since 2026-12-01T06:00:00.000Z; lock ${lockPath}): it runs on another host, whose liveness cannot be checked from here; once it is gone, delete ${lockPath}.`,
    );
  });

  it('releases the lock when opening fails after taking it', async () => {
    const cwd = await scratch();
    const hooks = new HookStack([
      loggingHook([], {
        onSessionStart: () => {
          throw new Error('the SessionStart hook crashed');
        },
      }),
    ]);
    const agent = createAgent({ model: createScriptedModel([]), cwd, hooks });
    await expect(agent.openSession({ sessionId: 'broken' })).rejects.toThrow(/crashed/);
    const plain = createAgent({ model: createScriptedModel([]), cwd });
    const session = await plain.openSession({ sessionId: 'broken', resume: true });
    await session.close();
  });
});
