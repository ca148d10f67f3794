/**
 * Translation at the boundary of one dialect hook: the payload into the dialect's words, its
 * answer back into hookwire's, and Claude Code's `if` condition. hookwire's inside never sees a
 * foreign name.
 */
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import {
  HOOK_EVENT_ALIASES,
  HOOK_EVENT_NAMES,
  hookSpecificOutputShapes,
  type CombinedOutcome,
  type HookEventName,
} from '../../events/index.ts';
import {
  PATH_RULE_FAMILIES,
  analyzeShellCommand,
  findMatchingRule,
  parsePermissionRule,
} from '../../hooks/permissions/index.ts';
import { isJsonObject } from '../../wire/json-object.ts';
import { hookOutputCommonShape } from '../../wire/hook-decision.ts';
import { lazy } from '../../wire/lazy.ts';
import { DIALECTS } from './dialect.ts';
import type { EnvelopeFacts } from './dialect-contract.ts';
import type { ToolInputContext } from './tool-mapping.ts';
import {
  foreignToolInput,
  foreignToolName,
  hookwireToolInput,
  hookwireToolName,
  type DialectName,
  type TranslatedInput,
} from './vocabulary.ts';

type Fields = Readonly<Record<string, unknown>>;

/**
 * The payload fields of `event` as a dialect's hook reads them: `tool_name` and `tool_input`
 * (tool events, `PermissionRequest`) in its names and units, plus the fields it knows under
 * other names (the dialect's `payloadExtras`, e.g. Claude Code's `last_assistant_message` at
 * `SubagentStop`); Gemini CLI's model hooks get `llm_request` / `llm_response` in Gemini's
 * shapes (its `modelHooks`). Other fields are the same in every dialect.
 */
export function foreignPayload(
  dialect: DialectName,
  event: HookEventName,
  fields: Fields,
  context: ToolInputContext = {},
): Fields {
  const rules = DIALECTS[dialect];
  const model = rules.modelHooks;
  if (model?.events.has(event) === true) return model.payload(fields);
  const extras = rules.payloadExtras[event];
  const extended = extras === undefined ? fields : { ...fields, ...extras(fields) };
  const toolName = extended['tool_name'];
  if (typeof toolName !== 'string') return extended;
  return {
    ...extended,
    tool_name: foreignToolName(dialect, toolName),
    ...('tool_input' in extended
      ? {
          tool_input: foreignToolInput(dialect, toolName, extended['tool_input'], context),
        }
      : {}),
  };
}

/**
 * The payload a hook of `dialect` registered under `name` gets, when the dialect has payloads of
 * its own (`Dialect.envelope`: Copilot CLI's camelCase events, Cursor, Windsurf): rebuilt whole
 * from hookwire's complete payload. Otherwise the payload as is.
 */
export function foreignEnvelope(
  dialect: DialectName,
  name: string,
  event: HookEventName,
  payload: Fields,
  facts: EnvelopeFacts = {},
): Fields {
  const { envelope, claudePayload } = DIALECTS[dialect];
  if (envelope !== undefined) return envelope.payload(name, event, payload, facts);
  return claudePayload === undefined ? payload : claudePayload(name, payload);
}

/** A dialect hook's rewritten arguments (in its words) for hookwire's tool `toolName`. */
export function hookwireRewrite(
  dialect: DialectName,
  toolName: string,
  input: unknown,
): TranslatedInput {
  return hookwireToolInput(dialect, toolName, input);
}

// Claude Code's permission rules name a tool family: Edit covers every file-writing tool, Read
// every file-reading one (its reference: "Edit rules apply to all built-in tools that edit files").
const FAMILIES: Readonly<Record<string, readonly string[]>> = {
  edit_file: ['edit_file', 'write_file'],
  read_file: ['read_file', 'glob', 'grep'],
};

/**
 * Whether an `if` (a permission rule in the dialect's tool names, e.g. `Bash(rm *)`, or in
 * hookwire's when `dialect` is undefined, `shell(rm *)`;
 * `Edit(src/**)`, `Read(./.env)`) covers a call of hookwire's `toolName` with `args`. Commands
 * match when any of their simple commands does (`ls && rm -rf x` matches `Bash(rm *)`); paths
 * are resolved against the project directory. A rule that does not parse covers nothing (such a
 * hook is skipped at load time with a warning).
 */
export async function ifCovers(
  dialect: DialectName | undefined,
  condition: string,
  toolName: string,
  args: unknown,
  projectDir: string,
  ruleNames: 'dialect' | 'hookwire' = 'dialect',
): Promise<boolean> {
  const parsed = parsePermissionRule(condition);
  if (!parsed.ok) return false;
  const ruleTool =
    dialect === undefined || ruleNames === 'hookwire'
      ? parsed.rule.tool
      : hookwireToolName(dialect, parsed.rule.tool);
  // The tool families of Claude Code's rules hold for its hooks wherever they are written.
  // hookwire's own path rules cover their family too (`PATH_RULE_FAMILIES`), as permission rules do.
  const family = (dialect !== undefined
    ? FAMILIES[ruleTool]
    : parsed.rule.specifier !== undefined
      ? PATH_RULE_FAMILIES[ruleTool]
      : undefined) ?? [ruleTool];
  if (!family.includes(toolName)) return false;
  if (parsed.rule.specifier === undefined) return true;
  const input = isJsonObject(args) ? args : {};
  const command = typeof input['command'] === 'string' ? input['command'] : undefined;
  const path =
    typeof input['path'] === 'string'
      ? input['path']
      : typeof input['pattern'] === 'string' && toolName === 'glob'
        ? input['pattern']
        : undefined;
  const rule = { ...parsed.rule, tool: toolName };
  const context = { projectDir, homeDir: homedir() };
  if (command !== undefined) {
    const shell = await analyzeShellCommand(command);
    return findMatchingRule([rule], { toolName, command, shell }, context, 'any') !== undefined;
  }
  if (path !== undefined)
    return (
      findMatchingRule([rule], { toolName, paths: [resolve(projectDir, path)] }, context, 'any') !==
      undefined
    );
  return false;
}

/**
 * A dialect hook's JSON answer in hookwire's terms, ready for `normalizeForeignAnswer`: a Gemini
 * model hook's Gemini-shaped fields become v2 ones (the dialect's `modelHooks`); anything else as is.
 */
export function foreignAnswer(
  dialect: DialectName,
  event: HookEventName,
  value: Readonly<Record<string, unknown>>,
): Readonly<Record<string, unknown>> {
  const rules = DIALECTS[dialect];
  if (rules.envelope !== undefined) return rules.envelope.answer(event, value);
  const model = rules.modelHooks;
  if (model?.events.has(event) === true) return model.answer(event, value);
  // A profile's own name for the event (Augment's `PromptSubmit`) in `hookEventName` means it.
  const specific = value['hookSpecificOutput'];
  if (!isJsonObject(specific)) return value;
  const named = specific['hookEventName'];
  if (
    typeof named === 'string' &&
    named !== event &&
    Object.hasOwn(rules.events, named) &&
    rules.events[named] === event &&
    !(HOOK_EVENT_NAMES as readonly string[]).includes(named) &&
    !Object.hasOwn(HOOK_EVENT_ALIASES, named)
  )
    return { ...value, hookSpecificOutput: { ...specific, hookEventName: event } };
  return value;
}

/**
 * A dialect group's combined outcome laid over the v2 payload it was built from (`fields`): for
 * Gemini CLI's model hooks, text-only answers keep what the hook could not see
 * (`alignGeminiOutcome`); Claude Code's `PostToolUse` blocks keep the tool's output and feed the
 * reason back (`claudePostToolUseOutcome`); anything else as is.
 */
export function foreignOutcome(
  dialect: DialectName,
  event: HookEventName,
  fields: Fields,
  combined: CombinedOutcome,
): CombinedOutcome {
  if (blockIsFeedback(dialect, event)) return claudePostToolUseOutcome(combined);
  const model = DIALECTS[dialect].modelHooks;
  return model?.events.has(event) === true ? model.align(event, fields, combined) : combined;
}

/**
 * True where a dialect's block is feedback, not a denial: Claude Code's `PostToolUse` (the tool
 * already ran; see `claudePostToolUseOutcome`). The one place the rule lives: the outcome and
 * the verdict the text output prints both ask it.
 */
export function blockIsFeedback(dialect: string | undefined, event: HookEventName): boolean {
  if (dialect === undefined || !Object.hasOwn(DIALECTS, dialect)) return false;
  return DIALECTS[dialect as DialectName].feedbackBlocks?.has(event) === true;
}

/**
 * Claude Code's `PostToolUse` block (exit 2 with stderr, or `decision: "block"` with a reason):
 * the tool already ran, so Claude Code keeps its output and feeds the reason back to the model.
 * hookwire's own `PostToolUse` denial replaces the output with the reason; for Claude Code's
 * hooks the denial becomes context given with the kept output instead.
 */
function claudePostToolUseOutcome(combined: CombinedOutcome): CombinedOutcome {
  if (!combined.denied) return combined;
  return {
    ...combined,
    denied: false,
    denyReasons: [],
    additionalContexts: [
      ...combined.additionalContexts,
      ...combined.denyReasons.map((reason) => `PostToolUse hook feedback: ${reason}`),
    ],
  };
}

// Built on first use: reading the shape builds zod schemas, which a run no dialect hook answers never needs.
const commonFields = lazy(
  () => new Set([...Object.keys(hookOutputCommonShape()), 'hookSpecificOutput']),
);

/**
 * A dialect hook's JSON answer made decodable by hookwire's strict output schema: fields
 * hookwire does not implement are removed, each with a note (a guard's `permissionDecision`
 * and `decision` always survive); Claude Code's `permissionDecision: "defer"` (no decision: the
 * normal flow decides) is removed without a note. Types are still checked by the decoder.
 */
export function normalizeForeignAnswer(
  event: HookEventName,
  value: Readonly<Record<string, unknown>>,
): { readonly value: Readonly<Record<string, unknown>>; readonly notes: readonly string[] } {
  const notes: string[] = [];
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    if (commonFields().has(key)) out[key] = member;
    else notes.push(`ignored the answer field "${key}" (hookwire does not implement it)`);
  }
  const specific = out['hookSpecificOutput'];
  if (isJsonObject(specific)) {
    const known = new Set([...Object.keys(hookSpecificOutputShapes[event]), 'hookEventName']);
    const kept: Record<string, unknown> = {};
    for (const [key, member] of Object.entries(specific)) {
      if (key === 'permissionDecision' && member === 'defer') continue;
      if (known.has(key)) kept[key] = member;
      else
        notes.push(`ignored hookSpecificOutput.${key} (hookwire's ${event} does not implement it)`);
    }
    out['hookSpecificOutput'] = kept;
  }
  return { value: out, notes };
}
