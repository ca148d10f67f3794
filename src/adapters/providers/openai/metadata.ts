import type { ProviderMetadata } from '../../../content/index.ts';

/**
 * What the OpenAI adapters keep in a block's `metadata.openai` so a block round-trips exactly:
 * the Responses item id (`rs_…`, `fc_…`, `msg_…`) and, for reasoning, the summary parts as the
 * provider split them.
 */
export interface OpenAIBlockMetadata {
  readonly itemId?: string;
  readonly summary?: readonly string[];
}

/** Wraps OpenAI block metadata under its provider key. */
export function openaiMetadata(value: OpenAIBlockMetadata): ProviderMetadata {
  return { openai: value };
}

/** Reads `metadata.openai` defensively: a hook may have rewritten the block. */
export function readOpenAIMetadata(metadata: ProviderMetadata | undefined): OpenAIBlockMetadata {
  const value = metadata?.['openai'];
  if (typeof value !== 'object' || value === null) return {};
  const record = value as Record<string, unknown>;
  const itemId = record['itemId'];
  const summary = record['summary'];
  return {
    ...(typeof itemId === 'string' ? { itemId } : {}),
    ...(Array.isArray(summary) && summary.every((part) => typeof part === 'string')
      ? { summary }
      : {}),
  };
}
