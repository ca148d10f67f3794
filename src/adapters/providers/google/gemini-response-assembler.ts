import type {
  GenerateContentResponse,
  GenerateContentResponseUsageMetadata,
  Part,
} from '@google/genai';
import {
  message,
  reconcileFinishReason,
  type ContentBlock,
  type FinishInfo,
  type ModelResponse,
  type ModelStreamPart,
  type Usage,
} from '../../../content/index.ts';
import { blockedPromptFinish, GEMINI_FINISH_REASONS } from './gemini-finish-reasons.ts';
import type { GoogleBlockMetadata } from './to-gemini-request.ts';

/**
 * Neutral usage from Gemini's `usageMetadata`. `completionTokens` is `candidatesTokenCount` plus
 * `thoughtsTokenCount` (Gemini counts thoughts apart from the candidates; the neutral field, like
 * OpenAI's, includes reasoning), `reasoningTokens` is `thoughtsTokenCount`, `cachedTokens` is
 * `cachedContentTokenCount`, `totalTokens` is `totalTokenCount` as reported.
 */
export function fromGeminiUsage(metadata: GenerateContentResponseUsageMetadata): Usage {
  const usage: { -readonly [K in keyof Usage]: Usage[K] } = {};
  if (metadata.promptTokenCount !== undefined) usage.promptTokens = metadata.promptTokenCount;
  if (metadata.candidatesTokenCount !== undefined || metadata.thoughtsTokenCount !== undefined) {
    usage.completionTokens =
      (metadata.candidatesTokenCount ?? 0) + (metadata.thoughtsTokenCount ?? 0);
  }
  if (metadata.totalTokenCount !== undefined) usage.totalTokens = metadata.totalTokenCount;
  if (metadata.cachedContentTokenCount !== undefined)
    usage.cachedTokens = metadata.cachedContentTokenCount;
  if (metadata.thoughtsTokenCount !== undefined)
    usage.reasoningTokens = metadata.thoughtsTokenCount;
  return usage;
}

type OpenBlock =
  | { kind: 'text'; text: string; signature: string | undefined }
  | { kind: 'thought'; text: string; signature: string | undefined };

/**
 * Assembles Gemini responses (one for `generateContent`, a sequence of chunks for
 * `streamGenerateContent`) into neutral deltas and one neutral response.
 *
 * Parts of the first candidate become blocks in order: text, thought parts (`thought: true`) as
 * thinking blocks with their `thoughtSignature` as `signature`, `functionCall` as tool calls,
 * `inlineData`/`fileData` as media. A signature on a text or function-call part is kept as
 * `metadata.google.thoughtSignature` of that block. Function calls arrive whole; one without an `id`
 * gets `call_<n>` (`n` its position among this response's calls), marked
 * `metadata.google.syntheticId`
 * so it is not sent back.
 *
 * When `mergeText` is set (streaming), consecutive text parts of the same kind join one block
 * until a part carrying a signature closes it, so a streamed answer is one block, its signature
 * on it; a blocking response keeps one block per part.
 */
export class GeminiResponseAssembler {
  readonly #mergeText: boolean;
  readonly #blocks: ContentBlock[] = [];
  #open: OpenBlock | undefined;
  #toolCount = 0;
  #finishReason: string | undefined;
  #blockReason: string | undefined;
  #usage: GenerateContentResponseUsageMetadata | undefined;
  #id: string | undefined;
  #raw: unknown;

  constructor(options: { readonly mergeText: boolean }) {
    this.#mergeText = options.mergeText;
  }

  /** Takes one response or chunk; appends the deltas it carries to `parts` (if given). */
  accept(response: GenerateContentResponse, parts?: ModelStreamPart[]): void {
    this.#raw = response;
    if (response.responseId !== undefined) this.#id = response.responseId;
    if (response.usageMetadata !== undefined) this.#usage = response.usageMetadata;
    const blockReason = response.promptFeedback?.blockReason;
    if (blockReason !== undefined) this.#blockReason = blockReason;
    const candidate = response.candidates?.[0];
    if (candidate === undefined) return;
    if (candidate.finishReason !== undefined) this.#finishReason = candidate.finishReason;
    for (const part of candidate.content?.parts ?? []) this.#acceptPart(part, parts);
  }

  #acceptPart(part: Part, parts: ModelStreamPart[] | undefined): void {
    const signature = part.thoughtSignature;
    if (part.functionCall !== undefined) {
      this.#close();
      const ordinal = this.#toolCount++;
      const id = part.functionCall.id;
      const name = part.functionCall.name ?? '';
      const args = part.functionCall.args ?? {};
      const google: { -readonly [K in keyof GoogleBlockMetadata]: GoogleBlockMetadata[K] } = {};
      if (signature !== undefined) google.thoughtSignature = signature;
      if (id === undefined) google.syntheticId = true;
      const callId = id ?? `call_${ordinal}`;
      this.#blocks.push({
        type: 'tool_call',
        id: callId,
        name,
        parameters: args,
        ...(signature === undefined && id !== undefined ? {} : { metadata: { google } }),
      });
      parts?.push({
        type: 'tool-call-delta',
        index: ordinal,
        callId,
        toolName: name,
        argumentsDelta: JSON.stringify(args),
      });
      return;
    }
    if (part.text !== undefined) {
      const kind = part.thought === true ? 'thought' : 'text';
      const open = this.#open;
      if (this.#mergeText && open?.kind === kind && open.signature === undefined) {
        open.text += part.text;
        open.signature = signature;
      } else {
        this.#close();
        this.#open = { kind, text: part.text, signature };
      }
      if (
        parts !== undefined &&
        (part.text !== '' || (kind === 'thought' && signature !== undefined))
      ) {
        parts.push(
          kind === 'text'
            ? { type: 'text-delta', text: part.text }
            : signature === undefined
              ? { type: 'reasoning-delta', text: part.text }
              : { type: 'reasoning-delta', text: part.text, signature },
        );
      }
      if (!this.#mergeText || signature !== undefined) this.#close();
      return;
    }
    if (part.inlineData?.data !== undefined) {
      this.#close();
      this.#blocks.push({
        type: 'media',
        mimeType: part.inlineData.mimeType ?? 'application/octet-stream',
        data: part.inlineData.data,
        encoding: 'base64',
      });
      return;
    }
    if (part.fileData?.fileUri !== undefined) {
      this.#close();
      this.#blocks.push({
        type: 'media',
        mimeType: part.fileData.mimeType ?? 'application/octet-stream',
        data: part.fileData.fileUri,
        encoding: 'url',
      });
    }
  }

  #close(): void {
    const open = this.#open;
    if (open === undefined) return;
    this.#open = undefined;
    if (open.kind === 'thought') {
      this.#blocks.push(
        open.signature === undefined
          ? { type: 'thinking', thought: open.text }
          : { type: 'thinking', thought: open.text, signature: open.signature },
      );
    } else {
      this.#blocks.push(
        open.signature === undefined
          ? { type: 'text', text: open.text }
          : {
              type: 'text',
              text: open.text,
              metadata: { google: { thoughtSignature: open.signature } },
            },
      );
    }
  }

  /**
   * The assembled response. Finish: the candidate's `finishReason` through the Gemini table; a
   * blocked prompt (`promptFeedback.blockReason`, no finish reason) reads as `safety`; nothing
   * reported stays unreported. `stop` with tool calls reads as `tool_calls`.
   */
  finish(): ModelResponse {
    this.#close();
    const blocks = this.#blocks;
    const finish: FinishInfo =
      this.#finishReason === undefined && this.#blockReason !== undefined
        ? blockedPromptFinish(this.#blockReason)
        : GEMINI_FINISH_REASONS.map(this.#finishReason);
    const finishReason = reconcileFinishReason(
      finish.finishReason,
      blocks.some((block) => block.type === 'tool_call'),
    );
    const usage = this.#usage === undefined ? undefined : fromGeminiUsage(this.#usage);
    return {
      content: message('ai', blocks),
      ...(finishReason === undefined ? {} : { finishReason }),
      ...(finish.rawStopReason === undefined ? {} : { rawStopReason: finish.rawStopReason }),
      ...(usage === undefined || Object.keys(usage).length === 0 ? {} : { usage }),
      ...(this.#id === undefined ? {} : { id: this.#id }),
      raw: this.#raw,
    };
  }
}

/** A complete neutral response from one blocking `generateContent` result. */
export function fromGeminiResponse(response: GenerateContentResponse): ModelResponse {
  const assembler = new GeminiResponseAssembler({ mergeText: false });
  assembler.accept(response);
  return assembler.finish();
}
