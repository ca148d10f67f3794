/**
 * Cursor's hooks (`.cursor/hooks.json`, `~/.cursor/hooks.json`): `{ "version": 1, "hooks": {
 * "beforeShellExecution": [ { "command": … } ], … } }`. Its specific events stand for one kind
 * of tool call (`beforeShellExecution` → hookwire's shell); its generic `preToolUse` /
 * `postToolUse` see every tool in Cursor's names (`Shell`, `Read`, `Write`, …). Exit 2 denies;
 * user-level hooks run from `~/.cursor`; payloads and answers in `cursor-envelope.ts`.
 */
import type { HookEventName } from '../../../events/index.ts';
import type { Dialect } from '../dialect-contract.ts';
import { cursorEnvelope } from './cursor-envelope.ts';

const CURSOR_EVENTS: Readonly<Record<string, HookEventName>> = {
  sessionStart: 'SessionStart',
  sessionEnd: 'SessionEnd',
  beforeSubmitPrompt: 'UserPromptSubmit',
  preToolUse: 'PreToolUse',
  postToolUse: 'PostToolUse',
  postToolUseFailure: 'PostToolUseFailure',
  beforeShellExecution: 'PreToolUse',
  afterShellExecution: 'PostToolUse',
  beforeMCPExecution: 'PreToolUse',
  afterMCPExecution: 'PostToolUse',
  beforeReadFile: 'PreToolUse',
  afterFileEdit: 'PostToolUse',
  subagentStart: 'SubagentStart',
  subagentStop: 'SubagentStop',
  preCompact: 'PreCompact',
  stop: 'Stop',
};

export const cursorDialect: Dialect = {
  name: 'cursor',
  title: 'Cursor',
  sources: [
    { layer: 'user', under: 'home', path: ['.cursor', 'hooks.json'] },
    { layer: 'project', under: 'project', path: ['.cursor', 'hooks.json'] },
  ],
  layout: 'flat',
  eventTools: {
    beforeShellExecution: 'shell',
    afterShellExecution: 'shell',
    beforeMCPExecution: 'mcp__.*',
    afterMCPExecution: 'mcp__.*',
    beforeReadFile: 'read_file',
    afterFileEdit: 'write_file|edit_file',
  },
  hooksConfig: false,
  hookFields: ['type', 'command', 'timeout', 'matcher', 'failClosed'],
  groupFields: [],
  timeoutUnit: 'seconds',
  defaultTimeoutMs: 60_000,
  jsonBeforeExitCode: false,
  killedHookDenies: false,
  shell: 'sh',
  events: CURSOR_EVENTS,
  payloadExtras: {},
  envelope: cursorEnvelope,
  // Exit 2 denies what can be denied; at `stop` it is no follow-up (a warning). After a tool ran,
  // hookwire honours it too: the model gets the reason instead of the output (Cursor's after-hooks
  // only observe; the safe side for a hook that found a secret).
  exitCodes: {
    twoBlocksAt: new Set<HookEventName>(['PreToolUse', 'UserPromptSubmit', 'PostToolUse']),
  },
  userHooksRunIn: 'file',
};
