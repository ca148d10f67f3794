/**
 * A hook that reads `transcript_path` finds every record up to its event. Claude Code's Stop hooks
 * famously read a transcript one message behind (anthropics/claude-code#15813, #40655, #74340):
 * the hook starts before the answer is flushed. hookwire commits the transcript before it calls
 * any hook, so what a hook reads is the conversation as the hook's event sees it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/content/index.ts';
import type { TranscriptRecord } from '../../src/loop/index.ts';
import { callTools, collect, loggingHook, say, start, SURFACES } from './support.ts';

/** The messages a hook would read from the transcript on disk right now (its `message` records). */
function historyOnDisk(path: string): Message[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as TranscriptRecord)
    .flatMap((record) => (record.type === 'message' ? [record.message] : []));
}

describe.each(SURFACES)('the transcript a hook reads ($name)', ({ streaming }) => {
  it('holds the answer at PreToolUse, the tool message at the next BeforeModel, and the final answer at Stop', async () => {
    let path = '';
    const seen: Record<string, Message | undefined> = {};
    const { session } = await start({
      script: [
        callTools([{ id: 'c1', name: 'echo', args: { text: 'hi' } }], 'tool_calls', 'Let me echo.'),
        say('All done: the echo said hi.'),
      ],
      hooks: [
        loggingHook([], {
          onToolCall: () => {
            seen['PreToolUse'] = historyOnDisk(path).at(-1);
            return { kind: 'run' };
          },
          onCompletionCall: (_context, event) => {
            if (event.modelCall === 2) seen['BeforeModel 2'] = historyOnDisk(path).at(-1);
            return { kind: 'continue' };
          },
          onStop: () => {
            seen['Stop'] = historyOnDisk(path).at(-1);
            return { kind: 'continue' };
          },
        }),
      ],
    });
    path = session.transcriptPath;
    const { result } = await collect(session.run('echo hi', { streaming }));
    expect(result.status).toBe('completed');
    // The whole answer (its text too), not only its write-ahead.
    expect(seen['PreToolUse']).toEqual({
      speaker: 'ai',
      blocks: [
        { type: 'text', text: 'Let me echo.' },
        { type: 'tool_call', id: 'c1', name: 'echo', parameters: { text: 'hi' } },
      ],
    });
    expect(seen['BeforeModel 2']).toEqual({
      speaker: 'tool',
      blocks: [{ type: 'tool_response', callId: 'c1', toolName: 'echo', result: { text: 'hi' } }],
    });
    expect(seen['Stop']).toEqual({
      speaker: 'ai',
      blocks: [{ type: 'text', text: 'All done: the echo said hi.' }],
    });
    await session.close('exit');
  });
});
