import { describe, expect, it } from 'vitest';
import type { Message } from '../content/index.ts';
import {
  compactedHistory,
  contextTokens,
  estimateMessageTokens,
  estimateTextTokens,
  MEDIA_BLOCK_TOKENS,
  MESSAGE_OVERHEAD_TOKENS,
  planCompaction,
  summarizationRequest,
  SUMMARY_PREAMBLE,
  toolPairingProblems,
} from './compaction.ts';

const human = (text: string): Message => ({ speaker: 'human', blocks: [{ type: 'text', text }] });
const ai = (text: string): Message => ({ speaker: 'ai', blocks: [{ type: 'text', text }] });
const call = (id: string, path: string): Message => ({
  speaker: 'ai',
  blocks: [{ type: 'tool_call', id, name: 'read_file', parameters: { path } }],
});
const result = (id: string, text: string): Message => ({
  speaker: 'tool',
  blocks: [{ type: 'tool_response', callId: id, toolName: 'read_file', result: text }],
});

/** Three turns, the middle one with two tool steps. */
function longHistory(): Message[] {
  return [
    human('first task'),
    ai('done with the first'),
    human('second task'),
    call('c1', 'a.txt'),
    result('c1', 'x'.repeat(400)),
    call('c2', 'b.txt'),
    result('c2', 'y'.repeat(400)),
    ai('done with the second'),
    human('third task'),
    call('c3', 'c.txt'),
    result('c3', 'z'.repeat(40)),
  ];
}

describe('token estimate', () => {
  it('counts four characters a token, a fixed cost per media block and per message', () => {
    expect(estimateTextTokens('abcdefgh')).toBe(2);
    expect(estimateTextTokens('abcdefghi')).toBe(3);
    expect(estimateMessageTokens(human('abcdefgh'))).toBe(2 + MESSAGE_OVERHEAD_TOKENS);
    expect(
      estimateMessageTokens({
        speaker: 'human',
        blocks: [
          { type: 'media', mimeType: 'image/png', data: 'A'.repeat(90_000), encoding: 'base64' },
        ],
      }),
    ).toBe(MEDIA_BLOCK_TOKENS + MESSAGE_OVERHEAD_TOKENS);
  });

  it('takes the provider usage for the messages it covered and estimates only the rest', () => {
    const history = longHistory();
    const estimated = contextTokens(history, 10, undefined);
    expect(estimated).toBeGreaterThan(200);
    const withUsage = contextTokens(history, 10, { messages: 9, promptTokens: 5000 });
    expect(withUsage).toBe(
      5000 +
        estimateMessageTokens(history[9] as Message) +
        estimateMessageTokens(history[10] as Message),
    );
    // Usage for a longer history than this one (it was compacted since) is not used.
    expect(
      contextTokens(history.slice(0, 3), 10, { messages: 9, promptTokens: 5000 }),
    ).toBeLessThan(100);
  });
});

describe('planCompaction', () => {
  it('cuts before a model message, keeping as many recent messages as fit', () => {
    const history = longHistory();
    const plan = planCompaction(history, 60);
    expect(plan?.index).toBe(7);
    expect(plan?.kept[0]).toEqual(ai('done with the second'));
    expect(plan?.summarized).toHaveLength(7);
  });

  it('never separates a tool call from its result, whatever the keep budget', () => {
    const history = longHistory();
    for (let keep = 0; keep <= 600; keep += 7) {
      const plan = planCompaction(history, keep);
      expect(plan).toBeDefined();
      const compacted = compactedHistory('summary', plan?.kept ?? []);
      expect(toolPairingProblems(compacted)).toEqual([]);
      expect(compacted[0]?.speaker).toBe('human');
      expect(compacted[1]?.speaker).toBe('ai');
    }
  });

  it('keeps the last model message and what follows when nothing smaller fits', () => {
    const plan = planCompaction(longHistory(), 0);
    expect(plan?.index).toBe(9);
    expect(plan?.kept).toHaveLength(2);
  });

  it('has nothing to summarize in a history without a model message after the first', () => {
    expect(planCompaction([human('only a prompt')], 0)).toBeUndefined();
    expect(planCompaction([], 100)).toBeUndefined();
  });
});

describe('summarizationRequest', () => {
  it('quotes the conversation as text, with the instructions after it and no tools', () => {
    const history = longHistory();
    const request = summarizationRequest('m', history.slice(0, 7), 'Keep the file names.');
    expect(request.tools).toBeUndefined();
    expect(request.settings?.toolChoice).toEqual({ mode: 'none' });
    expect(request.contents).toHaveLength(1);
    const text = (request.contents[0]?.blocks[0] as { text: string }).text;
    expect(text).toContain('User: first task');
    expect(text).toContain('Assistant called read_file({"path":"a.txt"})');
    expect(text).toContain('Result of read_file: xxxx');
    expect(text.indexOf('Keep the file names.')).toBeGreaterThan(text.indexOf('</conversation>'));
    expect(toolPairingProblems(request.contents)).toEqual([]);
  });

  it('shortens a huge block', () => {
    const request = summarizationRequest('m', [human('q'.repeat(50_000))], undefined);
    const text = (request.contents[0]?.blocks[0] as { text: string }).text;
    expect(text.length).toBeLessThan(5000);
    expect(text).toContain('more characters]');
  });
});

describe('compactedHistory and toolPairingProblems', () => {
  it('starts with the summary as the user', () => {
    const compacted = compactedHistory('they read a.txt', [ai('ok')]);
    expect((compacted[0]?.blocks[0] as { text: string }).text).toBe(
      `${SUMMARY_PREAMBLE}\n\nthey read a.txt`,
    );
  });

  it('finds an orphaned result and an unanswered call', () => {
    expect(toolPairingProblems([human('x'), result('c1', 'r')])).toEqual([
      'message 1: tool result c1 answers no call before it',
    ]);
    expect(toolPairingProblems([human('x'), call('c1', 'a'), human('y')])).toEqual([
      'message 1: tool call c1 is not answered by the next message',
    ]);
  });
});
