/**
 * The AI SDK's prompt (`LanguageModelV4Prompt`, what a language model receives) as hookwire's
 * neutral messages, and back — the `contents` of the v2 `llm_request` hooks see.
 *
 * - `system` messages become the request's `settings.systemInstruction` (joined by a blank
 *   line), not messages: that is where the wire keeps the system prompt.
 * - `user` → `human`, `assistant` → `ai`, `tool` → `tool`.
 * - text → `text`; reasoning → `thinking`; tool calls → `tool_call` (the input object as
 *   `parameters`); tool results → `tool_response` (text/json outputs as `result`, error and
 *   denied outputs as `error`); files → `media` (base64 data or a URL).
 * - What the neutral model has no block for (custom parts, reasoning files, tool-approval
 *   responses, provider file references) rides in the message's `metadata.aiSdk.parts` with its
 *   position, and is put back in place; per-part `providerOptions` and the details a block
 *   cannot hold (file names, byte vs base64 data, the tool-result output type) ride in the
 *   block's `metadata.aiSdk`. So a prompt that goes through a hook unchanged comes back equal.
 */
import type {
  LanguageModelV4FilePart,
  LanguageModelV4Message,
  LanguageModelV4Prompt,
  LanguageModelV4ToolResultOutput,
  LanguageModelV4ToolResultPart,
  SharedV4ProviderOptions,
} from '@ai-sdk/provider';
import type {
  ContentBlock,
  MediaBlock,
  Message,
  Speaker,
  ToolResponseBlock,
} from '../../content/index.ts';

/** The key under which the AI SDK's own details ride in a block's or a message's `metadata`. */
export const AI_SDK_METADATA = 'aiSdk';

type UserPart = Extract<LanguageModelV4Message, { role: 'user' }>['content'][number];
type AssistantPart = Extract<LanguageModelV4Message, { role: 'assistant' }>['content'][number];
type ToolPart = Extract<LanguageModelV4Message, { role: 'tool' }>['content'][number];
type AnyPart = UserPart | AssistantPart | ToolPart;

/** What a block's `metadata.aiSdk` may hold. */
interface BlockDetails {
  readonly providerOptions?: SharedV4ProviderOptions;
  /** A file's name. */
  readonly filename?: string;
  /** How a file's data was given: bytes (`Uint8Array`) or text; absent: a base64 string or URL. */
  readonly data?: 'bytes' | 'text';
  /** The tool-result output type, when the block alone cannot tell it. */
  readonly output?: 'error-json' | 'execution-denied' | 'content';
  /** A provider-executed tool call. */
  readonly providerExecuted?: boolean;
}

/** What a message's `metadata.aiSdk` may hold. */
interface MessageDetails {
  readonly providerOptions?: SharedV4ProviderOptions;
  /** Parts with no neutral block, with their index in the original content. */
  readonly parts?: readonly { readonly index: number; readonly part: AnyPart }[];
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The `metadata.aiSdk` record of a block or message (its shape is this module's own). */
function detailsOf(
  metadata: Readonly<Record<string, unknown>> | undefined,
): Readonly<Record<string, unknown>> | undefined {
  const details = metadata?.[AI_SDK_METADATA];
  return isRecord(details) ? details : undefined;
}

function withDetails<B extends ContentBlock>(block: B, details: BlockDetails): B {
  const present = Object.entries(details).filter(([, value]) => value !== undefined);
  return present.length === 0
    ? block
    : { ...block, metadata: { [AI_SDK_METADATA]: Object.fromEntries(present) } };
}

/** `providerOptions` of a part, only when present. */
function options(providerOptions: SharedV4ProviderOptions | undefined): {
  providerOptions?: SharedV4ProviderOptions;
} {
  return providerOptions === undefined ? {} : { providerOptions };
}

// ---------------------------------------------------------------------------------------------
// AI SDK → neutral

/** The system instruction of a prompt: its system messages joined by a blank line. */
export function systemInstructionOf(prompt: LanguageModelV4Prompt): string | undefined {
  let instruction: string | undefined;
  for (const entry of prompt)
    if (entry.role === 'system')
      instruction =
        instruction === undefined ? entry.content : `${instruction}\n\n${entry.content}`;
  return instruction;
}

/** The prompt's non-system messages as neutral messages. */
export function fromAiSdkPrompt(prompt: LanguageModelV4Prompt): Message[] {
  const messages: Message[] = [];
  for (const entry of prompt) {
    if (entry.role === 'system') continue;
    messages.push(fromAiSdkMessage(entry));
  }
  return messages;
}

const SPEAKER_OF = { user: 'human', assistant: 'ai', tool: 'tool' } as const;

function fromAiSdkMessage(entry: Exclude<LanguageModelV4Message, { role: 'system' }>): Message {
  const blocks: ContentBlock[] = [];
  const kept: { index: number; part: AnyPart }[] = [];
  (entry.content as readonly AnyPart[]).forEach((part, index) => {
    const block = fromAiSdkPart(part);
    if (block === undefined) kept.push({ index, part });
    else blocks.push(block);
  });
  const details: MessageDetails = {
    ...options(entry.providerOptions),
    ...(kept.length === 0 ? {} : { parts: kept }),
  };
  const speaker: Speaker = SPEAKER_OF[entry.role];
  return Object.keys(details).length === 0
    ? { speaker, blocks }
    : { speaker, blocks, metadata: { [AI_SDK_METADATA]: details } };
}

function fromAiSdkPart(part: AnyPart): ContentBlock | undefined {
  switch (part.type) {
    case 'text':
      return withDetails({ type: 'text', text: part.text }, options(part.providerOptions));
    case 'reasoning':
      return withDetails({ type: 'thinking', thought: part.text }, options(part.providerOptions));
    case 'tool-call':
      return withDetails(
        { type: 'tool_call', id: part.toolCallId, name: part.toolName, parameters: part.input },
        {
          ...options(part.providerOptions),
          ...(part.providerExecuted === undefined
            ? {}
            : { providerExecuted: part.providerExecuted }),
        },
      );
    case 'tool-result':
      return fromToolResultPart(part);
    case 'file':
      return fromFilePart(part);
    case 'custom':
    case 'reasoning-file':
    case 'tool-approval-response':
      return undefined;
  }
}

function fromToolResultPart(part: LanguageModelV4ToolResultPart): ContentBlock | undefined {
  const base = { type: 'tool_response' as const, callId: part.toolCallId, toolName: part.toolName };
  const { output } = part;
  // Options on the output itself are the rarer case; the block keeps the part's.
  const extra = options(part.providerOptions);
  switch (output.type) {
    case 'text':
    case 'json':
      return withDetails({ ...base, result: output.value }, extra);
    case 'error-text':
      return withDetails({ ...base, result: null, error: output.value }, extra);
    case 'error-json':
      return withDetails(
        { ...base, result: output.value, error: JSON.stringify(output.value) },
        { ...extra, output: 'error-json' },
      );
    case 'execution-denied':
      return withDetails(
        { ...base, result: null, error: output.reason ?? 'the tool call was denied' },
        { ...extra, output: 'execution-denied' },
      );
    case 'content':
      return withDetails({ ...base, result: output.value }, { ...extra, output: 'content' });
  }
}

function fromFilePart(part: LanguageModelV4FilePart): MediaBlock | undefined {
  const extra: BlockDetails = {
    ...options(part.providerOptions),
    ...(part.filename === undefined ? {} : { filename: part.filename }),
  };
  const { data } = part;
  switch (data.type) {
    case 'data':
      return typeof data.data === 'string'
        ? withDetails(
            { type: 'media', mimeType: part.mediaType, data: data.data, encoding: 'base64' },
            extra,
          )
        : withDetails(
            {
              type: 'media',
              mimeType: part.mediaType,
              data: Buffer.from(data.data).toString('base64'),
              encoding: 'base64',
            },
            { ...extra, data: 'bytes' },
          );
    case 'url':
      return withDetails(
        { type: 'media', mimeType: part.mediaType, data: data.url.href, encoding: 'url' },
        extra,
      );
    case 'text':
      return withDetails(
        {
          type: 'media',
          mimeType: part.mediaType,
          data: Buffer.from(data.text, 'utf8').toString('base64'),
          encoding: 'base64',
        },
        { ...extra, data: 'text' },
      );
    case 'reference':
      return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// neutral → AI SDK

/**
 * Neutral messages (and a system instruction) as an AI SDK prompt: the inverse of
 * `systemInstructionOf` + `fromAiSdkPrompt`. A `thinking` block in a human message, or a tool
 * call outside an AI message, has no AI SDK part: it is sent as text so nothing a hook wrote
 * is lost silently.
 */
export function toAiSdkPrompt(
  messages: readonly Message[],
  systemInstruction: string | undefined,
): LanguageModelV4Prompt {
  const prompt: LanguageModelV4Prompt = [];
  if (systemInstruction !== undefined && systemInstruction !== '')
    prompt.push({ role: 'system', content: systemInstruction });
  for (const entry of messages) prompt.push(toAiSdkMessage(entry));
  return prompt;
}

function toAiSdkMessage(entry: Message): Exclude<LanguageModelV4Message, { role: 'system' }> {
  const details = detailsOf(entry.metadata) as MessageDetails | undefined;
  const providerOptions = options(details?.providerOptions);
  const restore = <P>(parts: P[]): P[] => {
    for (const { index, part } of details?.parts ?? [])
      parts.splice(Math.min(index, parts.length), 0, part as P);
    return parts;
  };
  switch (entry.speaker) {
    case 'human':
      return {
        role: 'user',
        content: restore(entry.blocks.map(toUserPart)),
        ...providerOptions,
      };
    case 'ai':
      return {
        role: 'assistant',
        content: restore(entry.blocks.map(toAssistantPart)),
        ...providerOptions,
      };
    case 'tool': {
      // Text beside tool results (hook context) has no place in a tool message: it is sent as a
      // user message after it would be more faithful, but the prompt must keep one message per
      // neutral message, so the text is folded into the preceding result.
      return {
        role: 'tool',
        content: restore(toToolParts(entry.blocks)),
        ...providerOptions,
      };
    }
  }
}

function blockOptions(block: ContentBlock): { providerOptions?: SharedV4ProviderOptions } {
  return options((detailsOf(block.metadata) as BlockDetails | undefined)?.providerOptions);
}

function asText(block: ContentBlock): { type: 'text'; text: string } {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'thinking':
      return { type: 'text', text: block.thought };
    case 'tool_call':
      return {
        type: 'text',
        text: `[tool call ${block.name} ${JSON.stringify(block.parameters)}]`,
      };
    case 'tool_response':
      return { type: 'text', text: toolResultText(block) };
    case 'media':
      return { type: 'text', text: `[${block.mimeType}]` };
  }
}

function toolResultText(block: ToolResponseBlock): string {
  if (block.error !== undefined) return `Error: ${block.error}`;
  if (typeof block.result === 'string') return block.result;
  // JSON.stringify returns undefined for functions and symbols, whatever its type says.
  const json = JSON.stringify(block.result) as string | undefined;
  return json ?? '';
}

function toFilePart(block: MediaBlock): LanguageModelV4FilePart {
  const details = detailsOf(block.metadata) as BlockDetails | undefined;
  const data: LanguageModelV4FilePart['data'] =
    block.encoding === 'url'
      ? { type: 'url', url: new URL(block.data) }
      : details?.data === 'bytes'
        ? { type: 'data', data: new Uint8Array(Buffer.from(block.data, 'base64')) }
        : details?.data === 'text'
          ? { type: 'text', text: Buffer.from(block.data, 'base64').toString('utf8') }
          : { type: 'data', data: block.data };
  return {
    type: 'file',
    mediaType: block.mimeType,
    data,
    ...(details?.filename === undefined ? {} : { filename: details.filename }),
    ...options(details?.providerOptions),
  };
}

function toUserPart(block: ContentBlock): UserPart {
  if (block.type === 'media') return toFilePart(block);
  return { ...asText(block), ...blockOptions(block) };
}

function toAssistantPart(block: ContentBlock): AssistantPart {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text, ...blockOptions(block) };
    case 'thinking':
      return { type: 'reasoning', text: block.thought, ...blockOptions(block) };
    case 'tool_call': {
      const details = detailsOf(block.metadata) as BlockDetails | undefined;
      return {
        type: 'tool-call',
        toolCallId: block.id,
        toolName: block.name,
        input: block.parameters,
        ...(details?.providerExecuted === undefined
          ? {}
          : { providerExecuted: details.providerExecuted }),
        ...options(details?.providerOptions),
      };
    }
    case 'tool_response':
      return toToolResultPart(block);
    case 'media':
      return toFilePart(block);
  }
}

function toToolParts(blocks: readonly ContentBlock[]): ToolPart[] {
  const parts: ToolPart[] = [];
  let extra: string[] = [];
  for (const block of blocks) {
    if (block.type === 'tool_response') parts.push(toToolResultPart(block));
    else extra.push(asText(block).text);
    if (extra.length > 0 && parts.length > 0) {
      parts[parts.length - 1] = withExtraText(parts[parts.length - 1] as ToolPart, extra);
      extra = [];
    }
  }
  return parts;
}

/** A tool result with text appended to what the model sees (hook context beside a result). */
function withExtraText(part: ToolPart, extra: readonly string[]): ToolPart {
  if (part.type !== 'tool-result') return part;
  return { ...part, output: appendText(part.output, extra.join('\n')) };
}

/** The output with `text` appended, keeping its kind (error stays error). */
export function appendText(
  output: LanguageModelV4ToolResultOutput,
  text: string,
): LanguageModelV4ToolResultOutput {
  switch (output.type) {
    case 'text':
    case 'error-text':
      return { ...output, value: `${output.value}\n${text}` };
    case 'json':
      return {
        type: 'content',
        value: [
          { type: 'text', text: JSON.stringify(output.value) },
          { type: 'text', text },
        ],
      };
    case 'error-json':
      return { type: 'error-text', value: `${JSON.stringify(output.value)}\n${text}` };
    case 'execution-denied':
      return {
        type: 'execution-denied',
        reason: output.reason === undefined ? text : `${output.reason}\n${text}`,
      };
    case 'content':
      return { ...output, value: [...output.value, { type: 'text', text }] };
  }
}

/** A neutral tool response as an AI SDK tool-result part (the inverse of the mapping above). */
export function toToolResultPart(block: ToolResponseBlock): LanguageModelV4ToolResultPart {
  const details = detailsOf(block.metadata) as BlockDetails | undefined;
  return {
    type: 'tool-result',
    toolCallId: block.callId,
    toolName: block.toolName,
    output: toToolResultOutput(block, details?.output),
    ...options(details?.providerOptions),
  };
}

/** What the model sees for a neutral tool response (error → error output, string → text, …). */
export function toToolResultOutput(
  block: Pick<ToolResponseBlock, 'result' | 'error'>,
  kind?: BlockDetails['output'],
): LanguageModelV4ToolResultOutput {
  if (block.error !== undefined) {
    if (kind === 'execution-denied') return { type: 'execution-denied', reason: block.error };
    if (kind === 'error-json') return { type: 'error-json', value: jsonValue(block.result) };
    return { type: 'error-text', value: block.error };
  }
  if (kind === 'content' && Array.isArray(block.result))
    return {
      type: 'content',
      value: block.result as Extract<LanguageModelV4ToolResultOutput, { type: 'content' }>['value'],
    };
  if (typeof block.result === 'string') return { type: 'text', value: block.result };
  return { type: 'json', value: jsonValue(block.result) };
}

type JsonValue = Extract<LanguageModelV4ToolResultOutput, { type: 'json' }>['value'];

/** A value as JSON (what `JSON.stringify` keeps; `undefined` → `null`). */
export function jsonValue(value: unknown): JsonValue {
  if (value === undefined) return null;
  const serialized = JSON.stringify(value) as string | undefined;
  return serialized === undefined ? null : (JSON.parse(serialized) as JsonValue);
}
