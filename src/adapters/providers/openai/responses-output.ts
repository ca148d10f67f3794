import type { Response, ResponseOutputItem } from 'openai/resources/responses/responses';
import { ModelError } from '../../../content/index.ts';
import type { ContentBlock, ModelErrorKind, ModelResponse } from '../../../content/index.ts';
import { parseToolArguments } from '../shared/tool-arguments.ts';
import { responsesFinishInfo } from './finish-reasons.ts';
import { openaiMetadata } from './metadata.ts';
import { responsesUsage } from './usage.ts';
import type { ResponsesUsageWire } from './usage.ts';

/**
 * Maps Responses output items to neutral blocks, in output order: `reasoning` → thinking (summary
 * parts joined by a blank line as `thought`, falling back to raw reasoning text; the encrypted
 * content and item id kept for the round trip), `message` → text per `output_text` part and a
 * text block marked `metadata.refusal` per `refusal` part, `function_call` → tool call (invalid
 * JSON arguments kept as the raw string). Built-in tool items have no neutral form and are skipped.
 */
export function outputToBlocks(output: readonly ResponseOutputItem[]): {
  blocks: ContentBlock[];
  hasToolCalls: boolean;
  refused: boolean;
} {
  const blocks: ContentBlock[] = [];
  let hasToolCalls = false;
  let refused = false;
  for (const item of output) {
    if (item.type === 'reasoning') {
      const summary = item.summary.map((part) => part.text);
      const thought =
        summary.length > 0
          ? summary.join('\n\n')
          : (item.content ?? []).map((part) => part.text).join('\n\n');
      blocks.push({
        type: 'thinking',
        thought,
        ...(typeof item.encrypted_content === 'string'
          ? { encryptedContent: item.encrypted_content }
          : {}),
        metadata: openaiMetadata(
          summary.length > 0 ? { itemId: item.id, summary } : { itemId: item.id },
        ),
      });
    } else if (item.type === 'message') {
      for (const part of item.content) {
        if (part.type === 'output_text') {
          if (part.text !== '') blocks.push({ type: 'text', text: part.text });
        } else {
          refused = true;
          blocks.push({ type: 'text', text: part.refusal, metadata: { refusal: true } });
        }
      }
    } else if (item.type === 'function_call') {
      hasToolCalls = true;
      blocks.push({
        type: 'tool_call',
        id: item.call_id,
        name: item.name,
        parameters: parseToolArguments(item.arguments),
        ...(item.id === undefined ? {} : { metadata: openaiMetadata({ itemId: item.id }) }),
      });
    }
  }
  return { blocks, hasToolCalls, refused };
}

/**
 * The neutral response for a Responses API response object. `output` overrides the response's
 * own output (a stream assembles it from its item events when the terminal event carries none).
 * A `failed` response throws: it is a provider failure, not an answer.
 */
export function responseToModelResponse(
  response: Response,
  provider: string,
  output: readonly ResponseOutputItem[] = response.output,
  raw: unknown = response,
): ModelResponse {
  if (response.status === 'failed') throw failedResponseError(response, provider);
  const { blocks, hasToolCalls, refused } = outputToBlocks(output);
  // Compatible servers send `usage: null`, whatever the SDK's type says.
  const usage = response.usage as ResponsesUsageWire | null | undefined;
  const finish = responsesFinishInfo(response.status, response.incomplete_details?.reason, {
    hasToolCalls,
    refused,
  });
  return {
    content: { speaker: 'ai', blocks },
    ...finish,
    ...(usage === undefined || usage === null ? {} : { usage: responsesUsage(usage) }),
    id: response.id,
    raw,
  };
}

/** The `ModelError` for a `failed` response, classified by its error code. */
export function failedResponseError(response: Response, provider: string): ModelError {
  const code = response.error?.code;
  const message = response.error?.message ?? 'The response failed without an error message.';
  return new ModelError({
    kind: kindOfErrorCode(code),
    provider,
    message: code === undefined ? message : `${code}: ${message}`,
    cause: response.error,
  });
}

/** Classifies a Responses error code (from a failed response or an `error` event). */
export function kindOfErrorCode(code: string | null | undefined): ModelErrorKind {
  if (code === 'rate_limit_exceeded') return 'rate_limit';
  if (code === 'context_length_exceeded') return 'context_length';
  if (code === 'invalid_prompt' || (code?.includes('image') ?? false)) return 'invalid_request';
  return 'server';
}
