/**
 * Zod schemas of the neutral content on the wire, exactly the shapes of `src/content/blocks.ts`.
 * Objects are strict: an unknown field is an error (with a v1 hint where one applies), never
 * dropped. Values typed `unknown` in the content model (tool parameters, tool results, metadata
 * values) are not looked into: they pass through as the hook wrote them.
 */
import { z } from 'zod';
import { lazy } from './lazy.ts';
import { FINISH_REASONS } from '../content/finish-reason.ts';
import { SPEAKERS } from '../content/blocks.ts';
import { finishReasonMessage, speakerMessage } from './field-hints.ts';

const BLOCK_TYPES = ['text', 'tool_call', 'tool_response', 'thinking', 'media'] as const;

/** Opaque provider data of a block or message. */
export const providerMetadataSchema = lazy(() => z.record(z.string(), z.unknown()));

export const textBlockSchema = lazy(() =>
  z.strictObject({
    type: z.literal('text'),
    text: z.string(),
    metadata: providerMetadataSchema().optional(),
  }),
);

export const toolCallBlockSchema = lazy(() =>
  z.strictObject({
    type: z.literal('tool_call'),
    id: z.string(),
    name: z.string(),
    parameters: z.unknown(),
    metadata: providerMetadataSchema().optional(),
  }),
);

export const toolResponseBlockSchema = lazy(() =>
  z.strictObject({
    type: z.literal('tool_response'),
    callId: z.string(),
    toolName: z.string(),
    result: z.unknown(),
    error: z.string().optional(),
    metadata: providerMetadataSchema().optional(),
  }),
);

export const thinkingBlockSchema = lazy(() =>
  z.strictObject({
    type: z.literal('thinking'),
    thought: z.string(),
    signature: z.string().optional(),
    encryptedContent: z.string().optional(),
    redacted: z.boolean().optional(),
    metadata: providerMetadataSchema().optional(),
  }),
);

export const mediaBlockSchema = lazy(() =>
  z.strictObject({
    type: z.literal('media'),
    mimeType: z.string(),
    data: z.string(),
    encoding: z.enum(['base64', 'url']),
    metadata: providerMetadataSchema().optional(),
  }),
);

function blockTypeMessage(input: unknown): string {
  const allowed = BLOCK_TYPES.join(', ');
  if (typeof input !== 'object' || input === null)
    return `expected a block object (type: ${allowed})`;
  const type = (input as { type?: unknown }).type;
  if (type === undefined)
    return `block has no \`type\` (v1 parts had none); expected one of ${allowed}, e.g. {"type": "text", "text": "…"}`;
  return `${JSON.stringify(type)} is not a block type; expected one of ${allowed}`;
}

/** One content block, discriminated by `type`. */
export const contentBlockSchema = lazy(() =>
  z.discriminatedUnion(
    'type',
    [
      textBlockSchema(),
      toolCallBlockSchema(),
      toolResponseBlockSchema(),
      thinkingBlockSchema(),
      mediaBlockSchema(),
    ],
    { error: (issue) => blockTypeMessage(issue.input) },
  ),
);

export const speakerSchema = lazy(() =>
  z.enum(SPEAKERS, { error: (issue) => speakerMessage(issue.input) }),
);

/** One message: `{speaker, blocks, metadata?}`. */
export const messageSchema = lazy(() =>
  z.strictObject({
    speaker: speakerSchema(),
    blocks: z.array(contentBlockSchema()),
    metadata: z.record(z.string(), z.unknown()).optional(),
  }),
);

/** A tool the model may call. */
export const toolDeclarationSchema = lazy(() =>
  z.strictObject({
    name: z.string(),
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()),
  }),
);

/** Token usage; every field optional. */
export const usageSchema = lazy(() =>
  z.strictObject({
    promptTokens: z.number().optional(),
    completionTokens: z.number().optional(),
    totalTokens: z.number().optional(),
    cachedTokens: z.number().optional(),
    reasoningTokens: z.number().optional(),
  }),
);

/** A canonical finish reason; anything else (`'STOP'`, `'end_turn'`) is rejected with its fix. */
export const finishReasonSchema = lazy(() =>
  z.enum(FINISH_REASONS, {
    error: (issue) => finishReasonMessage(issue.input),
  }),
);
