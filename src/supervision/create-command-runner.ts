import type { CommandRunner } from './command-runner.ts';
import { createDirectRunner } from './direct-runner.ts';
import { createHelperRunner } from './helper-runner.ts';

/** Options of `createCommandRunner`. */
export interface CommandRunnerOptions {
  /**
   * `helper` (default): spawn through one small long-lived helper process, so a spawn costs the
   * same however large this process's heap grows. `direct`: spawn from this process.
   * See docs/decisions/0003-hook-spawn-helper.md for the measurements behind the default.
   */
  readonly mode?: 'direct' | 'helper';
  /**
   * When the helper starts (`helper` mode): `eager` (default) as the runner is created, so the
   * first hook does not wait for it; `lazy` on the first run.
   */
  readonly start?: 'eager' | 'lazy';
}

/** The `CommandRunner` command hooks run through; `helper` mode unless told otherwise. */
export function createCommandRunner(options: CommandRunnerOptions = {}): CommandRunner {
  if (options.mode === 'direct') return createDirectRunner();
  return createHelperRunner(options.start === undefined ? {} : { start: options.start });
}
