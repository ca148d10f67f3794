import { describe, expect, it } from 'vitest';
import {
  message,
  text,
  textOf,
  toolCallsOf,
  type ContentBlock,
  type ToolCallBlock,
} from './blocks.ts';

const call = (id: string): ToolCallBlock => ({
  type: 'tool_call',
  id,
  name: 'read_file',
  parameters: { path: `${id}.txt` },
});

const blocks: ContentBlock[] = [
  { type: 'thinking', thought: 'I should read', signature: 'sig' },
  text('Reading '),
  call('a'),
  text('two files.'),
  { type: 'tool_response', callId: 'x', toolName: 'read_file', result: 'not text' },
  call('b'),
  { type: 'media', mimeType: 'image/png', data: 'iVBOR', encoding: 'base64' },
];

describe('textOf', () => {
  it('concatenates the text blocks in order, ignoring thinking, tool and media blocks', () => {
    expect(textOf(blocks)).toBe('Reading two files.');
    expect(textOf(message('ai', blocks))).toBe('Reading two files.');
  });

  it('is empty for a message without text', () => {
    expect(textOf(message('ai', [call('a')]))).toBe('');
    expect(textOf([])).toBe('');
  });
});

describe('toolCallsOf', () => {
  it('returns the tool-call blocks in order, by reference', () => {
    const calls = toolCallsOf(message('ai', blocks));
    expect(calls.map((block) => block.id)).toEqual(['a', 'b']);
    expect(calls[0]).toBe(blocks[2]);
    expect(calls[1]).toBe(blocks[5]);
  });

  it('is empty when there are none', () => {
    expect(toolCallsOf([text('hi')])).toEqual([]);
  });
});

describe('constructors', () => {
  it('text and message build exact shapes', () => {
    expect(text('hi')).toEqual({ type: 'text', text: 'hi' });
    const content = [text('hi')];
    const built = message('human', content);
    expect(built).toEqual({ speaker: 'human', blocks: [{ type: 'text', text: 'hi' }] });
    expect(built.blocks).toBe(content);
  });
});
