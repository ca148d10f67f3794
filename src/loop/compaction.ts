/**
 * Compaction, the pure half: how big a history is, where it may be cut, what the model is asked
 * to summarize, and the history that results. The loop's half (when to compact, PreCompact and
 * PostCompact, the transcript record) is in `compact-step.ts`.
 *
 * Token counts. Where a provider reported usage, the prompt tokens of the last call stand for the
 * history it was sent, and only the messages appended since are estimated; otherwise everything
 * is estimated. The estimate is `ceil(characters / 4)` of each block's text (a tool call's name
 * and JSON arguments, a tool result's JSON, a thought's text), 1,000 tokens per media block
 * (images are billed by size, not by their base64 text), plus 4 tokens per message and per tool
 * declaration for the framing. Four characters a token is the usual figure for English prose and
 * code with the providers' tokenizers; it overestimates dense non-Latin text less often than it
 * underestimates it, so the budget should leave headroom (the default keeps 30 % of it for the
 * recent turns and compacts before the budget is reached, not after).
 *
 * Cut points. The history is cut just before a model (`ai`) message: everything before it is
 * summarized, it and everything after it is kept verbatim. A model message's tool calls are
 * always answered by the next message, which is kept too, and the tool message before it answers
 * calls that are summarized with it, so a tool call and its result are never split. The compacted
 * history is one user message carrying the summary, then the kept messages: it starts with the
 * user and alternates as every provider requires.
 */
import type {
  ContentBlock,
  GenerationSettings,
  Message,
  ModelRequest,
  ToolDeclaration,
} from '../content/index.ts';

/** Characters per token of the estimate (see the module comment). */
export const CHARS_PER_TOKEN = 4;
/** Tokens counted for one media block. */
export const MEDIA_BLOCK_TOKENS = 1000;
/** Tokens counted for each message's (and tool declaration's) framing. */
export const MESSAGE_OVERHEAD_TOKENS = 4;
/** The share of the context budget the recent turns kept verbatim may take. */
export const DEFAULT_KEEP_RATIO = 0.3;
/** The most characters of one block the summarization request quotes. */
export const SUMMARY_BLOCK_CHARS = 4000;

/** Text a compacted history's first message starts with, before the summary. */
export const SUMMARY_PREAMBLE =
  'This conversation was compacted. Summary of the earlier part (the messages that follow it are verbatim):';

/** The estimated tokens of a text. */
export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

function jsonLength(value: unknown): number {
  if (typeof value === 'string') return value.length;
  try {
    return (JSON.stringify(value) as string | undefined)?.length ?? 0;
  } catch {
    return 0;
  }
}

function blockChars(block: ContentBlock): number {
  switch (block.type) {
    case 'text':
      return block.text.length;
    case 'thinking':
      return block.thought.length + (block.encryptedContent?.length ?? 0);
    case 'tool_call':
      return block.name.length + jsonLength(block.parameters);
    case 'tool_response':
      return block.toolName.length + jsonLength(block.result) + (block.error?.length ?? 0);
    case 'media':
      return 0;
  }
}

/** The estimated tokens of one message (see the module comment). */
export function estimateMessageTokens(message: Message): number {
  let chars = 0;
  let media = 0;
  for (const block of message.blocks) {
    if (block.type === 'media') media++;
    else chars += blockChars(block);
  }
  return MESSAGE_OVERHEAD_TOKENS + Math.ceil(chars / CHARS_PER_TOKEN) + media * MEDIA_BLOCK_TOKENS;
}

/** The estimated tokens of messages. */
export function estimateMessagesTokens(messages: readonly Message[]): number {
  let total = 0;
  for (const message of messages) total += estimateMessageTokens(message);
  return total;
}

/** The estimated tokens of what a request sends besides its messages: system text and tools. */
export function estimateFramingTokens(
  tools: readonly ToolDeclaration[] | undefined,
  settings: GenerationSettings | undefined,
): number {
  let total = estimateTextTokens(settings?.systemInstruction ?? '');
  for (const tool of tools ?? [])
    total +=
      MESSAGE_OVERHEAD_TOKENS +
      estimateTextTokens(tool.name + (tool.description ?? '') + JSON.stringify(tool.parameters));
  return total;
}

/**
 * What the last model call's usage says about the history: it was sent the first `messages`
 * messages and its provider counted `promptTokens` for them (framing included).
 */
export interface ContextUsage {
  readonly messages: number;
  readonly promptTokens: number;
}

/**
 * The tokens the next request would take: the last usage for the messages it covered (when it
 * covers a prefix of `history`) plus the estimate of the rest; without usage, the estimate of
 * everything, framing included.
 */
export function contextTokens(
  history: readonly Message[],
  framingTokens: number,
  usage: ContextUsage | undefined,
): number {
  if (usage !== undefined && usage.messages > 0 && usage.messages <= history.length)
    return usage.promptTokens + estimateMessagesTokens(history.slice(usage.messages));
  return framingTokens + estimateMessagesTokens(history);
}

/** Where a history is cut: `history.slice(0, index)` is summarized, the rest kept verbatim. */
export interface CompactionPlan {
  readonly index: number;
  readonly summarized: readonly Message[];
  readonly kept: readonly Message[];
}

/**
 * The cut point of `history` (see the module comment): the earliest model message from which the
 * kept messages fit in `keepTokens`; when even the last model message's tail does not fit, that
 * last one (the fewest messages that can be kept). `undefined` when there is nothing to
 * summarize: no model message after the first message.
 */
export function planCompaction(
  history: readonly Message[],
  keepTokens: number,
): CompactionPlan | undefined {
  let tail = 0;
  let best: number | undefined;
  let latest: number | undefined;
  for (let index = history.length - 1; index >= 1; index--) {
    tail += estimateMessageTokens(history[index] as Message);
    if (history[index]?.speaker !== 'ai') continue;
    latest ??= index;
    if (tail <= keepTokens) best = index;
    else break;
  }
  const index = best ?? latest;
  if (index === undefined) return undefined;
  return { index, summarized: history.slice(0, index), kept: history.slice(index) };
}

/** The first message of a compacted history: the summary, as the user's. */
export function summaryMessage(summary: string): Message {
  return {
    speaker: 'human',
    blocks: [{ type: 'text', text: `${SUMMARY_PREAMBLE}\n\n${summary}` }],
    metadata: { hookwireCompaction: true },
  };
}

/** The history after compaction: the summary message, then the kept messages. */
export function compactedHistory(summary: string, kept: readonly Message[]): Message[] {
  return [summaryMessage(summary), ...kept];
}

/** The system instruction of the summarization request. */
export const SUMMARIZER_INSTRUCTION =
  "You summarize the earlier part of a conversation between a user and an AI agent that uses tools, so the agent can continue the work from the summary alone. Keep: the user's requests and constraints, decisions made, files and commands involved with what was learned from them, errors met and how they were resolved, and what remains to be done. Be concise and factual; write no preamble.";

function quote(text: string): string {
  return text.length <= SUMMARY_BLOCK_CHARS
    ? text
    : `${text.slice(0, SUMMARY_BLOCK_CHARS)} […${text.length - SUMMARY_BLOCK_CHARS} more characters]`;
}

function json(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value);
  } catch {
    return '[a value that is not JSON]';
  }
}

/** The conversation as plain text for the summarizer: one line group per block. */
export function renderForSummary(messages: readonly Message[]): string {
  const lines: string[] = [];
  for (const message of messages) {
    const who =
      message.speaker === 'human' ? 'User' : message.speaker === 'ai' ? 'Assistant' : 'Tool';
    for (const block of message.blocks) {
      switch (block.type) {
        case 'text':
          lines.push(`${who}: ${quote(block.text)}`);
          break;
        case 'thinking':
          break; // reasoning is the model's own scratch work; its conclusions are in the text
        case 'tool_call':
          lines.push(`Assistant called ${block.name}(${quote(json(block.parameters))})`);
          break;
        case 'tool_response':
          lines.push(
            block.error === undefined
              ? `Result of ${block.toolName}: ${quote(json(block.result))}`
              : `${block.toolName} failed: ${quote(block.error)}`,
          );
          break;
        case 'media':
          lines.push(`${who}: [${block.mimeType} attachment]`);
          break;
      }
    }
  }
  return lines.join('\n');
}

/**
 * The request that asks the model for the summary: the conversation to summarize as text (so
 * the request has no tool calls to pair), then the compaction instructions hooks added
 * (PreCompact) or the user gave, under their own heading. No tools are offered.
 */
export function summarizationRequest(
  model: string,
  summarized: readonly Message[],
  instructions: string | undefined,
  maxOutputTokens?: number,
): ModelRequest {
  const parts = [
    'Summarize this conversation so far:',
    '<conversation>',
    renderForSummary(summarized),
    '</conversation>',
  ];
  if (instructions !== undefined && instructions.trim() !== '')
    parts.push('', 'Additional instructions for this summary:', instructions);
  return {
    model,
    contents: [{ speaker: 'human', blocks: [{ type: 'text', text: parts.join('\n') }] }],
    settings: {
      systemInstruction: SUMMARIZER_INSTRUCTION,
      toolChoice: { mode: 'none' },
      ...(maxOutputTokens === undefined ? {} : { maxOutputTokens }),
    },
  };
}

/**
 * Checks that every tool call of `history` is answered by the next message and every tool
 * response answers a call of the message before it: the pairing every provider requires.
 * Returns the problems found (empty when valid).
 */
export function toolPairingProblems(history: readonly Message[]): string[] {
  const problems: string[] = [];
  if (history[0] !== undefined && history[0].speaker !== 'human')
    problems.push(`the history starts with a ${history[0].speaker} message`);
  for (let index = 0; index < history.length; index++) {
    const message = history[index] as Message;
    const previous = history[index - 1];
    const calls = new Set(
      (previous?.speaker === 'ai' ? previous.blocks : []).flatMap((block) =>
        block.type === 'tool_call' ? [block.id] : [],
      ),
    );
    for (const block of message.blocks)
      if (block.type === 'tool_response' && !calls.has(block.callId))
        problems.push(`message ${index}: tool result ${block.callId} answers no call before it`);
    if (message.speaker !== 'ai') continue;
    const next = history[index + 1];
    const answered = new Set(
      (next?.blocks ?? []).flatMap((block) =>
        block.type === 'tool_response' ? [block.callId] : [],
      ),
    );
    for (const block of message.blocks)
      if (block.type === 'tool_call' && !answered.has(block.id) && next !== undefined)
        problems.push(
          `message ${index}: tool call ${block.id} is not answered by the next message`,
        );
  }
  return problems;
}

/** The fewest characters of a tool result that compaction keeps when it cuts one. */
export const CUT_RESULT_MIN_CHARS = 200;

/** What `cutToolResults` did. */
export interface CutToolResults {
  readonly messages: Message[];
  /** How many tool results were cut. */
  readonly cut: number;
  /** The estimated tokens the cuts saved. */
  readonly savedTokens: number;
}

/**
 * Cuts the tool results of `messages`, oldest first, until about `excessTokens` are saved or
 * every result is down to `CUT_RESULT_MIN_CHARS`: a cut result becomes its text's start and a
 * note saying how long it was and why it was cut. What compaction does when the messages it
 * keeps verbatim are themselves over the budget (one huge tool result): the summary cannot make
 * room for them. The messages are copied; the pairing of calls and results is unchanged.
 */
export function cutToolResults(
  messages: readonly Message[],
  excessTokens: number,
  budgetTokens: number,
): CutToolResults {
  let remaining = excessTokens * CHARS_PER_TOKEN;
  let cut = 0;
  let savedChars = 0;
  const out = messages.map((message): Message => {
    if (remaining <= 0 || !message.blocks.some((block) => block.type === 'tool_response'))
      return message;
    const blocks = message.blocks.map((block): ContentBlock => {
      if (remaining <= 0 || block.type !== 'tool_response') return block;
      const text = json(block.result);
      if (text.length <= CUT_RESULT_MIN_CHARS) return block;
      const note = `\n[hookwire cut this tool result from ${text.length} characters when it compacted the history, to fit the context budget of ${budgetTokens} tokens]`;
      const keep = Math.max(CUT_RESULT_MIN_CHARS, text.length - remaining - note.length);
      if (keep + note.length >= text.length) return block;
      const saved = text.length - keep - note.length;
      remaining -= saved;
      savedChars += saved;
      cut++;
      return { ...block, result: `${text.slice(0, keep)}${note}` };
    });
    return { ...message, blocks };
  });
  return { messages: out, cut, savedTokens: Math.floor(savedChars / CHARS_PER_TOKEN) };
}
