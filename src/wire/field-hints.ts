/**
 * What to say about a field or value a decoder does not accept: the v1 (Gemini-shaped) wire names
 * and their v2 replacements, and the usual near-misses (`'user'` for `'human'`, `'STOP'` for
 * `'stop'`). Lookups go through `Map`s, so a key such as `'constructor'` finds nothing.
 */
import { FINISH_REASONS } from '../content/finish-reason.ts';
import { SPEAKERS } from '../content/blocks.ts';

/** A field hookwire does not read, and the field to use instead. */
export interface FieldReplacement {
  readonly replacement: string;
  readonly message: string;
}

const v1 = (field: string, replacement: string, detail: string): [string, FieldReplacement] => [
  field,
  {
    replacement,
    message: `\`${field}\` is a v1 field; the v2 wire uses \`${replacement}\` (${detail})`,
  },
];

const near = (field: string, replacement: string, detail: string): [string, FieldReplacement] => [
  field,
  { replacement, message: `unknown field \`${field}\`: use \`${replacement}\` (${detail})` },
];

/** v1 → v2 field renames: the migration table of the v2 wire. */
export const V1_FIELD_REPLACEMENTS: ReadonlyMap<string, FieldReplacement> = new Map([
  v1('messages', 'contents', 'an array of {speaker, blocks} messages'),
  v1('candidates', 'content', 'one {speaker: "ai", blocks} message'),
  v1('toolConfig', 'toolChoice', '{mode: "auto" | "required" | "none", allowedToolNames?}'),
  v1('allowedFunctionNames', 'allowedToolNames', 'an allowlist of tool names'),
  v1('parts', 'blocks', 'typed blocks such as {type: "text", text}'),
  v1('role', 'speaker', '"human", "ai" or "tool"'),
  v1('config', 'settings', 'temperature, maxOutputTokens, toolChoice, …'),
  v1('generationConfig', 'settings', 'temperature, maxOutputTokens, toolChoice, …'),
  v1('usageMetadata', 'usage', 'promptTokens, completionTokens, totalTokens, …'),
  v1('functionDeclarations', 'tools', 'an array of {name, description?, parameters}'),
]);

// Near-misses that are not v1 renames but have one obvious fix.
const nearMisses: ReadonlyMap<string, FieldReplacement> = new Map([
  near('args', 'parameters', 'a tool_call block carries its arguments in `parameters`'),
  near('arguments', 'parameters', 'a tool_call block carries its arguments in `parameters`'),
]);

/** The replacement for an unknown field, when there is a well-known one. */
export function unknownFieldHint(field: string): FieldReplacement | undefined {
  return V1_FIELD_REPLACEMENTS.get(field) ?? nearMisses.get(field);
}

const speakerSuggestions: ReadonlyMap<string, string> = new Map([
  ['user', 'use `human` (v1 role `user`)'],
  ['model', 'use `ai` (v1 role `model`)'],
  ['assistant', 'use `ai`'],
  ['function', 'use `tool`'],
  ['system', 'system instructions are not messages: put them in `settings.systemInstruction`'],
]);

/** The message for a value that is not a speaker. */
export function speakerMessage(value: unknown): string {
  const allowed = SPEAKERS.join(', ');
  if (value === undefined) return `required field is missing: one of ${allowed}`;
  const suggestion = typeof value === 'string' ? speakerSuggestions.get(value) : undefined;
  const head = `${JSON.stringify(value)} is not a speaker`;
  return suggestion === undefined
    ? `${head}; expected one of ${allowed}`
    : `${head}: ${suggestion}; speakers are ${allowed}`;
}

const finishReasonSuggestions: ReadonlyMap<string, string> = new Map([
  ['STOP', 'stop'],
  ['end_turn', 'stop'],
  ['stop_sequence', 'stop'],
  ['MAX_TOKENS', 'max_tokens'],
  ['length', 'max_tokens'],
  ['tool_use', 'tool_calls'],
  ['tool-calls', 'tool_calls'],
  ['function_call', 'tool_calls'],
  ['SAFETY', 'safety'],
  ['RECITATION', 'safety'],
  ['BLOCKLIST', 'safety'],
  ['PROHIBITED_CONTENT', 'safety'],
  ['SPII', 'safety'],
  ['content_filter', 'safety'],
  ['OTHER', 'other'],
]);

/** The message for a value that is not a canonical finish reason. */
export function finishReasonMessage(value: unknown): string {
  const allowed = FINISH_REASONS.join(', ');
  const suggestion = typeof value === 'string' ? finishReasonSuggestions.get(value) : undefined;
  const head = `${JSON.stringify(value)} is not a canonical finish reason`;
  return suggestion === undefined
    ? `${head}; expected one of ${allowed} (keep a provider's own word in \`rawStopReason\`)`
    : `${head}: use \`${suggestion}\` and keep ${JSON.stringify(value)} in \`rawStopReason\` (canonical: ${allowed})`;
}

const toolChoiceModeSuggestions: ReadonlyMap<string, string> = new Map([
  ['AUTO', 'auto'],
  ['ANY', 'required'],
  ['any', 'required'],
  ['NONE', 'none'],
  ['REQUIRED', 'required'],
  ['VALIDATED', 'auto'],
]);

/** The message for a value that is not a tool-choice mode. */
export function toolChoiceModeMessage(value: unknown): string {
  if (value === undefined) return 'required field is missing: one of auto, required, none';
  const suggestion = typeof value === 'string' ? toolChoiceModeSuggestions.get(value) : undefined;
  const head = `${JSON.stringify(value)} is not a tool-choice mode`;
  return suggestion === undefined
    ? `${head}; expected one of auto, required, none`
    : `${head}: use \`${suggestion}\` (v1 modes AUTO/ANY/NONE are auto/required/none in v2)`;
}
