/**
 * The vocabularies of the other tools whose hooks hookwire runs unchanged: per dialect, the names
 * of hookwire's built-in tools in that tool's own words, and the names (and units) of their
 * arguments. Applied both ways at the boundary of one hook: the payload a foreign hook reads is
 * translated from hookwire's names into its own (`tool_name`, `tool_input`, the matcher's
 * target), and what it answers (`updatedInput`, Gemini's `hookSpecificOutput.tool_input`) is
 * translated back, dropping, with a note, fields hookwire's tool does not take. A tool with no
 * counterpart (MCP tools, tools an embedding adds) keeps its hookwire name and fields.
 *
 * Claude Code's table lives in `claude/claude-tools.ts`; the Claude-shaped profiles
 * (`claude-shaped/`) derive theirs from it. The Claude Agent SDK bridge
 * (`src/adapters/claude-agent-sdk/claude-code-names.ts`) reads the same Claude Code table here.
 */

import type { DialectName } from './dialect-names.ts';
import type { ToolInputContext, ToolMapping, ToolTable } from './tool-mapping.ts';
import { filePath } from './tool-mapping.ts';
import { CLAUDE_TOOLS, CLAUDE_TOOLS_WITHOUT_COUNTERPART } from './claude/claude-tools.ts';
import { CLAUDE_PROFILES, profileToolTable, type ClaudeProfile } from './claude-shaped/profiles.ts';
import { COPILOT_TOOLS, COPILOT_TOOLS_WITHOUT_COUNTERPART } from './copilot/copilot-tools.ts';
import { CURSOR_TOOLS, CURSOR_TOOLS_WITHOUT_COUNTERPART } from './cursor/cursor-tools.ts';
import { WINDSURF_TOOLS } from './windsurf/windsurf-tools.ts';

export { DIALECT_NAMES, type DialectName } from './dialect-names.ts';
export type { ToolMapping } from './tool-mapping.ts';

/** The hookwire arguments each built-in tool takes (its JSON Schema's properties). */
export const BUILTIN_TOOL_ARGUMENTS: Readonly<Record<string, readonly string[]>> = {
  shell: ['command', 'timeout', 'description'],
  read_file: ['path'],
  write_file: ['path', 'content'],
  edit_file: ['path', 'old_string', 'new_string'],
  glob: ['pattern'],
  grep: ['pattern', 'path'],
  agent: ['description', 'prompt', 'agent_type'],
};

/** Gemini CLI's names. hookwire name → mapping. */
const GEMINI_TOOLS: ToolTable = {
  shell: { name: 'run_shell_command', fields: {}, foreignOnly: ['dir_path', 'directory'] },
  read_file: {
    name: 'read_file',
    fields: filePath,
    foreignOnly: ['offset', 'limit', 'start_line', 'end_line', 'absolute_path'],
  },
  write_file: { name: 'write_file', fields: filePath, foreignOnly: [] },
  edit_file: {
    name: 'replace',
    fields: filePath,
    foreignOnly: ['expected_replacements', 'instruction'],
  },
  glob: {
    name: 'glob',
    fields: {},
    foreignOnly: ['dir_path', 'path', 'case_sensitive', 'respect_git_ignore'],
  },
  grep: { name: 'grep_search', fields: { path: { name: 'dir_path' } }, foreignOnly: ['include'] },
};

const TABLES: Readonly<Record<DialectName, ToolTable>> = {
  claude: CLAUDE_TOOLS,
  gemini: GEMINI_TOOLS,
  codex: CLAUDE_TOOLS,
  kimi: CLAUDE_TOOLS,
  copilot: COPILOT_TOOLS,
  cursor: CURSOR_TOOLS,
  windsurf: WINDSURF_TOOLS,
  factory: profileToolTable(CLAUDE_PROFILES.factory),
  augment: profileToolTable(CLAUDE_PROFILES.augment),
  codebuddy: profileToolTable(CLAUDE_PROFILES.codebuddy),
  qwen: profileToolTable(CLAUDE_PROFILES.qwen),
};

/**
 * Tools of the dialect that hookwire has no counterpart of: a matcher naming only these never
 * matches a built-in tool (listed so `hooks import` can say so, and `README` documents them).
 */
export const TOOLS_WITHOUT_COUNTERPART: Readonly<Record<DialectName, readonly string[]>> = {
  claude: CLAUDE_TOOLS_WITHOUT_COUNTERPART,
  gemini: ['list_directory', 'read_many_files', 'web_fetch', 'google_web_search', 'save_memory'],
  codex: ['apply_patch'],
  kimi: [],
  copilot: COPILOT_TOOLS_WITHOUT_COUNTERPART,
  cursor: CURSOR_TOOLS_WITHOUT_COUNTERPART,
  windsurf: [],
  factory: CLAUDE_PROFILES.factory.toolsWithoutCounterpart,
  augment: CLAUDE_PROFILES.augment.toolsWithoutCounterpart,
  codebuddy: CLAUDE_PROFILES.codebuddy.toolsWithoutCounterpart,
  qwen: CLAUDE_PROFILES.qwen.toolsWithoutCounterpart,
};

/** How the dialect's matchers name every MCP tool (see `ClaudeProfile.mcpMatcherPrefix`). */
export function mcpMatcherPrefix(dialect: DialectName): string | undefined {
  return Object.hasOwn(CLAUDE_PROFILES, dialect)
    ? (CLAUDE_PROFILES[dialect as keyof typeof CLAUDE_PROFILES] as ClaudeProfile).mcpMatcherPrefix
    : undefined;
}

/** The dialect's table: hookwire tool name → mapping. */
export function toolTable(dialect: DialectName): Readonly<Record<string, ToolMapping>> {
  return TABLES[dialect];
}

/** hookwire's tool name in the dialect's words (unchanged when it has no counterpart). */
export function foreignToolName(dialect: DialectName, hookwireName: string): string {
  return TABLES[dialect][hookwireName]?.name ?? hookwireName;
}

/** The dialect's tool name in hookwire's words (unchanged when hookwire has no such tool). */
export function hookwireToolName(dialect: DialectName, foreignName: string): string {
  for (const [hookwire, mapping] of Object.entries(TABLES[dialect]))
    if (mapping.name === foreignName || mapping.aliases?.includes(foreignName) === true)
      return hookwire;
  return foreignName;
}

/** The earlier names of the dialect's tool `foreignName` (see `ToolMapping.aliases`). */
export function foreignToolAliases(dialect: DialectName, foreignName: string): readonly string[] {
  for (const mapping of Object.values(TABLES[dialect]))
    if (mapping.name === foreignName) return mapping.aliases ?? [];
  return [];
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** hookwire's arguments for `hookwireName` in the dialect's names and units. */
export function foreignToolInput(
  dialect: DialectName,
  hookwireName: string,
  input: unknown,
  context: ToolInputContext = {},
): unknown {
  const mapping = TABLES[dialect][hookwireName];
  if (mapping === undefined || !isRecord(input)) return input;
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    const field = mapping.fields[key];
    result[field?.name ?? key] = field?.out === undefined ? value : field.out(value, context);
  }
  return result;
}

/** Arguments translated back, and the notes on what was dropped. */
export interface TranslatedInput {
  readonly input: unknown;
  /** One line per dropped field: what it was and why. */
  readonly dropped: readonly string[];
}

/**
 * Arguments a dialect's hook wrote (its `updatedInput`, or its merged `tool_input`) in hookwire's
 * names and units. Fields hookwire's built-in tool does not take are dropped, each with a note.
 */
export function hookwireToolInput(
  dialect: DialectName,
  hookwireName: string,
  input: unknown,
): TranslatedInput {
  const mapping = TABLES[dialect][hookwireName];
  if (mapping === undefined || !isRecord(input)) return { input, dropped: [] };
  const accepted = BUILTIN_TOOL_ARGUMENTS[hookwireName];
  const byForeignName = new Map(
    Object.entries(mapping.fields).map(([hookwire, field]) => [field.name, { hookwire, field }]),
  );
  const result: Record<string, unknown> = {};
  const dropped: string[] = [];
  for (const [key, value] of Object.entries(input)) {
    const known = byForeignName.get(key);
    const name = known?.hookwire ?? key;
    if (accepted !== undefined && !accepted.includes(name)) {
      dropped.push(
        `${mapping.name}'s "${key}" has no counterpart in hookwire's ${hookwireName} (which takes ${accepted.join(', ')}): dropped`,
      );
      continue;
    }
    result[name] = known?.field.back === undefined ? value : known.field.back(value);
  }
  return { input: result, dropped };
}
