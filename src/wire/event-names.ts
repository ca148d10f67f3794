/**
 * The external event catalogue: canonical names (Claude Code lineage) and the Gemini CLI aliases
 * accepted in any settings file. A hook receives the name it was registered under in
 * `hook_event_name`.
 */
export const HOOK_EVENT_NAMES = [
  'SessionStart',
  'UserPromptSubmit',
  'BeforeModel',
  'BeforeToolSelection',
  'AfterModel',
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'Stop',
  'StopFailure',
  'Interrupt',
  'PreCompact',
  'Notification',
  'SessionEnd',
] as const;

export type HookEventName = (typeof HOOK_EVENT_NAMES)[number];

/** Alias → canonical name. */
export const HOOK_EVENT_ALIASES = {
  BeforeAgent: 'UserPromptSubmit',
  BeforeTool: 'PreToolUse',
  AfterTool: 'PostToolUse',
  AfterAgent: 'Stop',
  PreCompress: 'PreCompact',
} as const satisfies Readonly<Record<string, HookEventName>>;

export type HookEventAlias = keyof typeof HOOK_EVENT_ALIASES;

/** A name a settings file may use: canonical or alias. */
export type RegisteredEventName = HookEventName | HookEventAlias;

const canonicalNames: ReadonlySet<string> = new Set(HOOK_EVENT_NAMES);
const aliases: ReadonlyMap<string, HookEventName> = new Map(Object.entries(HOOK_EVENT_ALIASES));

/** The canonical name for a canonical name or alias; `undefined` for anything else. */
export function canonicalEventName(name: string): HookEventName | undefined {
  if (canonicalNames.has(name)) return name as HookEventName;
  return aliases.get(name);
}

/** What a matcher of each event is matched against (`undefined`: the event takes no matcher). */
export const MATCHER_TARGET: Readonly<Record<HookEventName, string | undefined>> = {
  SessionStart: 'source',
  UserPromptSubmit: undefined,
  BeforeModel: undefined,
  BeforeToolSelection: undefined,
  AfterModel: undefined,
  PreToolUse: 'tool_name',
  PostToolUse: 'tool_name',
  PostToolUseFailure: 'tool_name',
  Stop: undefined,
  // Claude Code matches StopFailure on an error type; hookwire reports free-text errors, so no matcher.
  StopFailure: undefined,
  Interrupt: undefined,
  PreCompact: 'trigger',
  Notification: 'notification_type',
  SessionEnd: 'reason',
};
