/**
 * The AI SDK's call options (`LanguageModelV4CallOptions`) as hookwire's neutral `ModelRequest`
 * (what `BeforeModel` / `BeforeToolSelection` hooks see as `llm_request`), and a changed neutral
 * request back onto the call options.
 *
 * Going back starts from the original options and changes only what a hook changed (compared
 * with the neutral request the hooks were shown), so everything the neutral model does not
 * carry — headers, abort signal, response format, penalties, raw chunks — passes through.
 *
 * Settings: `temperature`, `maxOutputTokens`, `topP`, `topK`, `stopSequences`, `seed` map one to
 * one; the system messages are `systemInstruction`; `reasoning` maps the effort levels both
 * sides know (`minimal` … `high`); `toolChoice` `{type: 'tool', toolName}` reads as
 * `{mode: 'required', allowedToolNames: [toolName]}`; `additionalParams` is the call's
 * `providerOptions` (keyed by provider, as the AI SDK takes them).
 */
import type {
  LanguageModelV4CallOptions,
  LanguageModelV4FunctionTool,
  LanguageModelV4ProviderTool,
  LanguageModelV4ToolChoice,
  SharedV4ProviderOptions,
} from '@ai-sdk/provider';
import type {
  GenerationSettings,
  ModelRequest,
  ReasoningSettings,
  ToolChoice,
  ToolDeclaration,
} from '../../content/index.ts';
import { fromAiSdkPrompt, systemInstructionOf, toAiSdkPrompt } from './ai-sdk-prompt.ts';

type CallTool = LanguageModelV4FunctionTool | LanguageModelV4ProviderTool;
type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const EFFORTS = new Set(['minimal', 'low', 'medium', 'high']);

/** A tool of the call as a neutral declaration (a provider tool: its name and its arguments). */
function declarationOf(tool: CallTool): ToolDeclaration {
  if (tool.type === 'function') {
    return {
      name: tool.name,
      ...(tool.description === undefined ? {} : { description: tool.description }),
      parameters: tool.inputSchema as Readonly<Record<string, unknown>>,
    };
  }
  return { name: tool.name, description: `provider tool ${tool.id}`, parameters: {} };
}

/** The AI SDK tool choice as the neutral one. */
export function fromAiSdkToolChoice(choice: LanguageModelV4ToolChoice): ToolChoice {
  return choice.type === 'tool'
    ? { mode: 'required', allowedToolNames: [choice.toolName] }
    : { mode: choice.type };
}

/** The neutral tool choice as the AI SDK's (the tool list is filtered separately). */
export function toAiSdkToolChoice(choice: ToolChoice): LanguageModelV4ToolChoice {
  const only = choice.allowedToolNames;
  if (choice.mode === 'required' && only?.length === 1 && only[0] !== undefined)
    return { type: 'tool', toolName: only[0] };
  return { type: choice.mode };
}

/**
 * The neutral request of a call: `modelId` as the model, the prompt's messages as `contents`,
 * the call's tools as `tools` (omitted when there are none), and its settings.
 */
export function fromAiSdkCallOptions(
  modelId: string,
  params: LanguageModelV4CallOptions,
): ModelRequest {
  const settings: Mutable<GenerationSettings> = {};
  const system = systemInstructionOf(params.prompt);
  if (system !== undefined) settings.systemInstruction = system;
  if (params.temperature !== undefined) settings.temperature = params.temperature;
  if (params.maxOutputTokens !== undefined) settings.maxOutputTokens = params.maxOutputTokens;
  if (params.topP !== undefined) settings.topP = params.topP;
  if (params.topK !== undefined) settings.topK = params.topK;
  if (params.stopSequences !== undefined) settings.stopSequences = params.stopSequences;
  if (params.seed !== undefined) settings.seed = params.seed;
  if (params.toolChoice !== undefined) settings.toolChoice = fromAiSdkToolChoice(params.toolChoice);
  if (params.reasoning !== undefined && EFFORTS.has(params.reasoning))
    settings.reasoning = { effort: params.reasoning as NonNullable<ReasoningSettings['effort']> };
  if (params.providerOptions !== undefined) settings.additionalParams = params.providerOptions;
  const request: Mutable<ModelRequest> = {
    model: modelId,
    contents: fromAiSdkPrompt(params.prompt),
  };
  if (params.tools !== undefined && params.tools.length > 0)
    request.tools = params.tools.map(declarationOf);
  if (Object.keys(settings).length > 0) request.settings = settings;
  return request;
}

function sameTool(tool: CallTool, declaration: ToolDeclaration): boolean {
  if (tool.type === 'provider') return true;
  return (
    tool.description === declaration.description &&
    (tool.inputSchema as unknown) === declaration.parameters
  );
}

/** The patched tool list, reusing the call's own tool objects where a declaration is unchanged. */
function toolsFor(
  original: readonly CallTool[] | undefined,
  declarations: readonly ToolDeclaration[],
): CallTool[] {
  const byName = new Map((original ?? []).map((tool) => [tool.name, tool]));
  return declarations.map((declaration): CallTool => {
    const known = byName.get(declaration.name);
    if (known !== undefined && sameTool(known, declaration)) return known;
    return {
      type: 'function',
      name: declaration.name,
      ...(declaration.description === undefined ? {} : { description: declaration.description }),
      inputSchema: declaration.parameters,
    };
  });
}

/**
 * The call options for `patched`, a change of `shown` (the request hooks were shown, from
 * `fromAiSdkCallOptions(params)`): `params` with what differs applied. A field the hooks did not
 * touch keeps the original value exactly (the same object).
 */
export function toAiSdkCallOptions(
  params: LanguageModelV4CallOptions,
  shown: ModelRequest,
  patched: ModelRequest,
): LanguageModelV4CallOptions {
  if (patched === shown) return params;
  const next: Mutable<LanguageModelV4CallOptions> = { ...params };
  const before = shown.settings ?? {};
  const after = patched.settings ?? {};

  if (patched.contents !== shown.contents) {
    next.prompt = toAiSdkPrompt(patched.contents, after.systemInstruction);
  } else if (after.systemInstruction !== before.systemInstruction) {
    next.prompt = toAiSdkPrompt([], after.systemInstruction).concat(
      params.prompt.filter((entry) => entry.role !== 'system'),
    );
  }

  if (patched.tools !== shown.tools) {
    if (patched.tools === undefined || patched.tools.length === 0) delete next.tools;
    else next.tools = toolsFor(params.tools, patched.tools);
  }

  const scalar = (key: 'temperature' | 'maxOutputTokens' | 'topP' | 'topK' | 'seed'): void => {
    if (after[key] === before[key]) return;
    const value = after[key];
    if (value === undefined) Reflect.deleteProperty(next, key);
    else next[key] = value;
  };
  scalar('temperature');
  scalar('maxOutputTokens');
  scalar('topP');
  scalar('topK');
  scalar('seed');
  if (after.stopSequences !== before.stopSequences) {
    if (after.stopSequences === undefined) delete next.stopSequences;
    else next.stopSequences = [...after.stopSequences];
  }
  if (after.reasoning !== before.reasoning) {
    const effort = after.reasoning?.effort;
    if (effort !== undefined) next.reasoning = effort;
  }
  if (after.additionalParams !== before.additionalParams) {
    if (after.additionalParams === undefined) delete next.providerOptions;
    else next.providerOptions = after.additionalParams as SharedV4ProviderOptions;
  }
  if (after.toolChoice !== before.toolChoice) {
    if (after.toolChoice === undefined) delete next.toolChoice;
    else next.toolChoice = toAiSdkToolChoice(after.toolChoice);
  }
  return next;
}
