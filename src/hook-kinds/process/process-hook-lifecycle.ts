import { ContextAction, ObservationAction } from '../../events/index.ts';
import type { AgentHook } from '../../hooks/agent-hook.ts';
import { hookEnvironment } from '../hook-kind.ts';
import type { ProcessHookConfig } from './process-kind.ts';
import type { ProcessHookRunner } from './process-hook-runner.ts';

/**
 * The lifecycle of process hooks as one `AgentHook`: at SessionStart it starts the processes of
 * the hooks marked `"start": "session"` (before any of them is needed); at SessionEnd it stops
 * every process the runner started. Put it **last** in the stack, so the SessionEnd hooks before
 * it (process hooks among them) have answered when their processes are stopped. The processes
 * restart on their next event if the host opens another session.
 */
export function processHookLifecycle(
  runner: ProcessHookRunner,
  sessionHooks: readonly ProcessHookConfig[],
  options: { readonly projectDir?: string } = {},
): AgentHook {
  return {
    name: 'process hooks (lifecycle)',
    observes: (kind) => kind === 'sessionStart' || kind === 'sessionEnd',
    onSessionStart(context) {
      const projectDir = options.projectDir ?? context.session.cwd;
      const env = hookEnvironment(projectDir, context.session.sessionId);
      for (const hook of sessionHooks) runner.start(hook, { projectDir, env });
      return ContextAction.continue();
    },
    async onSessionEnd() {
      await runner.stopAll();
      return ObservationAction.continue();
    },
  };
}
