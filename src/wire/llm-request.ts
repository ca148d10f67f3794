import { z } from 'zod';
import { lazy } from './lazy.ts';
import type { GenerationSettings, ModelRequest } from '../content/model.ts';
import type { Message, ToolDeclaration } from '../content/blocks.ts';
import { messageSchema, toolDeclarationSchema } from './content-schemas.ts';
import { generationSettingsSchema } from './generation-settings-schema.ts';
import { failure, toWireIssues, type WireDecodeResult } from './wire-decode-error.ts';
import { wireVersionSchema } from './wire-version.ts';

/**
 * The v2 request envelope a hook receives (`llm_request` of BeforeModel, BeforeToolSelection and
 * AfterModel): the neutral `ModelRequest` stamped with `version: 2`. Provider shapes never
 * appear in it.
 */
export interface HookLLMRequest {
  readonly version: 2;
  readonly model: string;
  readonly contents: readonly Message[];
  readonly tools?: readonly ToolDeclaration[];
  readonly settings?: GenerationSettings;
}

/** A complete request as a hook may write it: `version` may be omitted (it reads as 2). */
export type DecodedHookLLMRequest = Omit<HookLLMRequest, 'version'> & { readonly version?: 2 };

/**
 * What a BeforeModel hook returns as `hookSpecificOutput.llm_request`: any subset of the
 * envelope's fields, merged over the outgoing request by `mergeHookLLMRequest`.
 */
export interface HookLLMRequestOverride {
  readonly version?: 2;
  readonly model?: string;
  readonly contents?: readonly Message[];
  readonly tools?: readonly ToolDeclaration[];
  readonly settings?: GenerationSettings;
}

const requestShape = lazy(() => ({
  version: wireVersionSchema().optional(),
  model: z.string(),
  contents: z.array(messageSchema()),
  tools: z.array(toolDeclarationSchema()).optional(),
  settings: generationSettingsSchema().optional(),
}));

/** A complete v2 request as a hook may write it (`version` optional). */
export const hookLLMRequestSchema = lazy(() => z.strictObject(requestShape()));

/** The v2 request exactly as hookwire sends it to hooks (`version: 2` present). */
export const hookLLMRequestInputSchema = lazy(() =>
  z.strictObject({
    ...requestShape(),
    version: wireVersionSchema(),
  }),
);

/** The BeforeToolSelection request: as `hookLLMRequestInputSchema()`, with `tools` present. */
export const hookToolSelectionRequestInputSchema = lazy(() =>
  z.strictObject({
    ...requestShape(),
    version: wireVersionSchema(),
    tools: z.array(toolDeclarationSchema()),
  }),
);

/** A hook's partial request override: every field optional. */
export const hookLLMRequestOverrideSchema = lazy(() =>
  z.strictObject({
    version: wireVersionSchema().optional(),
    model: z.string().optional(),
    contents: z.array(messageSchema()).optional(),
    tools: z.array(toolDeclarationSchema()).optional(),
    settings: generationSettingsSchema().optional(),
  }),
);

/**
 * Decodes a complete v2 request (`model` and `contents` required, `version` absent or 2). The
 * decoded value is the caller's own object: `contents`, every message and every block keep their
 * identity (see docs/decisions/0002-wire-v2-by-reference.md). A v1 shape is rejected naming each
 * v1 field and its v2 replacement.
 */
export function decodeHookLLMRequest(
  value: unknown,
  subject = 'llm_request',
): WireDecodeResult<DecodedHookLLMRequest> {
  const parsed = hookLLMRequestSchema().safeParse(value);
  if (!parsed.success) return failure(subject, toWireIssues(parsed.error, value));
  return { ok: true, value: value as DecodedHookLLMRequest };
}

/** Decodes a hook's partial `llm_request` override; by reference, like `decodeHookLLMRequest`. */
export function decodeHookLLMRequestOverride(
  value: unknown,
  subject = 'llm_request',
): WireDecodeResult<HookLLMRequestOverride> {
  const parsed = hookLLMRequestOverrideSchema().safeParse(value);
  if (!parsed.success) return failure(subject, toWireIssues(parsed.error, value));
  return { ok: true, value: value as HookLLMRequestOverride };
}

/** The v2 envelope of a neutral request (no copy of contents, tools or settings). */
export function toHookLLMRequest(request: ModelRequest): HookLLMRequest {
  return {
    version: 2,
    model: request.model,
    contents: request.contents,
    ...(request.tools === undefined ? {} : { tools: request.tools }),
    ...(request.settings === undefined ? {} : { settings: request.settings }),
  };
}
