import type { HookEventName, RegisteredEventName } from '../../events/index.ts';
import type { CompiledMatcher } from './matcher.ts';
import type { SettingsLayer } from './settings-layer.ts';

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
}

/** What every hook kind's config shares with a command hook's (all but `type` and `command`). */
export type HookConfigBase = Omit<CommandHookConfig, 'type' | 'command'>;

/**
 * One `type: "process"` hook: a long-lived process (`command`, run by `/bin/sh -c`) answering
 * JSON-RPC 2.0 requests, one JSON message per line on stdin/stdout. `timeoutMs` is the deadline
 * of each request.
 */
export interface ProcessHookConfig extends HookConfigBase {
  readonly type: 'process';
  readonly command: string;
  /** `first-use` (default): started by the first event it answers; `session`: at SessionStart. */
  readonly start: 'first-use' | 'session';
}

/** One `type: "http"` hook: the payload POSTed as JSON to `url`; the body answers. */
export interface HttpHookConfig extends HookConfigBase {
  readonly type: 'http';
  readonly url: string;
  /** Request headers; values may name `$VAR` / `${VAR}` of `allowedEnvVars`. */
  readonly headers: Readonly<Record<string, string>>;
  /** The environment variables `headers` may expand; any other reference expands to "". */
  readonly allowedEnvVars: readonly string[];
}

/** One `type: "prompt"` hook: a model judges the event and answers `{ ok, reason? }`. */
export interface PromptHookConfig extends HookConfigBase {
  readonly type: 'prompt';
  /** The instruction; `$ARGUMENTS` is replaced by the payload JSON (appended when absent). */
  readonly prompt: string;
  /** The judging model (a model id, or PROVIDER:MODEL); the run's model when absent. */
  readonly model?: string;
}

/** One hook of a settings group, of any kind. */
export type HookConfig = CommandHookConfig | ProcessHookConfig | HttpHookConfig | PromptHookConfig;

/** What a hook runs, for listings and records: its command, url, or prompt. */
export function hookTarget(hook: HookConfig): string {
  switch (hook.type) {
    case 'command':
    case 'process':
      return hook.command;
    case 'http':
      return hook.url;
    case 'prompt':
      return hook.prompt;
  }
}

/**
 * What defines a hook beyond its deadline and `failClosed`: its kind and the fields that change
 * what it runs (two hooks with equal definitions are the same hook).
 */
export function hookDefinition(hook: HookConfig): readonly unknown[] {
  switch (hook.type) {
    case 'command':
      return [hook.type, hook.command];
    case 'process':
      return [hook.type, hook.command, hook.start];
    case 'http':
      return [hook.type, hook.url, hook.headers, hook.allowedEnvVars];
    case 'prompt':
      return [hook.type, hook.prompt, hook.model ?? null];
  }
}

/** One group of a settings file: a matcher and the hooks it runs, for one event. */
export interface HookGroupConfig {
  /** The canonical event. */
  readonly event: HookEventName;
  /** The name the group was registered under (canonical or alias); hooks get it as `hook_event_name`. */
  readonly registeredAs: RegisteredEventName;
  readonly matcher: CompiledMatcher;
  /** The matcher as written; `''` when missing. */
  readonly matcherSource: string;
  /** Run the hooks one after another (each sees the input as rewritten before it). Default false. */
  readonly sequential: boolean;
  readonly hooks: readonly HookConfig[];
  readonly layer: SettingsLayer;
  readonly file: string;
  /** JSON path of the group, e.g. `hooks.PreToolUse[0]`. */
  readonly path: string;
}
