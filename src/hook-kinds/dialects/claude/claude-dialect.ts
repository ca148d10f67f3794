/** Claude Code's hooks (`.claude/settings.json` and the like). */
import { HOOK_EVENT_NAMES, type HookEventName } from '../../../events/index.ts';
import type { Dialect, PayloadExtras } from '../dialect-contract.ts';

const CANONICAL: ReadonlySet<string> = new Set(HOOK_EVENT_NAMES);

/** Claude Code's events that hookwire has under the same name (Codex and Kimi Code share them). */
export const CLAUDE_EVENTS: Readonly<Record<string, HookEventName>> = Object.fromEntries(
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
    .filter((name) => CANONICAL.has(name))
    .map((name) => [name, name]),
);

/** Claude Code's (and Codex's) names for payload fields hookwire calls otherwise. */
export const CLAUDE_EXTRAS: PayloadExtras = {
  // Claude Code gives Stop and SubagentStop the answer as `last_assistant_message` (hookwire's
  // `prompt_response` and `result`): the field Stop hooks read instead of the transcript.
  Stop: (fields) => ({ last_assistant_message: fields['prompt_response'] }),
  SubagentStop: (fields) => ({ last_assistant_message: fields['result'] }),
  // Claude Code's PostCompact gets the summary as `compact_summary`.
  PostCompact: (fields) => ({ compact_summary: fields['summary'] }),
};

export const claudeDialect: Dialect = {
  name: 'claude',
  title: 'Claude Code',
  sources: [
    { layer: 'user', under: 'home', path: ['.claude', 'settings.json'] },
    { layer: 'project', under: 'project', path: ['.claude', 'settings.json'] },
    { layer: 'local', under: 'project', path: ['.claude', 'settings.local.json'] },
  ],
  layout: 'events',
  enablesPlugins: true,
  hooksConfig: false,
  hookFields: [
    'type',
    'command',
    'timeout',
    'if',
    'once',
    'async',
    'statusMessage',
    'onFailure',
    'shell',
  ],
  groupFields: ['matcher', 'hooks'],
  timeoutUnit: 'seconds',
  defaultTimeoutMs: 600_000,
  jsonBeforeExitCode: false,
  killedHookDenies: false,
  shell: 'sh',
  events: CLAUDE_EVENTS,
  payloadExtras: CLAUDE_EXTRAS,
  feedbackBlocks: new Set<HookEventName>(['PostToolUse']),
  envFile: { variable: 'CLAUDE_ENV_FILE', event: 'SessionStart' },
};
