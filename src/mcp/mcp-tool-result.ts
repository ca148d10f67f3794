/**
 * An MCP `CallToolResult` as a hookwire tool result (the JSON value hooks see as
 * `tool_response` and the model receives):
 *
 * - only text blocks, no structured content → the texts joined with newlines (a string);
 * - structured content and only text blocks → the structured content (the texts are, by the
 *   MCP spec's advice, its serialization);
 * - anything else → `{content: [...], structuredContent?}` with each block mapped: text as
 *   `{type: "text", text}`, images and audio as hookwire media blocks
 *   `{type: "media", mimeType, data, encoding: "base64"}`, an embedded resource as its text (or
 *   its blob as media), a resource link as `{type: "resource_link", uri, name}`.
 * - `isError: true` → an error whose text is the joined text blocks: the model sees it as the
 *   tool's error and `PostToolUseFailure` fires.
 */

/** What `toToolOutcome` makes of a result. */
export type McpToolOutcome =
  | { readonly isError: false; readonly result: unknown }
  | { readonly isError: true; readonly errorText: string };

type Block = Readonly<Record<string, unknown>>;

function isRecord(value: unknown): value is Block {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function mapBlock(block: Block): Block {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'image':
    case 'audio':
      return { type: 'media', mimeType: block.mimeType, data: block.data, encoding: 'base64' };
    case 'resource': {
      const resource = isRecord(block.resource) ? block.resource : {};
      if (typeof resource.text === 'string')
        return { type: 'text', text: resource.text, uri: resource.uri };
      return {
        type: 'media',
        mimeType: resource.mimeType ?? 'application/octet-stream',
        data: resource.blob,
        encoding: 'base64',
        uri: resource.uri,
      };
    }
    case 'resource_link':
      return {
        type: 'resource_link',
        uri: block.uri,
        name: block.name,
        ...(block.mimeType === undefined ? {} : { mimeType: block.mimeType }),
      };
    default:
      return block;
  }
}

/** Maps one `tools/call` result (see the module's doc). */
export function toToolOutcome(result: unknown): McpToolOutcome {
  if (!isRecord(result)) return { isError: false, result };
  // Protocol 2024-10-07 servers answer `{toolResult}` instead of `{content}`.
  if (!('content' in result) && 'toolResult' in result)
    return { isError: false, result: result.toolResult };
  const content = Array.isArray(result.content) ? result.content.filter(isRecord) : [];
  const texts = content.filter((block) => block.type === 'text');
  const joined = texts.map((block) => String(block.text)).join('\n');
  if (result.isError === true)
    return { isError: true, errorText: joined === '' ? 'the MCP tool reported an error' : joined };
  const onlyText = texts.length === content.length;
  const structured = result.structuredContent;
  if (onlyText && structured === undefined) return { isError: false, result: joined };
  if (onlyText) return { isError: false, result: structured };
  return {
    isError: false,
    result: {
      content: content.map(mapBlock),
      ...(structured === undefined ? {} : { structuredContent: structured }),
    },
  };
}
