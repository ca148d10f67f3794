/**
 * Windsurf's Cascade hooks (`.windsurf/hooks.json`, `~/.codeium/windsurf/hooks.json`,
 * `/etc/windsurf/hooks.json`): `{ "hooks": { "pre_run_command": [ { "command": …,
 * "show_output": true, "working_directory": … } ] } }`. Each event is one kind of action, run in
 * order system → user → workspace; a hook answers only by exiting 2 (blocks). Payloads in
 * `windsurf-envelope.ts`.
 */
import type { HookEventName } from '../../../events/index.ts';
import type { Dialect } from '../dialect-contract.ts';
import { windsurfEnvelope } from './windsurf-envelope.ts';

const WINDSURF_EVENTS: Readonly<Record<string, HookEventName>> = {
  pre_run_command: 'PreToolUse',
  post_run_command: 'PostToolUse',
  pre_read_code: 'PreToolUse',
  post_read_code: 'PostToolUse',
  pre_write_code: 'PreToolUse',
  post_write_code: 'PostToolUse',
  pre_mcp_tool_use: 'PreToolUse',
  post_mcp_tool_use: 'PostToolUse',
  pre_user_prompt: 'UserPromptSubmit',
  post_cascade_response: 'Stop',
};

export const windsurfDialect: Dialect = {
  name: 'windsurf',
  title: 'Windsurf',
  sources: [
    { layer: 'managed', under: 'system', path: ['etc', 'windsurf', 'hooks.json'] },
    { layer: 'user', under: 'home', path: ['.codeium', 'windsurf', 'hooks.json'] },
    { layer: 'project', under: 'project', path: ['.windsurf', 'hooks.json'] },
  ],
  layout: 'flat',
  eventTools: {
    pre_run_command: 'shell',
    post_run_command: 'shell',
    pre_read_code: 'read_file',
    post_read_code: 'read_file',
    pre_write_code: 'write_file|edit_file',
    post_write_code: 'write_file|edit_file',
    pre_mcp_tool_use: 'mcp__.*',
    post_mcp_tool_use: 'mcp__.*',
  },
  hooksConfig: false,
  hookFields: ['command', 'powershell', 'show_output', 'working_directory'],
  groupFields: [],
  timeoutUnit: 'seconds',
  defaultTimeoutMs: 60_000,
  jsonBeforeExitCode: false,
  killedHookDenies: false,
  shell: 'sh',
  events: WINDSURF_EVENTS,
  payloadExtras: {},
  envelope: windsurfEnvelope,
  // Exit 2 blocks the pre-hooks, as in Windsurf; a post-hook's exit 2 (which Windsurf ignores)
  // withholds the output from the model: the safe side for a hook that found a secret. At
  // `post_cascade_response` it is a warning (there is no action left to block).
  exitCodes: {
    twoBlocksAt: new Set<HookEventName>(['PreToolUse', 'UserPromptSubmit', 'PostToolUse']),
  },
};
