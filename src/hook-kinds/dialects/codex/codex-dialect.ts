/** Codex's hooks (`.codex/hooks.json`, `[hooks]` in `.codex/config.toml`): Claude Code's shape. */
import type { Dialect } from '../dialect-contract.ts';
import { CLAUDE_EVENTS, CLAUDE_EXTRAS } from '../claude/claude-dialect.ts';

export const codexDialect: Dialect = {
  name: 'codex',
  title: 'Codex',
  sources: [
    { layer: 'user', under: 'home', path: ['.codex', 'hooks.json'] },
    { layer: 'user', under: 'home', path: ['.codex', 'config.toml'] },
    { layer: 'project', under: 'project', path: ['.codex', 'hooks.json'] },
    { layer: 'project', under: 'project', path: ['.codex', 'config.toml'] },
  ],
  layout: 'events',
  hooksConfig: false,
  hookFields: ['type', 'command', 'timeout', 'statusMessage', 'if', 'once', 'async', 'onFailure'],
  groupFields: ['matcher', 'hooks'],
  timeoutUnit: 'seconds',
  defaultTimeoutMs: 600_000,
  jsonBeforeExitCode: false,
  killedHookDenies: false,
  shell: 'sh',
  events: CLAUDE_EVENTS,
  payloadExtras: CLAUDE_EXTRAS,
};
