/**
 * Opens, for one hook session, the resources of the kinds its settings use (`HookKind.open`):
 * generic over the registry, so a kind with per-session resources needs nothing here.
 */
import type { AgentHook } from '../hooks/agent-hook.ts';
import { HookKindStates, type HookConfigBase, type HookKindHost } from '../hook-kinds/hook-kind.ts';
import { registeredKinds } from '../hook-kinds/registry.ts';
import type { EffectiveSettings } from '../hook-kinds/settings/effective-settings.ts';

/** The opened kinds of one session. */
export interface OpenedHookKinds {
  readonly states: HookKindStates;
  /** The kinds' own hooks, for the end of the session's stack. */
  readonly hooks: readonly AgentHook[];
}

/** Every hook of `settings`, by `type`. */
function hooksByType(settings: EffectiveSettings): Map<string, HookConfigBase[]> {
  const byType = new Map<string, HookConfigBase[]>();
  for (const groups of Object.values(settings.events))
    for (const group of groups)
      for (const hook of group.hooks) {
        const list = byType.get(hook.type) ?? [];
        list.push(hook);
        byType.set(hook.type, list);
      }
  return byType;
}

/**
 * Opens every kind that has `open` and hooks in `settings`; each opened kind's `close` is
 * registered with `defer` (as soon as it is open, so a later failure still closes it).
 */
export async function openHookKinds(
  settings: EffectiveSettings,
  host: HookKindHost,
  defer: (dispose: () => unknown) => void,
): Promise<OpenedHookKinds> {
  const byType = hooksByType(settings);
  const states = new HookKindStates();
  const hooks: AgentHook[] = [];
  for (const kind of registeredKinds()) {
    const configs = byType.get(kind.type);
    if (kind.open === undefined || configs === undefined) continue;
    // `configs` are the hooks whose `type` is this kind's: its own configs.
    const session = await kind.open(configs, host);
    defer(() => session.close());
    states.set(kind, session.state);
    hooks.push(...(session.hooks ?? []));
  }
  return { states, hooks };
}
