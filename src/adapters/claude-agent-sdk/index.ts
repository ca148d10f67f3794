/**
 * The Claude Agent SDK bridge. Every export here is public API.
 */
import {
  openEmbeddedSession,
  type EmbeddedSession,
  type HookwireOptions,
} from '../embedding/embedded-session.ts';

export {
  toClaudeAgentHooks,
  type ClaudeAgentHooks,
  type ClaudeBridgeSource,
} from './to-claude-agent-hooks.ts';
export {
  CLAUDE_CODE_TOOLS,
  fromClaudeTool,
  toClaudeToolInput,
  toClaudeToolName,
} from './claude-code-names.ts';

/** A hookwire instance for a Claude Agent SDK agent: its hooks, and `close()`. */
export type ClaudeHookwire = Pick<
  EmbeddedSession,
  'hooks' | 'settings' | 'stopContinuationsPerTurn' | 'report' | 'close'
>;

/**
 * Loads the hooks `hookwire run` would load for `cwd` (every settings layer, then `settings`),
 * with the in-process `hooks`, for `toClaudeAgentHooks`. The agent fires its own SessionStart
 * and SessionEnd through the bridge, so this fires neither; `close()` stops the hook processes.
 * (`sessionId` and `transcript` do not apply: hooks see the agent's own session.)
 */
export async function createHookwire(
  options: Omit<HookwireOptions, 'sessionId' | 'transcript'> = {},
): Promise<ClaudeHookwire> {
  return openEmbeddedSession(options, { sessionEvents: false });
}
