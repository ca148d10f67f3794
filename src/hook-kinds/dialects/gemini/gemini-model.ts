/**
 * Gemini CLI's model hooks (`BeforeModel`, `AfterModel`, `BeforeToolSelection` in a Gemini file)
 * over hookwire's v2 wire, in three steps:
 *
 * 1. **Payload** (`geminiModelPayload`): the v2 `llm_request` / `llm_response` become the shapes
 *    of Gemini CLI's hook reference: `llm_request` = `{model, messages: [{role, content}],
 *    config, toolConfig: {mode: AUTO|ANY|NONE, allowedFunctionNames}}`, where `messages` are
 *    text only (Gemini's reference: "Non-text parts are filtered out for hooks"; the system
 *    instruction is the first message, role `system`; a message without text is left out), and
 *    `llm_response` = `{candidates: [{content: {role: "model", parts: [text…]}, finishReason}],
 *    usageMetadata}`. Tool names are Gemini's (`run_shell_command`, …).
 * 2. **Answer** (`geminiModelAnswer`, per hook, before the strict v2 decoder): Gemini's
 *    `hookSpecificOutput.llm_request` (`messages`, `config`, `toolConfig`, `model`),
 *    `llm_response` (`candidates`, or `text`) and BeforeToolSelection's `toolConfig` become v2
 *    fields: text-only `contents`, `settings`, `toolChoice` (tool names back in hookwire's words),
 *    a text-only response.
 * 3. **Alignment** (`alignGeminiOutcome`, on the group's combined outcome, with the v2 payload):
 *    text-only answers are laid over what hookwire sent, so nothing the hook could not see is
 *    lost. A message whose text is unchanged keeps its original content (tool calls, tool results,
 *    media, thinking); a changed one gets the new text in place of its text blocks, its other
 *    blocks kept; a removed one loses its text (and the content goes when nothing is left); a new
 *    one is inserted where the hook put it (matched by a longest common subsequence of role and
 *    text). A replacement response keeps the original's tool calls and thinking, and its finish
 *    reason unless the hook changed it. An answer that only echoes the request changes nothing.
 */
import type {
  ContentBlock,
  FinishReason,
  Message,
  ModelRequest,
  ModelResponse,
  Speaker,
  ToolChoice,
  ToolDeclaration,
} from '../../../content/index.ts';
import type { CombinedOutcome, HookEventName } from '../../../events/index.ts';
import type { HookLLMRequestOverride, HookLLMResponseOverride } from '../../../wire/index.ts';
import { isJsonObject } from '../../../wire/json-object.ts';
import { foreignToolName, hookwireToolName } from '../vocabulary.ts';
import { GEMINI_FINISH_REASONS } from '../../../content/gemini-finish-reasons.ts';

type Fields = Readonly<Record<string, unknown>>;

/** The events whose payloads and answers have Gemini CLI's own shapes. */
export const GEMINI_MODEL_EVENTS: ReadonlySet<HookEventName> = new Set([
  'BeforeModel',
  'AfterModel',
  'BeforeToolSelection',
]);

/** One message of Gemini's `LLMRequest`. */
interface GeminiMessage {
  readonly role: 'user' | 'model' | 'system';
  readonly content: string;
}

/** A message hookwire sends (system instructions go first, separately). */
interface SentMessage extends GeminiMessage {
  readonly role: 'user' | 'model';
}

const CONFIG_KEYS = ['temperature', 'maxOutputTokens', 'topP', 'topK', 'stopSequences', 'seed'];

const TO_GEMINI_MODE = { auto: 'AUTO', required: 'ANY', none: 'NONE' } as const;
const FROM_GEMINI_MODE: Readonly<Record<string, ToolChoice['mode']>> = {
  AUTO: 'auto',
  ANY: 'required',
  NONE: 'none',
  VALIDATED: 'auto',
};

const TO_GEMINI_FINISH: Readonly<Record<FinishReason, string>> = {
  stop: 'STOP',
  tool_calls: 'STOP',
  max_tokens: 'MAX_TOKENS',
  safety: 'SAFETY',
  refusal: 'SAFETY',
  error: 'OTHER',
  other: 'OTHER',
};

function roleOf(speaker: Speaker): 'user' | 'model' {
  return speaker === 'ai' ? 'model' : 'user';
}

function speakerOf(role: unknown): Speaker {
  return role === 'model' ? 'ai' : 'human';
}

function textOf(blocks: readonly ContentBlock[]): string {
  let result = '';
  for (const block of blocks) if (block.type === 'text') result += block.text;
  return result;
}

/** The text-bearing contents of a request as Gemini messages, each with its content's index. */
function sentMessages(
  contents: readonly Message[],
): { readonly message: SentMessage; readonly index: number }[] {
  const sent: { message: SentMessage; index: number }[] = [];
  contents.forEach((content, index) => {
    const text = textOf(content.blocks);
    if (text !== '')
      sent.push({ message: { role: roleOf(content.speaker), content: text }, index });
  });
  return sent;
}

function geminiToolConfig(
  choice: ToolChoice | undefined,
  tools: readonly ToolDeclaration[] | undefined,
): { mode: string; allowedFunctionNames: string[] } {
  const names = choice?.allowedToolNames ?? (tools ?? []).map((tool) => tool.name);
  return {
    mode: TO_GEMINI_MODE[choice?.mode ?? 'auto'],
    allowedFunctionNames: names.map((name) => foreignToolName('gemini', name)),
  };
}

/** A v2 request in the shape of Gemini CLI's `LLMRequest`. */
function geminiRequest(request: ModelRequest): Fields {
  const settings = request.settings ?? {};
  const messages: GeminiMessage[] = [];
  if (settings.systemInstruction !== undefined && settings.systemInstruction !== '')
    messages.push({ role: 'system', content: settings.systemInstruction });
  for (const { message } of sentMessages(request.contents)) messages.push(message);
  const config: Record<string, unknown> = {};
  const source = settings as Readonly<Record<string, unknown>>;
  for (const key of CONFIG_KEYS) if (source[key] !== undefined) config[key] = source[key];
  return {
    model: request.model,
    messages,
    config,
    toolConfig: geminiToolConfig(settings.toolChoice, request.tools),
  };
}

/** A v2 response in the shape of Gemini CLI's `LLMResponse` (text parts only). */
function geminiResponse(response: ModelResponse): Fields {
  const parts: string[] = [];
  for (const block of response.content.blocks) if (block.type === 'text') parts.push(block.text);
  const usage = response.usage;
  return {
    candidates: [
      {
        content: { role: 'model', parts },
        ...(response.finishReason === undefined
          ? {}
          : { finishReason: TO_GEMINI_FINISH[response.finishReason] }),
      },
    ],
    ...(usage === undefined
      ? {}
      : {
          usageMetadata: {
            ...(usage.promptTokens === undefined ? {} : { promptTokenCount: usage.promptTokens }),
            ...(usage.completionTokens === undefined
              ? {}
              : { candidatesTokenCount: usage.completionTokens }),
            ...(usage.totalTokens === undefined ? {} : { totalTokenCount: usage.totalTokens }),
          },
        }),
  };
}

/** Step 1: the payload fields of a Gemini model hook (see the module comment). */
export function geminiModelPayload(fields: Fields): Fields {
  const result: Record<string, unknown> = { ...fields };
  const request = fields['llm_request'];
  if (isJsonObject(request))
    result['llm_request'] = geminiRequest(request as unknown as ModelRequest);
  const response = fields['llm_response'];
  if (isJsonObject(response))
    result['llm_response'] = geminiResponse(response as unknown as ModelResponse);
  return result;
}

function messageText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    let text = '';
    for (const part of content)
      if (typeof part === 'string') text += part;
      else if (isJsonObject(part) && typeof part['text'] === 'string') text += part['text'];
    return text;
  }
  return undefined;
}

/** A Gemini tool name in hookwire's words, matched case-insensitively (`Run_Shell_Command`). */
function hookwireName(name: string): string {
  const exact = hookwireToolName('gemini', name);
  if (exact !== name) return exact;
  const folded = name.toLowerCase();
  const mapped = hookwireToolName('gemini', folded);
  return mapped === folded ? name : mapped;
}

function toolChoiceFrom(config: unknown): ToolChoice | undefined {
  if (!isJsonObject(config)) return undefined;
  const mode = typeof config['mode'] === 'string' ? FROM_GEMINI_MODE[config['mode']] : undefined;
  const names = config['allowedFunctionNames'];
  const allowed = Array.isArray(names)
    ? names.filter((name): name is string => typeof name === 'string')
    : undefined;
  if (mode === undefined && allowed === undefined) return undefined;
  return {
    mode: mode ?? 'auto',
    ...(allowed === undefined ? {} : { allowedToolNames: allowed.map(hookwireName) }),
  };
}

/** Gemini's `llm_request` override as a v2 one (text-only contents; aligned in step 3). */
function requestOverride(value: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value))
    if (key !== 'messages' && key !== 'config' && key !== 'toolConfig') out[key] = member;
  const settings: Record<string, unknown> = isJsonObject(value['settings'])
    ? { ...value['settings'] }
    : {};
  const messages = value['messages'];
  if (Array.isArray(messages)) {
    const contents: Message[] = [];
    const system: string[] = [];
    for (const message of messages) {
      if (!isJsonObject(message)) continue;
      const text = messageText(message['content']);
      if (text === undefined) continue;
      if (message['role'] === 'system') system.push(text);
      else contents.push({ speaker: speakerOf(message['role']), blocks: [{ type: 'text', text }] });
    }
    out['contents'] = contents;
    if (system.length > 0) settings['systemInstruction'] = system.join('\n');
  }
  const config = value['config'];
  if (isJsonObject(config))
    for (const key of CONFIG_KEYS) if (config[key] !== undefined) settings[key] = config[key];
  const choice = toolChoiceFrom(value['toolConfig']);
  if (choice !== undefined) settings['toolChoice'] = choice;
  if (Object.keys(settings).length > 0) out['settings'] = settings;
  return out;
}

/** Gemini's `LLMResponse` as a v2 response override (text only). */
function responseOverride(value: Readonly<Record<string, unknown>>): Record<string, unknown> {
  if ('content' in value && !('candidates' in value)) return { ...value }; // already v2
  const candidates = Array.isArray(value['candidates']) ? value['candidates'] : [];
  const first: unknown = candidates[0];
  const candidate = isJsonObject(first) ? first : {};
  const content = isJsonObject(candidate['content']) ? candidate['content'] : {};
  const parts = Array.isArray(content['parts']) ? content['parts'] : [];
  const texts: string[] = [];
  for (const part of parts)
    if (typeof part === 'string') texts.push(part);
    else if (isJsonObject(part) && typeof part['text'] === 'string') texts.push(part['text']);
  if (texts.length === 0 && typeof value['text'] === 'string') texts.push(value['text']);
  const raw = candidate['finishReason'];
  return {
    content: { speaker: 'ai', blocks: texts.map((text) => ({ type: 'text', text })) },
    ...(typeof raw === 'string' ? GEMINI_FINISH_REASONS.map(raw) : {}),
  };
}

/**
 * Step 2: a Gemini model hook's JSON answer with its Gemini-shaped `hookSpecificOutput` fields
 * as v2 ones; anything else is left for the strict decoder.
 */
export function geminiModelAnswer(
  event: HookEventName,
  value: Readonly<Record<string, unknown>>,
): Readonly<Record<string, unknown>> {
  const specific = value['hookSpecificOutput'];
  if (!isJsonObject(specific)) return value;
  const out: Record<string, unknown> = { ...specific };
  if (isJsonObject(specific['llm_request']))
    out['llm_request'] = requestOverride(specific['llm_request']);
  if (isJsonObject(specific['llm_response']))
    out['llm_response'] = responseOverride(specific['llm_response']);
  if (event === 'BeforeToolSelection' && 'toolConfig' in specific) {
    delete out['toolConfig'];
    const choice = toolChoiceFrom(specific['toolConfig']);
    if (choice !== undefined) out['toolChoice'] = choice;
  }
  return { ...value, hookSpecificOutput: out };
}

const key = (speaker: Speaker | 'user' | 'model', text: string): string =>
  `${speaker === 'ai' || speaker === 'model' ? 'model' : 'user'}\u0000${text}`;

/** Pairs of equal items (longest common subsequence), as index pairs in order. */
function commonSubsequence(
  left: readonly string[],
  right: readonly string[],
): (readonly [number, number])[] {
  let start = 0;
  while (start < left.length && start < right.length && left[start] === right[start]) start++;
  let endLeft = left.length;
  let endRight = right.length;
  while (endLeft > start && endRight > start && left[endLeft - 1] === right[endRight - 1]) {
    endLeft--;
    endRight--;
  }
  const pairs: (readonly [number, number])[] = [];
  for (let index = 0; index < start; index++) pairs.push([index, index]);
  const rows = endLeft - start;
  const columns = endRight - start;
  if (rows > 0 && columns > 0) {
    // lengths[i * width + j]: the LCS of left[start+i..] and right[start+j..]
    const width = columns + 1;
    const lengths = new Uint32Array((rows + 1) * width);
    const at = (i: number, j: number): number => lengths[i * width + j] ?? 0;
    for (let i = rows - 1; i >= 0; i--)
      for (let j = columns - 1; j >= 0; j--)
        lengths[i * width + j] =
          left[start + i] === right[start + j]
            ? at(i + 1, j + 1) + 1
            : Math.max(at(i + 1, j), at(i, j + 1));
    let i = 0;
    let j = 0;
    while (i < rows && j < columns) {
      if (left[start + i] === right[start + j]) {
        pairs.push([start + i, start + j]);
        i++;
        j++;
      } else if (at(i + 1, j) >= at(i, j + 1)) i++;
      else j++;
    }
  }
  for (let offset = 0; offset < left.length - endLeft; offset++)
    pairs.push([endLeft + offset, endRight + offset]);
  return pairs;
}

/** A content with its text blocks replaced by `text` (at the first one's place), others kept. */
function withText(content: Message, text: string | undefined): Message | undefined {
  const blocks: ContentBlock[] = [];
  let placed = text === undefined;
  for (const block of content.blocks) {
    if (block.type !== 'text') blocks.push(block);
    else if (!placed) {
      blocks.push({ type: 'text', text: text ?? '' });
      placed = true;
    }
  }
  if (blocks.length === 0) return undefined;
  return { ...content, blocks };
}

/** The hook's text-only contents laid over the contents hookwire sent (see the module comment). */
function alignContents(
  original: readonly Message[],
  answered: readonly Message[],
): readonly Message[] | undefined {
  const sent = sentMessages(original);
  const sentKeys = sent.map(({ message }) => key(message.role, message.content));
  const answeredKeys = answered.map((content) => key(content.speaker, textOf(content.blocks)));
  const pairs = commonSubsequence(sentKeys, answeredKeys);
  if (pairs.length === sent.length && pairs.length === answered.length) return undefined;
  // For each sent message: its replacement text (undefined = removed), and the new messages
  // inserted before it (index sent.length: after the last).
  const replacement = new Map<number, string | undefined>();
  const inserted = new Map<number, Message[]>();
  let previousSent = 0;
  let previousAnswered = 0;
  const gap = (untilSent: number, untilAnswered: number): void => {
    let s = previousSent;
    let a = previousAnswered;
    for (; a < untilAnswered; a++) {
      const message = answered[a];
      if (message === undefined) break;
      if (s < untilSent) replacement.set(s++, textOf(message.blocks));
      else {
        const list = inserted.get(untilSent) ?? [];
        list.push(message);
        inserted.set(untilSent, list);
      }
    }
    for (; s < untilSent; s++) replacement.set(s, undefined);
  };
  for (const [s, a] of pairs) {
    gap(s, a);
    previousSent = s + 1;
    previousAnswered = a + 1;
  }
  gap(sent.length, answered.length);
  const bySentIndex = new Map(sent.map((entry, position) => [entry.index, position]));
  const result: Message[] = [];
  original.forEach((content, index) => {
    const position = bySentIndex.get(index);
    if (position === undefined) {
      result.push(content);
      return;
    }
    for (const message of inserted.get(position) ?? []) result.push(message);
    if (!replacement.has(position)) result.push(content);
    else {
      const replaced = withText(content, replacement.get(position));
      if (replaced !== undefined) result.push(replaced);
    }
  });
  for (const message of inserted.get(sent.length) ?? []) result.push(message);
  return result;
}

function sameChoice(left: unknown, right: ToolChoice | undefined): boolean {
  return JSON.stringify(left ?? null) === JSON.stringify(right ?? null);
}

/** The request override with what only echoes `request` removed; `undefined` when nothing is left. */
function alignRequest(
  request: ModelRequest,
  override: HookLLMRequestOverride,
): HookLLMRequestOverride | undefined {
  const result: Record<string, unknown> = {};
  if (override.model !== undefined && override.model !== request.model)
    result['model'] = override.model;
  if (override.tools !== undefined) result['tools'] = override.tools;
  if (override.contents !== undefined) {
    const contents = alignContents(request.contents, override.contents);
    if (contents !== undefined) result['contents'] = contents;
  }
  if (override.settings !== undefined) {
    const base = (request.settings ?? {}) as Readonly<Record<string, unknown>>;
    const settings: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(override.settings)) {
      if (name === 'toolChoice') {
        const sent = geminiToolConfig(request.settings?.toolChoice, request.tools);
        const echoed = toolChoiceFrom(sent);
        if (sameChoice(value, echoed)) continue;
      } else if (JSON.stringify(value) === JSON.stringify(base[name])) continue;
      settings[name] = value;
    }
    if (Object.keys(settings).length > 0) result['settings'] = settings;
  }
  return Object.keys(result).length === 0 ? undefined : result;
}

/** A text-only replacement laid over the original response; `undefined` when it changes nothing. */
function alignResponse(
  response: ModelResponse,
  override: HookLLMResponseOverride,
): HookLLMResponseOverride | undefined {
  const texts = override.content.blocks.filter((block) => block.type === 'text');
  const originalTexts = response.content.blocks.filter((block) => block.type === 'text');
  const sameText =
    texts.length === originalTexts.length &&
    texts.every((block, index) => block.text === originalTexts[index]?.text);
  const sentFinish =
    response.finishReason === undefined ? undefined : TO_GEMINI_FINISH[response.finishReason];
  const finishChanged =
    override.rawStopReason !== undefined && override.rawStopReason !== sentFinish;
  if (sameText && !finishChanged) return undefined;
  const blocks: ContentBlock[] = [];
  let placed = false;
  for (const block of response.content.blocks) {
    if (block.type !== 'text') blocks.push(block);
    else if (!placed) {
      blocks.push(...texts);
      placed = true;
    }
  }
  if (!placed) blocks.unshift(...texts);
  return {
    content: { ...response.content, blocks },
    ...(finishChanged
      ? {
          ...(override.finishReason === undefined ? {} : { finishReason: override.finishReason }),
          rawStopReason: override.rawStopReason,
        }
      : {}),
  };
}

/**
 * Step 3: a Gemini model hook group's combined outcome laid over the v2 payload hookwire built
 * (`fields`): contents aligned, echoes dropped, a replacement response keeping the original's
 * non-text blocks.
 */
export function alignGeminiOutcome(
  event: HookEventName,
  fields: Fields,
  combined: CombinedOutcome,
): CombinedOutcome {
  const request = fields['llm_request'] as ModelRequest | undefined;
  let result = combined;
  if (event === 'BeforeModel' && request !== undefined && combined.llmRequest !== undefined) {
    const { llmRequest: _dropped, ...rest } = combined;
    const aligned = alignRequest(request, combined.llmRequest);
    result = aligned === undefined ? rest : { ...rest, llmRequest: aligned };
  }
  const response = fields['llm_response'] as ModelResponse | undefined;
  if (event === 'AfterModel' && response !== undefined && combined.llmResponse !== undefined) {
    const { llmResponse: _dropped, ...rest } = result;
    const aligned = alignResponse(response, combined.llmResponse);
    result = aligned === undefined ? rest : { ...rest, llmResponse: aligned };
  }
  return result;
}
