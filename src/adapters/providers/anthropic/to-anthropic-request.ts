import type {
  ContentBlockParam,
  MessageCreateParamsBase,
  MessageParam,
  Tool,
  ToolChoice as AnthropicToolChoice,
} from '@anthropic-ai/sdk/resources/messages';
import type {
  ContentBlock,
  MediaBlock,
  Message,
  ModelRequest,
  ToolChoice,
  ToolDeclaration,
  ToolResponseBlock,
} from '../../../content/index.ts';

/**
 * `max_tokens` sent when the request sets no `maxOutputTokens`: Anthropic requires the field, and
 * 4096 is a cap every current Claude model accepts. With thinking enabled the default grows to
 * the thinking budget plus 4096, because the budget must stay below `max_tokens`.
 */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 4096;

/**
 * Thinking budgets used when the request gives a reasoning `effort` but no `budgetTokens`.
 * 1024 is the smallest budget the API accepts.
 */
export const ANTHROPIC_EFFORT_BUDGETS = {
  minimal: 1024,
  low: 2048,
  medium: 8192,
  high: 24_576,
} as const;

/** The request body fields this adapter sets (the SDK adds `stream` itself). */
export type AnthropicRequestBody = MessageCreateParamsBase;

/**
 * Maps a neutral request to an Anthropic Messages request body.
 *
 * - `systemInstruction` → `system`; `human` → `user`; `ai` → `assistant`; `tool` → `user` with
 *   `tool_result` blocks. Adjacent messages that land on the same role are merged into one
 *   message, and inside a user message `tool_result` blocks come first, as the API requires.
 * - Thinking blocks go back unchanged: `thinking` with its `signature`, a redacted block as
 *   `redacted_thinking` with its `encryptedContent` as `data`. A thinking block without a
 *   signature (written by a hook or another provider) is dropped: the API rejects unsigned
 *   thinking.
 * - Tools keep their declaration order; an allowlist filters the declarations sent; the tool
 *   choice maps to `auto`/`any`/`none`, and `required` with exactly one allowed tool to
 *   `{type: 'tool', name}`.
 * - `additionalParams` are shallow-merged over the body last, so they win.
 */
export function toAnthropicRequest(request: ModelRequest, model: string): AnthropicRequestBody {
  const settings = request.settings ?? {};
  const reasoning = settings.reasoning;
  const thinkingBudget =
    reasoning?.budgetTokens ??
    (reasoning?.effort === undefined ? undefined : ANTHROPIC_EFFORT_BUDGETS[reasoning.effort]);

  const body: Record<string, unknown> = {
    model,
    max_tokens:
      settings.maxOutputTokens ??
      (thinkingBudget === undefined
        ? ANTHROPIC_DEFAULT_MAX_TOKENS
        : thinkingBudget + ANTHROPIC_DEFAULT_MAX_TOKENS),
    messages: toAnthropicMessages(request.contents),
  };
  if (settings.systemInstruction !== undefined) body['system'] = settings.systemInstruction;
  if (settings.temperature !== undefined) body['temperature'] = settings.temperature;
  if (settings.topP !== undefined) body['top_p'] = settings.topP;
  if (settings.topK !== undefined) body['top_k'] = settings.topK;
  if (settings.stopSequences !== undefined) body['stop_sequences'] = [...settings.stopSequences];
  if (thinkingBudget !== undefined) {
    body['thinking'] = { type: 'enabled', budget_tokens: thinkingBudget };
  }

  const { tools, toolChoice } = toAnthropicTools(request.tools, settings.toolChoice);
  if (tools !== undefined) body['tools'] = tools;
  if (toolChoice !== undefined) body['tool_choice'] = toolChoice;

  if (settings.additionalParams !== undefined) Object.assign(body, settings.additionalParams);
  // The body is assembled from typed parts above; additionalParams are provider fields by contract.
  return body as unknown as AnthropicRequestBody;
}

function toAnthropicTools(
  declarations: readonly ToolDeclaration[] | undefined,
  choice: ToolChoice | undefined,
): { tools?: Tool[]; toolChoice?: AnthropicToolChoice } {
  if (declarations === undefined || declarations.length === 0) return {};
  const allowed =
    choice?.allowedToolNames === undefined ? undefined : new Set(choice.allowedToolNames);
  const tools: Tool[] = [];
  for (const declaration of declarations) {
    if (allowed !== undefined && !allowed.has(declaration.name)) continue;
    const tool: Tool = {
      name: declaration.name,
      input_schema: declaration.parameters as Tool['input_schema'],
    };
    if (declaration.description !== undefined) tool.description = declaration.description;
    tools.push(tool);
  }
  // An allowlist that leaves nothing offers nothing: no tools, no choice.
  if (tools.length === 0) return {};
  if (choice === undefined) return { tools };
  switch (choice.mode) {
    case 'none':
      // Tools stay declared (history may hold tool_use blocks, which need their declarations);
      // `none` forbids calling them.
      return { tools, toolChoice: { type: 'none' } };
    case 'required': {
      const only = tools.length === 1 ? tools[0] : undefined;
      return {
        tools,
        toolChoice:
          only !== undefined && allowed !== undefined
            ? { type: 'tool', name: only.name }
            : { type: 'any' },
      };
    }
    case 'auto':
      return { tools, toolChoice: { type: 'auto' } };
  }
}

function roleOf(message: Message): 'user' | 'assistant' {
  return message.speaker === 'ai' ? 'assistant' : 'user';
}

/** Converts neutral messages, merging adjacent messages that map to the same role. */
export function toAnthropicMessages(messages: readonly Message[]): MessageParam[] {
  const result: MessageParam[] = [];
  let currentRole: 'user' | 'assistant' | undefined;
  let currentBlocks: ContentBlockParam[] = [];
  const flush = (): void => {
    if (currentRole === undefined || currentBlocks.length === 0) return;
    if (currentRole === 'user') {
      // tool_result blocks must open the user message that answers the tool calls.
      const results = currentBlocks.filter((block) => block.type === 'tool_result');
      if (results.length > 0 && results.length < currentBlocks.length) {
        currentBlocks = [
          ...results,
          ...currentBlocks.filter((block) => block.type !== 'tool_result'),
        ];
      }
    }
    result.push({ role: currentRole, content: currentBlocks });
  };
  for (const message of messages) {
    const role = roleOf(message);
    if (role !== currentRole) {
      flush();
      currentRole = role;
      currentBlocks = [];
    }
    for (const block of message.blocks) {
      const converted = toAnthropicBlock(block);
      if (converted !== undefined) currentBlocks.push(converted);
    }
  }
  flush();
  return result;
}

function toAnthropicBlock(block: ContentBlock): ContentBlockParam | undefined {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'tool_call':
      return { type: 'tool_use', id: block.id, name: block.name, input: block.parameters ?? {} };
    case 'tool_response':
      return toToolResult(block);
    case 'thinking':
      if (block.redacted === true) {
        return block.encryptedContent === undefined
          ? undefined
          : { type: 'redacted_thinking', data: block.encryptedContent };
      }
      return block.signature === undefined
        ? undefined
        : { type: 'thinking', thinking: block.thought, signature: block.signature };
    case 'media':
      return toMedia(block);
  }
}

function toToolResult(block: ToolResponseBlock): ContentBlockParam {
  const content =
    block.error ?? (typeof block.result === 'string' ? block.result : JSON.stringify(block.result));
  return {
    type: 'tool_result',
    tool_use_id: block.callId,
    content: content,
    ...(block.error === undefined ? {} : { is_error: true }),
  };
}

function toMedia(block: MediaBlock): ContentBlockParam {
  const isPdf = block.mimeType === 'application/pdf';
  if (block.encoding === 'url') {
    return isPdf
      ? { type: 'document', source: { type: 'url', url: block.data } }
      : { type: 'image', source: { type: 'url', url: block.data } };
  }
  if (isPdf) {
    return {
      type: 'document',
      source: { type: 'base64', media_type: 'application/pdf', data: block.data },
    };
  }
  return {
    type: 'image',
    source: {
      type: 'base64',
      media_type: block.mimeType as 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp',
      data: block.data,
    },
  };
}
