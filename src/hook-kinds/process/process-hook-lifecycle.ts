import { ContextAction, ObservationAction } from '../../events/index.ts';
import type { AgentHook } from '../../hooks/agent-hook.ts';
import { hookEnvironment } from '../hook-kind.ts';
import type { EffectiveSettings } from '../settings/effective-settings.ts';
import type { ProcessHookConfig } from '../settings/hook-config.ts';
import type { ProcessHookRunner } from './process-hook-runner.ts';

/** The process hooks of `settings` marked `"start": "session"`, each once. */
export function sessionStartedProcessHooks(settings: EffectiveSettings): ProcessHookConfig[] {
  const hooks: ProcessHookConfig[] = [];
  for (const groups of Object.values(settings.events))
    for (const group of groups)
      for (const hook of group.hooks)
        if (hook.type === 'process' && hook.start === 'session') hooks.push(hook);
  return hooks;
}

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
