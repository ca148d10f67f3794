import type {
  FunctionTool,
  ResponseCreateParamsBase,
  ResponseInputContent,
  ResponseInputItem,
  ResponseReasoningItem,
  ToolChoiceFunction,
  ToolChoiceOptions,
} from 'openai/resources/responses/responses';
import { ModelError } from '../../../content/index.ts';
import type { MediaBlock, Message, ModelRequest, ThinkingBlock } from '../../../content/index.ts';
import { stringifyToolArguments } from '../shared/tool-arguments.ts';
import { toolResultText } from '../shared/tool-result-text.ts';
import { selectTools } from '../shared/tool-selection.ts';
import { readOpenAIMetadata } from './metadata.ts';

/** How the Responses request is built. */
export interface ResponsesRequestOptions {
  /**
   * Whether OpenAI keeps the response (`store`). False (hookwire's default: the loop sends the
   * whole conversation every time) means reasoning can only be carried as encrypted content.
   */
  readonly store: boolean;
  /**
   * Ask for `reasoning.encrypted_content`. Only reasoning models accept it: others reject the
   * request ("Encrypted content is not supported with this model").
   */
  readonly encryptedReasoning: boolean;
}

/**
 * Builds the Responses body for a neutral request (without `stream`). Mapping:
 * `systemInstruction` → `instructions`; `human` → a `user` message (`input_text`, `input_image`,
 * `input_file`); `ai` blocks in order → `reasoning` items (thinking with an item id; with
 * `store: false` only those carrying `encryptedContent`, which the server cannot otherwise
 * resolve), assistant messages (consecutive text joined) and `function_call` items; tool
 * responses → `function_call_output` items. Function tools are sent with `strict: false` so any
 * JSON Schema is accepted. `additionalParams` is shallow-merged last.
 */
export function buildResponsesRequest(
  request: ModelRequest,
  options: ResponsesRequestOptions,
): ResponseCreateParamsBase {
  const settings = request.settings ?? {};
  const input: ResponseInputItem[] = [];
  for (const message of request.contents) appendMessage(input, message, options);

  const body: ResponseCreateParamsBase = { model: request.model, input, store: options.store };
  if (settings.systemInstruction !== undefined && settings.systemInstruction !== '') {
    body.instructions = settings.systemInstruction;
  }
  const selection = selectTools(request.tools, settings.toolChoice);
  if (selection.tools.length > 0) {
    body.tools = selection.tools.map((tool): FunctionTool => ({
      type: 'function',
      name: tool.name,
      ...(tool.description === undefined ? {} : { description: tool.description }),
      parameters: { ...tool.parameters },
      strict: false,
    }));
    const choice: ToolChoiceOptions | ToolChoiceFunction | undefined =
      selection.forcedToolName !== undefined
        ? { type: 'function', name: selection.forcedToolName }
        : selection.mode;
    if (choice !== undefined) body.tool_choice = choice;
  }
  if (settings.temperature !== undefined) body.temperature = settings.temperature;
  if (settings.topP !== undefined) body.top_p = settings.topP;
  if (settings.maxOutputTokens !== undefined) body.max_output_tokens = settings.maxOutputTokens;
  const reasoning = settings.reasoning;
  if (reasoning?.effort !== undefined || reasoning?.includeThoughts === true) {
    body.reasoning = {
      ...(reasoning.effort === undefined ? {} : { effort: reasoning.effort }),
      ...(reasoning.includeThoughts === true ? { summary: 'auto' as const } : {}),
    };
  }
  if (options.encryptedReasoning) body.include = ['reasoning.encrypted_content'];
  // The Responses API has no `stop` or `seed`; they are passed through so a server that
  // implements them (or rejects them loudly) decides, rather than dropping them silently.
  const extra: Record<string, unknown> = {};
  if (settings.stopSequences !== undefined && settings.stopSequences.length > 0) {
    extra['stop'] = [...settings.stopSequences];
  }
  if (settings.seed !== undefined) extra['seed'] = settings.seed;
  return Object.assign(body, extra, settings.additionalParams);
}

function appendMessage(
  input: ResponseInputItem[],
  message: Message,
  options: ResponsesRequestOptions,
): void {
  if (message.speaker === 'ai') {
    appendAssistant(input, message, options);
    return;
  }
  const content: ResponseInputContent[] = [];
  for (const block of message.blocks) {
    switch (block.type) {
      case 'text':
        content.push({ type: 'input_text', text: block.text });
        break;
      case 'media':
        content.push(mediaContent(block));
        break;
      case 'tool_response':
        input.push({
          type: 'function_call_output',
          call_id: block.callId,
          output: toolResultText(block),
        });
        break;
      case 'tool_call':
      case 'thinking':
        // Only the model produces tool calls and reasoning.
        break;
    }
  }
  if (content.length > 0) input.push({ type: 'message', role: 'user', content });
}

function appendAssistant(
  input: ResponseInputItem[],
  message: Message,
  options: ResponsesRequestOptions,
): void {
  let text: string | undefined;
  const flushText = (): void => {
    if (text === undefined) return;
    input.push({ type: 'message', role: 'assistant', content: text });
    text = undefined;
  };
  for (const block of message.blocks) {
    if (block.type === 'text') {
      text = (text ?? '') + block.text;
      continue;
    }
    flushText();
    if (block.type === 'thinking') {
      const item = reasoningItem(block, options);
      if (item !== undefined) input.push(item);
    } else if (block.type === 'tool_call') {
      const { itemId } = readOpenAIMetadata(block.metadata);
      input.push({
        type: 'function_call',
        call_id: block.id,
        name: block.name,
        arguments: stringifyToolArguments(block.parameters),
        ...(itemId === undefined ? {} : { id: itemId }),
      });
    }
  }
  flushText();
}

function reasoningItem(
  block: ThinkingBlock,
  options: ResponsesRequestOptions,
): ResponseReasoningItem | undefined {
  const { itemId, summary } = readOpenAIMetadata(block.metadata);
  // A reasoning item is addressed by its id; without one it came from another provider.
  if (itemId === undefined) return undefined;
  // Unstored reasoning without its encrypted content would be a dangling reference (404).
  if (!options.store && block.encryptedContent === undefined) return undefined;
  // Keep the provider's own split of the summary when the thought is still what it produced.
  const parts =
    summary !== undefined && summary.join('\n\n') === block.thought
      ? summary
      : block.thought === ''
        ? []
        : [block.thought];
  return {
    type: 'reasoning',
    id: itemId,
    summary: parts.map((part) => ({ type: 'summary_text', text: part })),
    ...(block.encryptedContent === undefined ? {} : { encrypted_content: block.encryptedContent }),
  };
}

function mediaContent(block: MediaBlock): ResponseInputContent {
  const url = block.encoding === 'url' ? block.data : `data:${block.mimeType};base64,${block.data}`;
  if (block.mimeType.startsWith('image/')) {
    return { type: 'input_image', image_url: url, detail: 'auto' };
  }
  if (block.mimeType === 'application/pdf') {
    return block.encoding === 'url'
      ? { type: 'input_file', file_url: url }
      : { type: 'input_file', file_data: url, filename: 'document.pdf' };
  }
  throw new ModelError({
    kind: 'invalid_request',
    provider: 'openai',
    message:
      `The OpenAI Responses API cannot take media of type ${block.mimeType}: send images ` +
      '(image/*) or PDFs, or describe the media as text.',
  });
}
