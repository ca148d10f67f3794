/**
 * The shape of a tool-name table: one hookwire built-in tool in another tool's words (its name,
 * its arguments' names and units). A leaf module: the dialects' folders (`claude/claude-tools.ts`,
 * `cursor/`, the Claude-shaped profiles) write their tables in it, and `vocabulary.ts` applies them.
 */

/** One argument of a built-in tool in a dialect's words. */
export interface FieldMapping {
  /** The argument's name in the dialect. */
  readonly name: string;
  /** hookwire value → the dialect's (e.g. seconds → milliseconds). */
  readonly out?: (value: unknown) => unknown;
  /** The dialect's value → hookwire's. */
  readonly back?: (value: unknown) => unknown;
}

/** One hookwire built-in tool in a dialect's words. */
export interface ToolMapping {
  /** The dialect's name of the tool. */
  readonly name: string;
  /** hookwire argument → its name in the dialect, for the arguments whose names or units differ. */
  readonly fields: Readonly<Record<string, FieldMapping>>;
  /**
   * Arguments of the dialect's tool that hookwire's tool does not take: a hook that sets one gets
   * a note that it was dropped (the call runs with the rest), instead of a failed call.
   */
  readonly foreignOnly: readonly string[];
  /**
   * Earlier names of the dialect's tool (Claude Code's `Task`, now `Agent`): a matcher naming one
   * matches the tool too, and a rule or an import that names one means it. Payloads say `name`.
   */
  readonly aliases?: readonly string[];
}

/** A dialect's table: hookwire tool name → mapping. */
export type ToolTable = Readonly<Record<string, ToolMapping>>;

/** `path` is `file_path` (Claude Code, Gemini CLI, Cursor). */
export const FILE_PATH: Readonly<Record<string, FieldMapping>> = { path: { name: 'file_path' } };
/** The same (the Claude-shaped profiles' spelling). */
export const filePath = FILE_PATH;

export const secondsToMs = (value: unknown): unknown =>
  typeof value === 'number' ? value * 1000 : value;
export const msToSeconds = (value: unknown): unknown =>
  typeof value === 'number' ? value / 1000 : value;
