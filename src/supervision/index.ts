export type {
  CommandResult,
  CommandRunner,
  CommandTermination,
  RunCommandOptions,
} from './command-runner.ts';
export { DEFAULT_KILL_GRACE_MS, DEFAULT_MAX_OUTPUT_BYTES } from './command-runner.ts';
export { CommandRunnerError } from './command-runner-error.ts';
export { createDirectRunner } from './direct-runner.ts';
export {
  createHelperRunner,
  type HelperCommandRunner,
  type HelperRunnerOptions,
} from './helper-runner.ts';
export { createCommandRunner, type CommandRunnerOptions } from './create-command-runner.ts';
export { DRAIN_WINDOW_MS } from './supervise-command.ts';
