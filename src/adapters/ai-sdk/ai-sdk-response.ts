/**
 * The AI SDK's model output (`LanguageModelV4GenerateResult` content, finish reason and usage)
 * as hookwire's neutral `ModelResponse` — the `llm_response` of `AfterModel` and of a
 * `BeforeModel` synthetic answer — and back.
 *
 * - text → `text`; reasoning → `thinking`; a tool call's JSON input string → `tool_call` with
 *   the decoded object as `parameters` (a string that is not JSON stays a string); a
 *   provider-executed tool result → `tool_response`; a generated file → `media`.
 * - Sources, custom parts, reasoning files and tool-approval requests have no neutral block:
 *   they ride in `content.metadata.aiSdk.parts` with their position and are put back in place
 *   (a hook that replaces the content replaces them too).
 * - Finish reasons: `stop` ↔ `stop`, `length` ↔ `max_tokens`, `tool-calls` ↔ `tool_calls`,
 *   `content-filter` ↔ `safety`, `error` ↔ `error`, `interrupted`/`other` → `other`; the
 *   provider's raw reason is `rawStopReason`.
 */
import type {
  LanguageModelV4Content,
  LanguageModelV4FinishReason,
  LanguageModelV4GenerateResult,
  LanguageModelV4Usage,
  SharedV4ProviderMetadata,
} from '@ai-sdk/provider';
import type {
  ContentBlock,
  FinishReason,
  Message,
  ModelResponse,
  Usage,
} from '../../content/index.ts';
import { AI_SDK_METADATA, jsonValue } from './ai-sdk-prompt.ts';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

interface ContentDetails {
  readonly parts?: readonly { readonly index: number; readonly part: LanguageModelV4Content }[];
}

interface BlockDetails {
  readonly providerMetadata?: SharedV4ProviderMetadata | undefined;
  readonly providerExecuted?: boolean | undefined;
  readonly dynamic?: boolean | undefined;
  /** The tool call's input text when it was not JSON. */
  readonly rawInput?: boolean | undefined;
  readonly isError?: boolean | undefined;
  readonly bytes?: boolean | undefined;
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

const TO_NEUTRAL: Readonly<Record<LanguageModelV4FinishReason['unified'], FinishReason>> = {
  stop: 'stop',
  length: 'max_tokens',
  'tool-calls': 'tool_calls',
  'content-filter': 'safety',
  error: 'error',
  interrupted: 'other',
  other: 'other',
};

const TO_AI_SDK: Readonly<Record<FinishReason, LanguageModelV4FinishReason['unified']>> = {
  stop: 'stop',
  max_tokens: 'length',
  tool_calls: 'tool-calls',
  safety: 'content-filter',
  refusal: 'content-filter',
  error: 'error',
  other: 'other',
};

/** The AI SDK finish reason as the neutral one. */
export function fromAiSdkFinishReason(reason: LanguageModelV4FinishReason): {
  finishReason: FinishReason;
  rawStopReason?: string;
} {
  return {
    finishReason: TO_NEUTRAL[reason.unified],
    ...(reason.raw === undefined ? {} : { rawStopReason: reason.raw }),
  };
}

/** The neutral finish reason as the AI SDK's (`other` when there is none). */
export function toAiSdkFinishReason(
  reason: FinishReason | undefined,
  raw: string | undefined,
): LanguageModelV4FinishReason {
  return { unified: reason === undefined ? 'other' : TO_AI_SDK[reason], raw };
}

/** AI SDK usage as neutral usage (only the fields reported). */
export function fromAiSdkUsage(usage: LanguageModelV4Usage): Usage {
  const result: Mutable<Usage> = {};
  const input = usage.inputTokens.total;
  const output = usage.outputTokens.total;
  if (input !== undefined) result.promptTokens = input;
  if (output !== undefined) result.completionTokens = output;
  if (input !== undefined && output !== undefined) result.totalTokens = input + output;
  if (usage.inputTokens.cacheRead !== undefined) result.cachedTokens = usage.inputTokens.cacheRead;
  if (usage.outputTokens.reasoning !== undefined)
    result.reasoningTokens = usage.outputTokens.reasoning;
  return result;
}

/** Neutral usage as AI SDK usage (what it does not know is `undefined`). */
export function toAiSdkUsage(usage: Usage | undefined): LanguageModelV4Usage {
  const cached = usage?.cachedTokens;
  const prompt = usage?.promptTokens;
  const reasoning = usage?.reasoningTokens;
  const completion = usage?.completionTokens;
  return {
    inputTokens: {
      total: prompt,
      noCache: prompt !== undefined && cached !== undefined ? prompt - cached : undefined,
      cacheRead: cached,
      cacheWrite: undefined,
    },
    outputTokens: {
      total: completion,
      text:
        completion !== undefined && reasoning !== undefined ? completion - reasoning : undefined,
      reasoning,
    },
  };
}

function parseInput(input: string): { value: unknown; raw: boolean } {
  if (input.trim() === '') return { value: {}, raw: false };
  try {
    return { value: JSON.parse(input) as unknown, raw: false };
  } catch {
    return { value: input, raw: true };
  }
}

/** One output part as a neutral block, `undefined` for parts with none. */
export function fromAiSdkContentPart(part: LanguageModelV4Content): ContentBlock | undefined {
  const metadata = part.providerMetadata;
  switch (part.type) {
    case 'text':
      return withDetails({ type: 'text', text: part.text }, { providerMetadata: metadata });
    case 'reasoning':
      return withDetails({ type: 'thinking', thought: part.text }, { providerMetadata: metadata });
    case 'tool-call': {
      const input = parseInput(part.input);
      return withDetails(
        { type: 'tool_call', id: part.toolCallId, name: part.toolName, parameters: input.value },
        {
          providerMetadata: metadata,
          providerExecuted: part.providerExecuted,
          dynamic: part.dynamic,
          ...(input.raw ? { rawInput: true } : {}),
        },
      );
    }
    case 'tool-result':
      return withDetails(
        {
          type: 'tool_response',
          callId: part.toolCallId,
          toolName: part.toolName,
          result: part.result,
          ...(part.isError === true ? { error: JSON.stringify(part.result) } : {}),
        },
        { providerMetadata: metadata, dynamic: part.dynamic, isError: part.isError },
      );
    case 'file':
      return part.data.type === 'url'
        ? withDetails(
            { type: 'media', mimeType: part.mediaType, data: part.data.url.href, encoding: 'url' },
            { providerMetadata: metadata },
          )
        : withDetails(
            {
              type: 'media',
              mimeType: part.mediaType,
              data:
                typeof part.data.data === 'string'
                  ? part.data.data
                  : Buffer.from(part.data.data).toString('base64'),
              encoding: 'base64',
            },
            {
              providerMetadata: metadata,
              ...(typeof part.data.data === 'string' ? {} : { bytes: true }),
            },
          );
    case 'custom':
    case 'reasoning-file':
    case 'source':
    case 'tool-approval-request':
      return undefined;
  }
}

/** Output parts as the neutral AI message (unmapped parts kept in its metadata). */
export function fromAiSdkContent(content: readonly LanguageModelV4Content[]): Message {
  const blocks: ContentBlock[] = [];
  const kept: { index: number; part: LanguageModelV4Content }[] = [];
  content.forEach((part, index) => {
    const block = fromAiSdkContentPart(part);
    if (block === undefined) kept.push({ index, part });
    else blocks.push(block);
  });
  return kept.length === 0
    ? { speaker: 'ai', blocks }
    : { speaker: 'ai', blocks, metadata: { [AI_SDK_METADATA]: { parts: kept } } };
}

/** A generate result as a neutral response (`raw` is the result itself, for diagnostics). */
export function fromAiSdkGenerateResult(result: LanguageModelV4GenerateResult): ModelResponse {
  return {
    content: fromAiSdkContent(result.content),
    ...fromAiSdkFinishReason(result.finishReason),
    usage: fromAiSdkUsage(result.usage),
    ...(result.response?.id === undefined ? {} : { id: result.response.id }),
  };
}

function providerMetadataOf(block: ContentBlock): { providerMetadata?: SharedV4ProviderMetadata } {
  const metadata = (detailsOf(block.metadata) as BlockDetails | undefined)?.providerMetadata;
  return metadata === undefined ? {} : { providerMetadata: metadata };
}

/** A neutral block as an output part. */
export function toAiSdkContentPart(block: ContentBlock): LanguageModelV4Content {
  const details = detailsOf(block.metadata) as BlockDetails | undefined;
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text, ...providerMetadataOf(block) };
    case 'thinking':
      return { type: 'reasoning', text: block.thought, ...providerMetadataOf(block) };
    case 'tool_call':
      return {
        type: 'tool-call',
        toolCallId: block.id,
        toolName: block.name,
        input:
          details?.rawInput === true && typeof block.parameters === 'string'
            ? block.parameters
            : JSON.stringify(block.parameters ?? {}),
        ...(details?.providerExecuted === undefined
          ? {}
          : { providerExecuted: details.providerExecuted }),
        ...(details?.dynamic === undefined ? {} : { dynamic: details.dynamic }),
        ...providerMetadataOf(block),
      };
    case 'tool_response': {
      const result = jsonValue(block.result);
      return {
        type: 'tool-result',
        toolCallId: block.callId,
        toolName: block.toolName,
        result: result ?? block.error ?? '',
        ...(details?.isError !== undefined
          ? { isError: details.isError }
          : block.error === undefined
            ? {}
            : { isError: true }),
        ...(details?.dynamic === undefined ? {} : { dynamic: details.dynamic }),
        ...providerMetadataOf(block),
      };
    }
    case 'media':
      return {
        type: 'file',
        mediaType: block.mimeType,
        data:
          block.encoding === 'url'
            ? { type: 'url', url: new URL(block.data) }
            : details?.bytes === true
              ? { type: 'data', data: new Uint8Array(Buffer.from(block.data, 'base64')) }
              : { type: 'data', data: block.data },
        ...providerMetadataOf(block),
      };
  }
}

/** A neutral AI message as output parts (kept parts back in place). */
export function toAiSdkContent(message: Message): LanguageModelV4Content[] {
  const parts = message.blocks.map(toAiSdkContentPart);
  for (const { index, part } of (detailsOf(message.metadata) as ContentDetails | undefined)
    ?.parts ?? [])
    parts.splice(Math.min(index, parts.length), 0, part);
  return parts;
}

/**
 * A neutral response as a generate result. `base` (the model's own result, when there is one)
 * supplies what the neutral response does not carry: warnings, request/response metadata,
 * provider metadata, and usage when the response has none.
 */
export function toAiSdkGenerateResult(
  response: ModelResponse,
  base?: LanguageModelV4GenerateResult,
): LanguageModelV4GenerateResult {
  return {
    ...base,
    content: toAiSdkContent(response.content),
    finishReason: toAiSdkFinishReason(response.finishReason, response.rawStopReason),
    usage:
      response.usage === undefined && base !== undefined
        ? base.usage
        : toAiSdkUsage(response.usage),
    warnings: base?.warnings ?? [],
    ...(response.id === undefined ? {} : { response: { ...base?.response, id: response.id } }),
  };
}
