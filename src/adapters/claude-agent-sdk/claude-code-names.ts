/**
 * Claude Code's tool and field names ↔ hookwire's, for the Claude Agent SDK bridge: a hookwire
 * settings file that guards `shell` guards Claude's `Bash`, and a hook reads `path` where Claude
 * sends `file_path`. One small table; tools it does not list (MCP tools `mcp__…`, `Task`,
 * `WebFetch`, …) keep their names and fields.
 */

import { toolTable } from '../../hook-kinds/dialects/vocabulary.ts';

interface ToolMapping {
  /** hookwire's name of the tool. */
  readonly name: string;
  /** Claude field → hookwire field, for the fields whose names differ. */
  readonly fields?: Readonly<Record<string, string>>;
}

/**
 * Claude Code tool name → hookwire's, derived from the Claude Code dialect's table
 * (`src/hook-kinds/dialects/vocabulary.ts`, the one place the names are kept). The bridge only
 * renames: Claude's own tools run the calls, so fields hookwire's tools lack are kept.
 */
export const CLAUDE_CODE_TOOLS: Readonly<Record<string, ToolMapping>> = Object.fromEntries(
  Object.entries(toolTable('claude')).flatMap(([hookwire, mapping]) => {
    const fields = Object.fromEntries(
      Object.entries(mapping.fields)
        .filter(([name, field]) => field.name !== name)
        .map(([name, field]) => [field.name, name]),
    );
    const renaming =
      Object.keys(fields).length === 0 ? { name: hookwire } : { name: hookwire, fields };
    // Earlier names of a tool (`Task` for `Agent`) rename the same way.
    return [mapping.name, ...(mapping.aliases ?? [])].map((claude) => [claude, renaming] as const);
  }),
);

// hookwire name → Claude's current name (never an earlier one).
const BY_HOOKWIRE_NAME = new Map(
  Object.entries(toolTable('claude')).map(([hookwire, mapping]) => [hookwire, mapping.name]),
);

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function renamed(input: unknown, fields: Readonly<Record<string, string>> | undefined): unknown {
  if (fields === undefined || !isRecord(input)) return input;
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) result[fields[key] ?? key] = value;
  return result;
}

function inverted(fields: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(fields).map(([from, to]) => [to, from]));
}

/** A Claude tool call in hookwire's names. */
export function fromClaudeTool(
  toolName: string,
  input: unknown,
): { readonly toolName: string; readonly input: unknown } {
  const mapping = CLAUDE_CODE_TOOLS[toolName];
  if (mapping === undefined) return { toolName, input };
  return { toolName: mapping.name, input: renamed(input, mapping.fields) };
}

/** Arguments in hookwire's names back in Claude's, for the tool `claudeToolName`. */
export function toClaudeToolInput(claudeToolName: string, input: unknown): unknown {
  const fields = CLAUDE_CODE_TOOLS[claudeToolName]?.fields;
  return fields === undefined ? input : renamed(input, inverted(fields));
}

/** hookwire's tool name as Claude's (for matchers written in hookwire's names). */
export function toClaudeToolName(hookwireName: string): string {
  return BY_HOOKWIRE_NAME.get(hookwireName) ?? hookwireName;
}
