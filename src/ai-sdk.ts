/**
 * `hookwire/ai-sdk`: hookwire's hooks inside a Vercel AI SDK app. Kept apart from `hookwire` so
 * that code using only the engine never loads `ai` (a peer dependency of this entry only).
 *
 * ```ts
 * import { createHookwire } from 'hookwire/ai-sdk';
 * const hw = await createHookwire({ cwd, settings: ['hooks.json'], hooks: [myGuard] });
 * const result = await hw.generateText({ model, tools, prompt });
 * await hw.close();
 * ```
 */
export * from './adapters/ai-sdk/index.ts';
export { HookDeniedError, HookStoppedError } from './adapters/embedding/hook-errors.ts';
export type { HookwireOptions } from './adapters/embedding/embedded-session.ts';
export type { AgentHook, HookContext, HookReport } from './hooks/index.ts';
