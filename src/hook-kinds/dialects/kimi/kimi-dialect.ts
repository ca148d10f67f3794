/** Kimi Code's hooks (`[[hooks]]` entries in `~/.kimi-code/config.toml`). */
import type { Dialect } from '../dialect-contract.ts';
import { CLAUDE_EVENTS } from '../claude/claude-dialect.ts';

export const kimiDialect: Dialect = {
  name: 'kimi',
  title: 'Kimi Code',
  sources: [{ layer: 'user', under: 'home', path: ['.kimi-code', 'config.toml'] }],
  layout: 'entries',
  hooksConfig: false,
  hookFields: ['event', 'matcher', 'command', 'timeout'],
  groupFields: [],
  timeoutUnit: 'seconds',
  defaultTimeoutMs: 30_000,
  jsonBeforeExitCode: false,
  killedHookDenies: false,
  shell: 'sh',
  events: CLAUDE_EVENTS,
  // Kimi Code's reference: `agent_name` and `response` on its subagent events,
  // `estimated_token_count` on `PostCompact`.
  payloadExtras: {
    SubagentStart: (fields) => ({ agent_name: fields['agent_type'] }),
    SubagentStop: (fields) => ({ agent_name: fields['agent_type'], response: fields['result'] }),
    PostCompact: (fields) => ({ estimated_token_count: fields['tokens_after'] }),
  },
};
