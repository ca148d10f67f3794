/** The command kind's configuration, as loaded from settings. */
import type { SettingsLayer } from '../settings/settings-layer.ts';

/** One command hook as loaded from settings. */
export interface CommandHookConfig {
  readonly type: 'command';
  /**
   * The hook's `name`, or by default its command with whitespace runs collapsed to one space,
   * cut to 40 characters (the 40th becoming `…` when cut).
   */
  readonly name: string;
  /** The shell command, exactly as written. */
  readonly command: string;
  readonly description?: string;
  /** The deadline in milliseconds (`timeout` converted; default 60 000). */
  readonly timeoutMs: number;
  /** A guard: when it cannot answer, the action it guards is denied. Default false. */
  readonly failClosed: boolean;
  /**
   * `scrubbed`: the process gets the environment without credentials, as the shell tool does
   * (`passEnvironment` keeps named ones). Absent: it inherits hookwire's environment.
   */
  readonly environment?: 'scrubbed';
  /** The process runs under bubblewrap, like the shell tool under `--sandbox`. */
  readonly sandbox?: true;
  /**
   * Dialect hooks only (see `src/hook-kinds/dialects/`): Claude Code's `if` (a permission rule,
   * `Bash(rm *)`: the hook runs only for calls it covers), `once` (once per session), `async`
   * (runs in the background; its answer is not waited for), `statusMessage`, and Gemini CLI's
   * per-hook `env`.
   */
  readonly if?: string;
  readonly once?: true;
  readonly async?: true;
  readonly statusMessage?: string;
  readonly env?: Readonly<Record<string, string>>;
  /**
   * The directory the hook runs in, relative to the project directory (or absolute); absent:
   * the project directory. Copilot CLI's `cwd`, Windsurf's `working_directory`, and `~/.cursor`
   * for Cursor's user-level hooks.
   */
  readonly cwd?: string;
  /**
   * The program and its arguments, started without a shell (Copilot CLI's `exec` + `args`);
   * `command` then shows them for listings. Absent: `command` runs under `sh -c`.
   */
  readonly argv?: readonly string[];
  readonly layer: SettingsLayer;
  readonly file: string;
  /** JSON path of the hook in its file, e.g. `hooks.PreToolUse[0].hooks[1]`. */
  readonly path: string;
  /**
   * Other places that define the same hook (same event, matcher, command, timeout and
   * failClosed), which therefore do not run it again: `"<layer>: <file> at <path>"`, in merge
   * order. Empty when the hook is defined once.
   */
  readonly alsoDefinedIn: readonly string[];
  /** The project files the command runs, with their content hashes (see `HookConfigBase`). */
  readonly namedFiles?: Readonly<Record<string, string>>;
}
