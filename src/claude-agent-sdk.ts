/**
 * `hookwire/claude-agent-sdk`: hookwire's hooks inside an agent built on
 * `@anthropic-ai/claude-agent-sdk` (a peer dependency of this entry only; only its types are
 * used, so nothing of the SDK is loaded by this entry).
 *
 * ```ts
 * import { query } from '@anthropic-ai/claude-agent-sdk';
 * import { createHookwire, toClaudeAgentHooks } from 'hookwire/claude-agent-sdk';
 * const hw = await createHookwire({ cwd, settings: ['hooks.json'], hooks: [myGuard] });
 * for await (const message of query({ prompt, options: { hooks: toClaudeAgentHooks(hw) } })) …
 * await hw.close();
 * ```
 */
export * from './adapters/claude-agent-sdk/index.ts';
export type { HookwireOptions } from './adapters/embedding/embedded-session.ts';
export type { AgentHook, HookContext, HookReport } from './hooks/index.ts';
