import { HOOK_EVENT_NAMES } from '../../events/index.ts';
import type { AgentHook } from '../../hooks/agent-hook.ts';
import { commandHookForGroup, type CommandHookOptions } from './external-hook.ts';
import type { EffectiveSettings } from '../settings/index.ts';

/**
 * One `AgentHook` per settings group, in merge order (managed, user, project, local, extra;
 * document order within a file). Push them into the run's `HookStack` — before or after
 * in-process hooks, as the agent decides — and they compose by the stack's rules.
 */
export function createCommandHooks(
  settings: EffectiveSettings,
  options: CommandHookOptions,
): AgentHook[] {
  const hooks: AgentHook[] = [];
  for (const event of HOOK_EVENT_NAMES)
    for (const group of settings.events[event] ?? [])
      hooks.push(commandHookForGroup(group, options));
  return hooks;
}
