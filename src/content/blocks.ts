/**
 * Provider-neutral content: what hooks see and what the loop keeps in a transcript.
 * Provider shapes never appear here; each provider adapter maps its own wire to these blocks.
 */

/** Opaque per-block data a provider needs to round-trip a block exactly (ids, signatures, …). */
export type ProviderMetadata = Readonly<Record<string, unknown>>;

/** Plain text. */
export interface TextBlock {
  readonly type: 'text';
  readonly text: string;
  readonly metadata?: ProviderMetadata;
}

/** A tool call the model asked for. `parameters` is the decoded JSON arguments object. */
export interface ToolCallBlock {
  readonly type: 'tool_call';
  readonly id: string;
  readonly name: string;
  readonly parameters: unknown;
  readonly metadata?: ProviderMetadata;
}

/** The answer to a tool call, sent back to the model. `error` is set when the tool failed. */
export interface ToolResponseBlock {
  readonly type: 'tool_response';
  readonly callId: string;
  readonly toolName: string;
  readonly result: unknown;
  readonly error?: string;
  readonly metadata?: ProviderMetadata;
}

/**
 * Model reasoning. `signature` (Anthropic, Gemini thought signatures) and `encryptedContent`
 * (OpenAI reasoning items, Anthropic redacted thinking) must survive a round trip unchanged.
 */
export interface ThinkingBlock {
  readonly type: 'thinking';
  readonly thought: string;
  readonly signature?: string;
  readonly encryptedContent?: string;
  /** True for reasoning the provider hid (Anthropic `redacted_thinking`); `thought` is empty. */
  readonly redacted?: boolean;
  readonly metadata?: ProviderMetadata;
}

/** Images, audio, documents: inline base64 data or a URL. */
export interface MediaBlock {
  readonly type: 'media';
  readonly mimeType: string;
  readonly data: string;
  readonly encoding: 'base64' | 'url';
  readonly metadata?: ProviderMetadata;
}

export type ContentBlock =
  TextBlock | ToolCallBlock | ToolResponseBlock | ThinkingBlock | MediaBlock;

export type BlockType = ContentBlock['type'];

export const SPEAKERS = ['human', 'ai', 'tool'] as const;
/** Who produced a message: the user (`human`), the model (`ai`) or tool results (`tool`). */
export type Speaker = (typeof SPEAKERS)[number];

/** One message of a conversation: a speaker and its blocks, in order. */
export interface Message {
  readonly speaker: Speaker;
  readonly blocks: readonly ContentBlock[];
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/** A tool the model may call: a name, a description and a JSON Schema for its parameters. */
export interface ToolDeclaration {
  readonly name: string;
  readonly description?: string;
  /** JSON Schema (draft 2020-12 subset providers accept) of the arguments object. */
  readonly parameters: Readonly<Record<string, unknown>>;
}

/** Token usage of one model call. Every field is optional: providers report different subsets. */
export interface Usage {
  readonly promptTokens?: number;
  readonly completionTokens?: number;
  readonly totalTokens?: number;
  /** Prompt tokens served from the provider's cache. */
  readonly cachedTokens?: number;
  /** Completion tokens spent on reasoning. */
  readonly reasoningTokens?: number;
}

/** Convenience constructors that keep call sites short and shapes exact. */
export const text = (value: string): TextBlock => ({ type: 'text', text: value });

export const message = (speaker: Speaker, blocks: readonly ContentBlock[]): Message => ({
  speaker,
  blocks,
});

/** The concatenated text blocks of a message, in order. */
export function textOf(content: Message | readonly ContentBlock[]): string {
  const blocks = 'blocks' in content ? content.blocks : content;
  let result = '';
  for (const block of blocks) if (block.type === 'text') result += block.text;
  return result;
}

/** The tool-call blocks of a message, in order. */
export function toolCallsOf(content: Message | readonly ContentBlock[]): ToolCallBlock[] {
  const blocks = 'blocks' in content ? content.blocks : content;
  return blocks.filter((block): block is ToolCallBlock => block.type === 'tool_call');
}
