/**
 * A compacted history is valid for every provider: converted by each adapter's real request
 * builder, it starts with the user, alternates where the provider requires it, and answers every
 * tool call right after it — at every cut point `planCompaction` can choose.
 */
import { describe, expect, it } from 'vitest';
import type { Message, ModelRequest } from '../../src/content/index.ts';
import { toAnthropicRequest } from '../../src/adapters/providers/anthropic/to-anthropic-request.ts';
import { toGeminiRequest } from '../../src/adapters/providers/google/to-gemini-request.ts';
import { buildChatRequest } from '../../src/adapters/providers/openai/chat-request.ts';
import { buildResponsesRequest } from '../../src/adapters/providers/openai/responses-request.ts';
import { compactedHistory, planCompaction } from '../../src/loop/compaction.ts';

const human = (text: string): Message => ({ speaker: 'human', blocks: [{ type: 'text', text }] });
const ai = (text: string): Message => ({ speaker: 'ai', blocks: [{ type: 'text', text }] });
const calls = (...ids: string[]): Message => ({
  speaker: 'ai',
  blocks: [
    { type: 'text', text: 'reading' },
    ...ids.map((id) => ({
      type: 'tool_call' as const,
      id,
      name: 'read_file',
      parameters: { path: `${id}.txt` },
    })),
  ],
});
const results = (...ids: string[]): Message => ({
  speaker: 'tool',
  blocks: ids.map((id) => ({
    type: 'tool_response' as const,
    callId: id,
    toolName: 'read_file',
    result: `${id}:${'r'.repeat(300)}`,
  })),
});

const history: Message[] = [
  human('first'),
  calls('a', 'b'),
  results('a', 'b'),
  ai('read two'),
  human('second'),
  calls('c'),
  results('c'),
  calls('d', 'e'),
  results('d', 'e'),
  ai('read three'),
  human('third'),
  calls('f'),
  results('f'),
];

const request = (contents: readonly Message[]): ModelRequest => ({
  model: 'm',
  contents,
  tools: [{ name: 'read_file', parameters: { type: 'object' } }],
  settings: { systemInstruction: 'sys' },
});

interface Turn {
  readonly role: string;
  readonly calls: readonly string[];
  readonly answers: readonly string[];
}

/** The pairing rule every provider shares, over each provider's own turns. */
function checkTurns(turns: readonly Turn[], alternates: boolean): void {
  expect(turns[0]?.role).toBe('user');
  for (let index = 0; index < turns.length; index++) {
    const turn = turns[index] as Turn;
    if (alternates && index > 0) expect(turn.role).not.toBe(turns[index - 1]?.role);
    if (turn.calls.length > 0) expect(turns[index + 1]?.answers).toEqual(turn.calls);
    if (turn.answers.length > 0) expect(turns[index - 1]?.calls).toEqual(turn.answers);
  }
}

function anthropicTurns(contents: readonly Message[]): Turn[] {
  return toAnthropicRequest(request(contents), 'm').messages.map((message) => {
    const blocks = typeof message.content === 'string' ? [] : message.content;
    return {
      role: message.role,
      calls: blocks.flatMap((block) => (block.type === 'tool_use' ? [block.id] : [])),
      answers: blocks.flatMap((block) => (block.type === 'tool_result' ? [block.tool_use_id] : [])),
    };
  });
}

function geminiTurns(contents: readonly Message[]): Turn[] {
  return toGeminiRequest(request(contents), 'm').contents.map((content) => ({
    role: content.role === 'model' ? 'model' : 'user',
    calls: (content.parts ?? []).flatMap((part) =>
      part.functionCall === undefined
        ? []
        : [String(part.functionCall.id ?? part.functionCall.name)],
    ),
    answers: (content.parts ?? []).flatMap((part) =>
      part.functionResponse === undefined
        ? []
        : [String(part.functionResponse.id ?? part.functionResponse.name)],
    ),
  }));
}

function chatTurns(contents: readonly Message[]): Turn[] {
  // Tool messages answer one call each: group consecutive ones into one answering turn.
  const turns: { role: string; calls: string[]; answers: string[] }[] = [];
  for (const message of buildChatRequest(request(contents), { compatible: false }).messages) {
    if (message.role === 'system') continue;
    if (message.role === 'tool') {
      const last = turns[turns.length - 1];
      if (last?.role === 'tool') last.answers.push(message.tool_call_id);
      else turns.push({ role: 'tool', calls: [], answers: [message.tool_call_id] });
      continue;
    }
    turns.push({
      role: message.role,
      calls: message.role === 'assistant' ? (message.tool_calls ?? []).map((call) => call.id) : [],
      answers: [],
    });
  }
  return turns;
}

function responsesOrder(contents: readonly Message[]): string[] {
  const input = buildResponsesRequest(request(contents), {
    store: false,
    includeEncryptedReasoning: false,
  } as never).input;
  return (Array.isArray(input) ? input : []).flatMap((item) => {
    const typed = item as { type?: string; call_id?: string; role?: string };
    if (typed.type === 'function_call') return [`call:${String(typed.call_id)}`];
    if (typed.type === 'function_call_output') return [`output:${String(typed.call_id)}`];
    return typed.role === undefined ? [] : [typed.role];
  });
}

describe('a compacted history, through every provider adapter', () => {
  const cuts = new Set<number>();
  for (let keep = 0; keep <= 1000; keep += 10) {
    const plan = planCompaction(history, keep);
    if (plan !== undefined) cuts.add(plan.index);
  }

  it('is cut at several points across the session', () => {
    expect(cuts.size).toBeGreaterThanOrEqual(4);
  });

  for (const index of [...cuts].sort((a, b) => a - b)) {
    const compacted = compactedHistory('summary of the earlier turns', history.slice(index));

    it(`pairs every tool call after a cut at message ${index}`, () => {
      checkTurns(anthropicTurns(compacted), true);
      checkTurns(geminiTurns(compacted), true);
      const chat = chatTurns(compacted);
      expect(chat[0]?.role).toBe('user');
      for (let turn = 0; turn < chat.length; turn++) {
        const calls = chat[turn]?.calls ?? [];
        if (calls.length > 0) expect(chat[turn + 1]?.answers).toEqual(calls);
        if (chat[turn]?.role === 'tool') expect(chat[turn - 1]?.calls).toEqual(chat[turn]?.answers);
      }
      const order = responsesOrder(compacted);
      expect(order[0]).toBe('user');
      const seen = new Set<string>();
      for (const entry of order) {
        if (entry.startsWith('call:')) seen.add(entry.slice(5));
        if (entry.startsWith('output:')) expect(seen.has(entry.slice(7))).toBe(true);
      }
      for (const id of seen) expect(order).toContain(`output:${id}`);
    });
  }
});
