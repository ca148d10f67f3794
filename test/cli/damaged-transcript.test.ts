/**
 * Resuming a damaged transcript (issue 27): a garbage line in place of the message that made a
 * call, a `message` record without its message, a `tool-result` record without its response.
 * `hookwire run --resume` works, says on stderr what it skipped (file and line) and what it turned
 * into text, and the request it sends (`--record-requests`) holds no tool result without its call,
 * which OpenAI and Anthropic reject with a 400.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/content/index.ts';
import { historyPairingProblems } from '../support/tool-pairing.ts';
import { callTool, createSandbox, runScripted, say, type Sandbox } from './support.ts';

/** Runs one shell step then an answer, and returns the session's id and transcript lines. */
async function recordedSession(
  sandbox: Sandbox,
): Promise<{ sessionId: string; path: string; lines: string[] }> {
  const first = await runScripted(
    sandbox,
    [callTool('c1', 'shell', { command: 'echo one' }), say('first done')],
    { extra: ['--output-format', 'json'] },
  );
  expect(first.code, first.stderr).toBe(0);
  const { sessionId } = JSON.parse(first.stdout) as { sessionId: string };
  const path = join(sandbox.project, '.hookwire', 'sessions', `${sessionId}.jsonl`);
  const lines = (await readFile(path, 'utf8')).trimEnd().split('\n');
  return { sessionId, path, lines };
}

/** The index of the first line whose record matches `test`. */
function lineOf(
  lines: readonly string[],
  test: (record: Record<string, unknown>) => boolean,
): number {
  const index = lines.findIndex((line) => test(JSON.parse(line) as Record<string, unknown>));
  expect(index).toBeGreaterThanOrEqual(0);
  return index;
}

const madeTheCall = (record: Record<string, unknown>): boolean =>
  record['type'] === 'message' &&
  (record['message'] as Message).blocks.some((block) => block.type === 'tool_call');

async function resume(sandbox: Sandbox, sessionId: string) {
  const resumed = await runScripted(sandbox, [say('resumed')], {
    prompt: 'again',
    extra: ['--resume', sessionId],
  });
  expect(resumed.code, resumed.stderr).toBe(0);
  expect(resumed.stdout).toBe('resumed\n');
  expect(resumed.stderr).not.toMatch(/TypeError|\n\s+at /);
  expect(resumed.requests).toHaveLength(1);
  const contents = (resumed.requests[0] as { contents: Message[] }).contents;
  expect(historyPairingProblems(contents)).toEqual([]);
  return { ...resumed, contents };
}

describe('hookwire run --resume of a damaged transcript', () => {
  it('turns a tool result whose call line is garbage into text, with a warning naming the line and the call', async () => {
    const sandbox = await createSandbox();
    const { sessionId, path, lines } = await recordedSession(sandbox);
    const index = lineOf(lines, madeTheCall);
    lines[index] = '{"type":"message","turn":1,"mess';
    await writeFile(path, `${lines.join('\n')}\n`);
    const resumed = await resume(sandbox, sessionId);
    expect(resumed.stderr).toContain(
      `warning: ${path}:${index + 1}: skipped a line that is not JSON`,
    );
    expect(resumed.stderr).toContain(
      'warning: the transcript was damaged: 1 tool result(s) without their call (call c1 of shell) were turned into text in the resumed history',
    );
    // The result is still shown to the model, as text in the user's message.
    const texts = resumed.contents.flatMap((message) =>
      message.blocks.flatMap((block) => (block.type === 'text' ? [block.text] : [])),
    );
    expect(
      texts.some((text) => text.includes('the tool call c1 (shell)') && text.includes('one')),
    ).toBe(true);
    expect(
      resumed.contents.some((message) =>
        message.blocks.some((block) => block.type === 'tool_response'),
      ),
    ).toBe(false);
  });

  it('skips a message record without its message, with a warning naming the line', async () => {
    const sandbox = await createSandbox();
    const { sessionId, path, lines } = await recordedSession(sandbox);
    const index = lineOf(lines, madeTheCall);
    lines[index] = JSON.stringify({ type: 'message', message: null });
    await writeFile(path, `${lines.join('\n')}\n`);
    const resumed = await resume(sandbox, sessionId);
    expect(resumed.stderr).toContain(
      `warning: ${path}:${index + 1}: skipped a message record of the wrong shape (`,
    );
    expect(resumed.stderr).toMatch(
      /wrong shape \(.*message: Invalid input: expected object, received null/,
    );
    expect(resumed.stderr).toContain('1 tool result(s) without their call (call c1 of shell)');
  });

  it('skips a tool-result record without its response, with a warning naming the line', async () => {
    const sandbox = await createSandbox();
    const { sessionId, path, lines } = await recordedSession(sandbox);
    // The step's tool message is lost (a crash), and its tool-result record is damaged.
    const toolMessage = lineOf(
      lines,
      (record) => record['type'] === 'message' && (record['message'] as Message).speaker === 'tool',
    );
    lines[toolMessage] = JSON.stringify({
      type: 'tool-result',
      turn: 1,
      response: null,
      reviewed: true,
      time: '2026-12-02T00:00:00.000Z',
    });
    await writeFile(path, `${lines.slice(0, toolMessage + 1).join('\n')}\n`);
    const resumed = await resume(sandbox, sessionId);
    expect(resumed.stderr).toContain(
      `warning: ${path}:${toolMessage + 1}: skipped a tool-result record of the wrong shape (response: `,
    );
    // The call is answered "interrupted", as when no result was recorded.
    const response = resumed.contents
      .flatMap((message) => message.blocks)
      .find((block) => block.type === 'tool_response');
    expect(response?.type === 'tool_response' && response.callId).toBe('c1');
    expect(response?.type === 'tool_response' && response.error).toMatch(/interrupted/);
  });
});
