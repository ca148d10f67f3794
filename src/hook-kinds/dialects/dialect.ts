/**
 * What differs per dialect besides the tool vocabulary (`vocabulary.ts`): which event names its
 * files use, the unit and default of `timeout`, how a hook's answer is read, and the shell its
 * commands run under. One table, read by the foreign-settings reader, the command-hook adapter
 * and `hooks import`.
 */
import {
  HOOK_EVENT_ALIASES,
  HOOK_EVENT_NAMES,
  type HookEventName,
  type RegisteredEventName,
} from '../../events/index.ts';
import type { DialectName } from './vocabulary.ts';

export type { DialectName } from './vocabulary.ts';
export { DIALECT_NAMES } from './vocabulary.ts';

/** The per-dialect rules (see each field). */
export interface DialectRules {
  readonly name: DialectName;
  /** How the tool calls itself in messages: `Claude Code`, `Gemini CLI`, … */
  readonly title: string;
  /** `timeout` in seconds (Claude Code, Codex, Kimi) or milliseconds (Gemini CLI). */
  readonly timeoutUnit: 'seconds' | 'milliseconds';
  /** The tool's own default deadline, in milliseconds. */
  readonly defaultTimeoutMs: number;
  /**
   * Gemini CLI reads stdout's JSON before the exit code (a JSON answer on a non-zero exit still
   * counts); the others read the exit code first (only exit 0's stdout is an answer), except
   * Claude Code's `Stop`, where a JSON `reason` on stdout is used with exit 2.
   */
  readonly jsonBeforeExitCode: boolean;
  /** Gemini CLI runs hook commands under `bash -c` when bash exists; the others under `sh -c`. */
  readonly shell: 'bash' | 'sh';
  /**
   * Event names its files use that hookwire does not have (yet): such a hook is skipped with a
   * warning naming the event. Any other name must be one of `events`.
   */
  readonly events: Readonly<Record<string, HookEventName>>;
}

const CANONICAL: Readonly<Record<string, HookEventName>> = Object.fromEntries(
  HOOK_EVENT_NAMES.map((name) => [name, name]),
);

/** Claude Code's events that hookwire has under the same name. */
const CLAUDE_EVENTS: Readonly<Record<string, HookEventName>> = Object.fromEntries(
  (
    [
      'PreToolUse',
      'PostToolUse',
      'PostToolUseFailure',
      'PermissionRequest',
      'UserPromptSubmit',
      'Stop',
      'StopFailure',
      'Notification',
      'SubagentStart',
      'SubagentStop',
      'PreCompact',
      'PostCompact',
      'SessionStart',
      'SessionEnd',
    ] as const
  )
    .filter((name) => name in CANONICAL)
    .map((name) => [name, name]),
);

/** Gemini CLI's events: its aliases of hookwire's events and the names it shares with them. */
const GEMINI_EVENTS: Readonly<Record<string, HookEventName>> = {
  ...(HOOK_EVENT_ALIASES as Readonly<Record<string, HookEventName>>),
  BeforeModel: 'BeforeModel',
  AfterModel: 'AfterModel',
  BeforeToolSelection: 'BeforeToolSelection',
  SessionStart: 'SessionStart',
  SessionEnd: 'SessionEnd',
  Notification: 'Notification',
};

/** The rules of every foreign dialect. */
export const DIALECTS: Readonly<Record<DialectName, DialectRules>> = {
  claude: {
    name: 'claude',
    title: 'Claude Code',
    timeoutUnit: 'seconds',
    defaultTimeoutMs: 600_000,
    jsonBeforeExitCode: false,
    shell: 'sh',
    events: CLAUDE_EVENTS,
  },
  gemini: {
    name: 'gemini',
    title: 'Gemini CLI',
    timeoutUnit: 'milliseconds',
    defaultTimeoutMs: 60_000,
    jsonBeforeExitCode: true,
    shell: 'bash',
    events: GEMINI_EVENTS,
  },
  codex: {
    name: 'codex',
    title: 'Codex',
    timeoutUnit: 'seconds',
    defaultTimeoutMs: 600_000,
    jsonBeforeExitCode: false,
    shell: 'sh',
    events: CLAUDE_EVENTS,
  },
  kimi: {
    name: 'kimi',
    title: 'Kimi Code',
    timeoutUnit: 'seconds',
    defaultTimeoutMs: 30_000,
    jsonBeforeExitCode: false,
    shell: 'sh',
    events: CLAUDE_EVENTS,
  },
};

/** The hookwire event a dialect's event name stands for, or `undefined`. */
export function dialectEvent(dialect: DialectName, name: string): HookEventName | undefined {
  return Object.hasOwn(DIALECTS[dialect].events, name) ? DIALECTS[dialect].events[name] : undefined;
}

/** The name a dialect's hook is registered under (what it gets as `hook_event_name`). */
export function registeredName(name: string): RegisteredEventName {
  return name as RegisteredEventName;
}
