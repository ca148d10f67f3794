/** `type: "prompt"` hooks: a model judges the event and answers `{ ok, reason? }`. */
export {
  PROMPT_HOOK_SYSTEM_INSTRUCTION,
  createPromptHookRunner,
  decodePromptVerdict,
  promptHookMessage,
  type PromptHookRunnerOptions,
  type PromptVerdict,
} from './prompt-hook-runner.ts';
export {
  promptHookSchema,
  promptKind,
  type PromptHookConfig,
  type PromptHookRunner,
} from './prompt-kind.ts';
