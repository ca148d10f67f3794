/**
 * The shape of a tool-name table: one hookwire built-in tool in another tool's words (its name,
 * its arguments' names and units). A leaf module: the dialects' folders (`claude/claude-tools.ts`,
 * `cursor/`, the Claude-shaped profiles) write their tables in it, and `vocabulary.ts` applies them.
 */
import { isAbsolute, resolve } from 'node:path';

/** What a value's translation may read besides the value: the directory the call runs in. */
export interface ToolInputContext {
  /** The session's working directory (the one relative tool paths are resolved against). */
  readonly cwd?: string;
}

/** One argument of a built-in tool in a dialect's words. */
export interface FieldMapping {
  /** The argument's name in the dialect. */
  readonly name: string;
  /** hookwire value → the dialect's (e.g. seconds → milliseconds). */
  readonly out?: (value: unknown, context: ToolInputContext) => unknown;
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

/**
 * A path as an absolute one, resolved against the session's cwd (settings hooks of a dialect, and
 * the `e` of Claude Code mods): Claude Code's and Gemini CLI's file tools only ever carry absolute
 * paths, so a hook written for them compares prefixes (`/etc/`, the project root) and would miss
 * `secrets/key` or `../x`. hookwire's tools take relative paths too; the hook sees the path the
 * tool will open. A rewrite that sends it back stays absolute (the tools take both).
 */
export const absolutePath = (value: unknown, context: ToolInputContext): unknown =>
  typeof value === 'string' && value !== '' && context.cwd !== undefined && !isAbsolute(value)
    ? resolve(context.cwd, value)
    : value;

/** `path` is `file_path` (Claude Code, Gemini CLI, Cursor), absolute as theirs are. */
export const FILE_PATH: Readonly<Record<string, FieldMapping>> = {
  path: { name: 'file_path', out: absolutePath },
};
/** The same (the Claude-shaped profiles' spelling). */
export const filePath = FILE_PATH;

export const secondsToMs = (value: unknown): unknown =>
  typeof value === 'number' ? value * 1000 : value;
export const msToSeconds = (value: unknown): unknown =>
  typeof value === 'number' ? value / 1000 : value;
