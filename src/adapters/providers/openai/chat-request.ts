import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionContentPart,
  ChatCompletionCreateParamsBase,
  ChatCompletionMessageFunctionToolCall,
  ChatCompletionMessageParam,
  ChatCompletionTool,
  ChatCompletionToolChoiceOption,
} from 'openai/resources/chat/completions';
import { ModelError } from '../../../content/index.ts';
import type { MediaBlock, Message, ModelRequest } from '../../../content/index.ts';
import { stringifyToolArguments } from '../shared/tool-arguments.ts';
import { toolResultText } from '../shared/tool-result-text.ts';
import { selectTools } from '../shared/tool-selection.ts';

/** How the Chat Completions request is built for the server on the other end. */
export interface ChatRequestOptions {
  /**
   * True for an OpenAI-compatible server (vLLM, llama.cpp, Ollama, DeepSeek, …): the output cap
   * is sent as `max_tokens` (the field those servers know) and `top_k` is sent when set. False
   * (OpenAI itself): `max_completion_tokens`, and `top_k` is not sent (OpenAI rejects it).
   */
  readonly compatible: boolean;
}

/**
 * Builds the Chat Completions body for a neutral request (without `stream`). Mapping:
 * `systemInstruction` → a leading `system` message (every model and compatible server accepts
 * `system`; OpenAI reads it as `developer` for reasoning models); `human` → `user` (text and
 * media parts); `ai` → `assistant` with `tool_calls` (arguments as JSON text); tool responses →
 * one `tool` message each, in order, wherever they appear; other blocks of a `tool` message →
 * a following `user` message. Thinking blocks are not sent: Chat Completions has no input field
 * for reasoning. `additionalParams` is shallow-merged last, so it overrides any mapped field.
 */
export function buildChatRequest(
  request: ModelRequest,
  options: ChatRequestOptions,
): ChatCompletionCreateParamsBase {
  const settings = request.settings ?? {};
  const messages: ChatCompletionMessageParam[] = [];
  if (settings.systemInstruction !== undefined && settings.systemInstruction !== '') {
    messages.push({ role: 'system', content: settings.systemInstruction });
  }
  for (const message of request.contents) appendMessage(messages, message);

  const body: ChatCompletionCreateParamsBase = { model: request.model, messages };
  const extra: Record<string, unknown> = {};
  const selection = selectTools(request.tools, settings.toolChoice);
  if (selection.tools.length > 0) {
    body.tools = selection.tools.map((tool): ChatCompletionTool => ({
      type: 'function',
      function: {
        name: tool.name,
        ...(tool.description === undefined ? {} : { description: tool.description }),
        parameters: { ...tool.parameters },
      },
    }));
    const choice: ChatCompletionToolChoiceOption | undefined =
      selection.forcedToolName !== undefined
        ? { type: 'function', function: { name: selection.forcedToolName } }
        : selection.mode;
    if (choice !== undefined) body.tool_choice = choice;
  }
  if (settings.temperature !== undefined) body.temperature = settings.temperature;
  if (settings.topP !== undefined) body.top_p = settings.topP;
  if (settings.maxOutputTokens !== undefined) {
    // Compatible servers know the older `max_tokens` (deprecated by OpenAI, hence the index).
    if (options.compatible) extra['max_tokens'] = settings.maxOutputTokens;
    else body.max_completion_tokens = settings.maxOutputTokens;
  }
  if (settings.stopSequences !== undefined && settings.stopSequences.length > 0) {
    body.stop = [...settings.stopSequences];
  }
  // `seed` is marked deprecated (beta) by OpenAI but still honoured, and by compatible servers.
  if (settings.seed !== undefined) extra['seed'] = settings.seed;
  if (settings.reasoning?.effort !== undefined) body.reasoning_effort = settings.reasoning.effort;
  if (options.compatible && settings.topK !== undefined) extra['top_k'] = settings.topK;
  return Object.assign(body, extra, settings.additionalParams);
}

function appendMessage(messages: ChatCompletionMessageParam[], message: Message): void {
  if (message.speaker === 'ai') {
    appendAssistant(messages, message);
    return;
  }
  const parts: ChatCompletionContentPart[] = [];
  for (const block of message.blocks) {
    switch (block.type) {
      case 'text':
        parts.push({ type: 'text', text: block.text });
        break;
      case 'media':
        parts.push(mediaPart(block));
        break;
      case 'tool_response':
        messages.push({ role: 'tool', tool_call_id: block.callId, content: toolResultText(block) });
        break;
      case 'tool_call':
      case 'thinking':
        // A tool call or reasoning outside an `ai` message has no Chat Completions form.
        break;
    }
  }
  if (parts.length === 0) return;
  const only = parts.length === 1 ? parts[0] : undefined;
  messages.push({ role: 'user', content: only?.type === 'text' ? only.text : parts });
}

function appendAssistant(messages: ChatCompletionMessageParam[], message: Message): void {
  let content = '';
  let hasText = false;
  const toolCalls: ChatCompletionMessageFunctionToolCall[] = [];
  for (const block of message.blocks) {
    if (block.type === 'text') {
      content += block.text;
      hasText = true;
    } else if (block.type === 'tool_call') {
      toolCalls.push({
        id: block.id,
        type: 'function',
        function: { name: block.name, arguments: stringifyToolArguments(block.parameters) },
      });
    }
    // Thinking has no Chat Completions input form; a tool response never belongs to the model.
  }
  if (!hasText && toolCalls.length === 0) return;
  const assistant: ChatCompletionAssistantMessageParam = {
    role: 'assistant',
    content: hasText ? content : null,
  };
  if (toolCalls.length > 0) assistant.tool_calls = toolCalls;
  messages.push(assistant);
}

function mediaPart(block: MediaBlock): ChatCompletionContentPart {
  const url = block.encoding === 'url' ? block.data : `data:${block.mimeType};base64,${block.data}`;
  if (block.mimeType.startsWith('image/')) return { type: 'image_url', image_url: { url } };
  if (block.mimeType === 'application/pdf' && block.encoding === 'base64') {
    return { type: 'file', file: { file_data: url, filename: 'document.pdf' } };
  }
  throw new ModelError({
    kind: 'invalid_request',
    provider: 'openai',
    message:
      `OpenAI Chat Completions cannot take a ${block.encoding} media block of type ` +
      `${block.mimeType}: send images (image/*) or base64 PDFs, or describe the media as text.`,
  });
}
