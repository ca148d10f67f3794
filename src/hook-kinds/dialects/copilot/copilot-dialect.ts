/**
 * GitHub Copilot CLI and cloud agent hooks (`.github/hooks/*.json`, `~/.copilot/hooks/*.json`),
 * which VS Code's agent hooks read too: `{ "version": 1, "hooks": { "preToolUse": [ { "type":
 * "command", "bash": …, "powershell": …, "cwd": …, "env": …, "timeoutSec": 30 } ] } }`.
 * camelCase event names get Copilot's own payloads and answers (`copilot-envelope.ts`);
 * PascalCase names in the same files get Claude Code's payloads, tool names and matchers.
 */
import type { HookEventName } from '../../../events/index.ts';
import { CLAUDE_EVENTS } from '../claude/claude-dialect.ts';
import type { Dialect } from '../dialect-contract.ts';
import { copilotEnvelope } from './copilot-envelope.ts';

const COPILOT_EVENTS: Readonly<Record<string, HookEventName>> = {
  sessionStart: 'SessionStart',
  sessionEnd: 'SessionEnd',
  userPromptSubmitted: 'UserPromptSubmit',
  preToolUse: 'PreToolUse',
  postToolUse: 'PostToolUse',
  postToolUseFailure: 'PostToolUseFailure',
  permissionRequest: 'PermissionRequest',
  agentStop: 'Stop',
  subagentStart: 'SubagentStart',
  subagentStop: 'SubagentStop',
  preCompact: 'PreCompact',
  errorOccurred: 'StopFailure',
  notification: 'Notification',
};

export const copilotDialect: Dialect = {
  name: 'copilot',
  title: 'GitHub Copilot CLI',
  sources: [
    { layer: 'user', under: 'home', path: ['.copilot', 'hooks', '*.json'] },
    { layer: 'project', under: 'project', path: ['.github', 'hooks', '*.json'] },
  ],
  layout: 'flat',
  borrowedEvents: { dialect: 'claude', events: CLAUDE_EVENTS },
  anchoredMatchers: true,
  hooksConfig: false,
  // `command` with `windows`/`linux`/`osx` and `timeout` are VS Code's spellings of the same hook.
  hookFields: [
    'type',
    'bash',
    'powershell',
    'command',
    'windows',
    'linux',
    'osx',
    'exec',
    'args',
    'cwd',
    'env',
    'timeoutSec',
    'timeout',
    'matcher',
    'comment',
  ],
  groupFields: [],
  timeoutUnit: 'seconds',
  defaultTimeoutMs: 30_000,
  jsonBeforeExitCode: false,
  killedHookDenies: false,
  shell: 'sh',
  events: COPILOT_EVENTS,
  payloadExtras: {},
  envelope: copilotEnvelope,
  exitCodes: {
    twoBlocksAt: new Set<HookEventName>(['PreToolUse', 'PermissionRequest']),
    // "For postToolUseFailure command hooks, exiting with code 2 causes stderr to be returned as
    // recovery guidance for the assistant."
    twoIsContextAt: new Set<HookEventName>(['PostToolUseFailure']),
  },
  failClosedAt: new Set<HookEventName>(['PreToolUse']),
};
