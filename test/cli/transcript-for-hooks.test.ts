/**
 * Hook processes that read `transcript_path`, as Claude Code users' Stop hooks do (ralph-loop's
 * completion promise, read-aloud hooks, memory plugins), through `hookwire run`: the transcript
 * holds the current answer when the hook starts, never one message behind.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  callTool,
  createSandbox,
  readLog,
  runScripted,
  say,
  writeHookScript,
  writeJson,
} from './support.ts';

/** Logs its event and the last message record of the transcript it is given. */
const TRANSCRIPT_READER = `
import { appendFileSync, readFileSync } from 'node:fs';
const payload = JSON.parse(readFileSync(0, 'utf8'));
const messages = readFileSync(payload.transcript_path, 'utf8').split('\\n').filter(Boolean)
  .map((line) => JSON.parse(line)).filter((record) => record.type === 'message');
const last = messages.at(-1)?.message;
appendFileSync(process.argv[2], JSON.stringify({ event: payload.hook_event_name, last }) + '\\n');
`;

describe('hooks reading the transcript (hookwire run)', () => {
  it.each(['on', 'off'])(
    'finds the answer at PreToolUse and the final answer at Stop (streaming %s)',
    async (streaming) => {
      const sandbox = await createSandbox();
      const log = join(sandbox.root, 'seen.jsonl');
      const reader = await writeHookScript(sandbox.root, 'reader.mjs', TRANSCRIPT_READER, [log]);
      const settings = await writeJson(join(sandbox.root, 'settings.json'), {
        hooks: {
          PreToolUse: [{ hooks: [{ type: 'command', command: reader }] }],
          Stop: [{ hooks: [{ type: 'command', command: reader }] }],
        },
      });
      const answer = {
        blocks: [
          { type: 'text', text: 'Listing first.' },
          ...(callTool('c1', 'shell', { command: 'true' }) as { blocks: unknown[] }).blocks,
        ],
        finishReason: 'tool_calls',
      };
      const run = await runScripted(sandbox, [answer, say('<promise>DONE</promise>')], {
        extra: ['--settings', settings, '--streaming', streaming],
      });
      expect(run.code, run.stderr).toBe(0);
      expect(await readLog(log)).toEqual([
        {
          event: 'PreToolUse',
          last: {
            speaker: 'ai',
            blocks: [
              { type: 'text', text: 'Listing first.' },
              { type: 'tool_call', id: 'c1', name: 'shell', parameters: { command: 'true' } },
            ],
          },
        },
        {
          event: 'Stop',
          last: { speaker: 'ai', blocks: [{ type: 'text', text: '<promise>DONE</promise>' }] },
        },
      ]);
    },
  );
});
