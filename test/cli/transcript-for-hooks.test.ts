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

/**
 * A ralph-loop-style Stop hook in Claude Code's dialect: blocks until the answer it is given in
 * `last_assistant_message` holds the completion promise, and logs what it saw.
 */
const PROMISE_LOOP = `
import { appendFileSync, readFileSync } from 'node:fs';
const input = JSON.parse(readFileSync(0, 'utf8'));
appendFileSync(process.argv[2], JSON.stringify(input.last_assistant_message) + '\\n');
if (!String(input.last_assistant_message).includes('<promise>DONE</promise>'))
  console.log(JSON.stringify({ decision: 'block', reason: 'not done yet: keep going' }));
`;

describe('hooks reading the transcript (hookwire run)', () => {
  it("a Claude Code Stop hook gets the turn's answer as last_assistant_message and loops until it is done", async () => {
    const sandbox = await createSandbox();
    const log = join(sandbox.root, 'answers.jsonl');
    const hook = await writeHookScript(sandbox.root, 'promise-loop.mjs', PROMISE_LOOP, [log]);
    await writeJson(join(sandbox.project, '.claude', 'settings.json'), {
      hooks: { Stop: [{ hooks: [{ type: 'command', command: hook }] }] },
    });
    const run = await runScripted(sandbox, [
      say('Half way there.'),
      say('All tests pass. <promise>DONE</promise>'),
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(await readLog(log)).toEqual([
      'Half way there.',
      'All tests pass. <promise>DONE</promise>',
    ]);
    expect(JSON.stringify(run.requests.at(-1))).toContain('not done yet: keep going');
  });

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
