/**
 * The AI SDK's app-level messages (`ModelMessage`: what `generateText` takes and returns in
 * `response.messages`) as neutral messages, for the transcript and the turn's hooks. Their parts
 * are the prompt parts of `ai-sdk-prompt.ts` but for a string `content` and a few part kinds the
 * app-level format adds (images); those are normalised first.
 */
import type { LanguageModelV4Message } from '@ai-sdk/provider';
import type { ModelMessage } from 'ai';
import { textOf, type Message } from '../../content/index.ts';
import { fromAiSdkPrompt } from './ai-sdk-prompt.ts';

/** App-level messages (system messages left out) as neutral messages. */
export function fromModelMessages(messages: readonly ModelMessage[]): Message[] {
  const prompt: LanguageModelV4Message[] = [];
  for (const entry of messages) {
    if (entry.role === 'system') continue;
    const content =
      typeof entry.content === 'string' ? [{ type: 'text', text: entry.content }] : entry.content;
    prompt.push({ ...entry, content } as LanguageModelV4Message);
  }
  return fromAiSdkPrompt(prompt);
}

/** The text of the last user message (what UserPromptSubmit and Stop call the prompt). */
export function lastUserText(messages: readonly ModelMessage[]): string {
  for (let index = messages.length - 1; index >= 0; index--) {
    const entry = messages[index];
    if (entry?.role !== 'user') continue;
    if (typeof entry.content === 'string') return entry.content;
    const [message] = fromModelMessages([entry]);
    return message === undefined ? '' : textOf(message);
  }
  return '';
}

/**
 * The messages with text added around the last user message's content (`before`: session
 * context, `after`: prompt context), as the loop adds them to the prompt message.
 */
export function withPromptContext(
  messages: readonly ModelMessage[],
  before: string | undefined,
  after: string | undefined,
  prompt?: string,
): ModelMessage[] {
  const copy = [...messages];
  const hasBefore = before !== undefined && before !== '';
  const hasAfter = after !== undefined && after !== '';
  if (!hasBefore && !hasAfter && prompt === undefined) return copy;
  for (let index = copy.length - 1; index >= 0; index--) {
    const entry = copy[index];
    if (entry?.role !== 'user') continue;
    const given =
      typeof entry.content === 'string'
        ? [{ type: 'text' as const, text: entry.content }]
        : entry.content;
    // A hook's rewrite of the prompt replaces its text; other parts (images, files) stay.
    const parts =
      prompt === undefined
        ? given
        : [
            { type: 'text' as const, text: prompt },
            ...given.filter((part) => part.type !== 'text'),
          ];
    copy[index] = {
      ...entry,
      content: [
        ...(hasBefore ? [{ type: 'text' as const, text: before }] : []),
        ...parts,
        ...(hasAfter ? [{ type: 'text' as const, text: after }] : []),
      ],
    };
    return copy;
  }
  return copy;
}
