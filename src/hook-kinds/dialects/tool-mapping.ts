/**
 * The shape of one dialect's tool table (see `vocabulary.ts`): hookwire's built-in tools in
 * that tool's words. A leaf module, so each dialect's folder can keep its own table.
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
