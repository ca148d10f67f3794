/**
 * Builders for hook-kind tests: settings groups and hook configs as the settings loader makes
 * them, without a settings file (the kinds' settings schemas are tested on their own).
 */
import type { HookEventName } from '../../src/events/index.ts';
import { HookKindStates } from '../../src/hook-kinds/hook-kind.ts';
import {
  httpKind,
  type HttpHookConfig,
  type HttpHookRunner,
} from '../../src/hook-kinds/http/index.ts';
import {
  processKind,
  type ProcessHookConfig,
  type ProcessHookRunner,
} from '../../src/hook-kinds/process/index.ts';
import {
  promptKind,
  type PromptHookConfig,
  type PromptHookRunner,
} from '../../src/hook-kinds/prompt/index.ts';
import type { ModuleHookConfig } from '../../src/hook-kinds/module/module-kind.ts';
import { ahpKind, type AhpHookConfig, type AhpSession } from '../../src/hook-kinds/ahp/ahp-kind.ts';
import type { HookConfig } from '../../src/hook-kinds/registry.ts';
import { compileMatcher, type HookGroupConfig } from '../../src/hook-kinds/settings/index.ts';

const base = {
  timeoutMs: 5000,
  failClosed: false,
  layer: 'extra',
  file: '/test/settings.json',
  path: 'hooks.X[0].hooks[0]',
  alsoDefinedIn: [],
} as const;

export function processHook(
  command: string,
  fields: Partial<Omit<ProcessHookConfig, 'type' | 'command'>> = {},
): ProcessHookConfig {
  return { ...base, type: 'process', name: 'proc', command, start: 'first-use', ...fields };
}

export function httpHook(
  url: string,
  fields: Partial<Omit<HttpHookConfig, 'type' | 'url'>> = {},
): HttpHookConfig {
  return { ...base, type: 'http', name: 'http', url, headers: {}, allowedEnvVars: [], ...fields };
}

export function promptHook(
  prompt: string,
  fields: Partial<Omit<PromptHookConfig, 'type' | 'prompt'>> = {},
): PromptHookConfig {
  return { ...base, type: 'prompt', name: 'judge', prompt, ...fields };
}

export function moduleHook(
  modulePath: string,
  fields: Partial<Omit<ModuleHookConfig, 'type' | 'modulePath'>> = {},
): ModuleHookConfig {
  return { ...base, type: 'module', name: modulePath, modulePath, ...fields };
}

export function ahpHook(
  transport: AhpHookConfig['transport'],
  fields: Partial<Omit<AhpHookConfig, 'type' | 'transport'>> = {},
): AhpHookConfig {
  return {
    ...base,
    type: 'ahp',
    name: 'ahp',
    transport,
    failurePolicy: 'fail-closed',
    protocolVersion: '0.1',
    includeNative: false,
    ...fields,
  };
}

/** One settings group for `event` holding `hooks`. */
export function groupOf(
  event: HookEventName,
  hooks: readonly HookConfig[],
  fields: { matcher?: string; sequential?: boolean } = {},
): HookGroupConfig {
  return {
    event,
    registeredAs: event,
    matcher: compileMatcher(fields.matcher, { file: base.file, path: `hooks.${event}[0]` }),
    matcherSource: fields.matcher ?? '',
    sequential: fields.sequential ?? false,
    hooks,
    layer: 'extra',
    file: base.file,
    path: `hooks.${event}[0]`,
  };
}

/** A PreToolUse payload whose tool_input carries `mode` (see fixtures/process-hooks/modes.mjs). */
export function toolPayload(mode: string, sessionId = 'session-1'): Record<string, unknown> {
  return {
    session_id: sessionId,
    transcript_path: '/tmp/t.jsonl',
    cwd: '/tmp',
    hook_event_name: 'PreToolUse',
    timestamp: '2026-12-01T00:00:00.000Z',
    tool_name: 'shell',
    tool_input: { mode },
    tool_call_id: 'call-1',
  };
}

/** The kind states a hook session would hold, from the runners a test made itself. */
export function kindStates(runners: {
  readonly process?: ProcessHookRunner;
  readonly http?: HttpHookRunner;
  readonly prompt?: PromptHookRunner;
  readonly ahp?: AhpSession;
}): HookKindStates {
  const states = new HookKindStates();
  if (runners.process !== undefined) states.set(processKind, runners.process);
  if (runners.http !== undefined) states.set(httpKind, runners.http);
  if (runners.prompt !== undefined) states.set(promptKind, runners.prompt);
  if (runners.ahp !== undefined) states.set(ahpKind, runners.ahp);
  return states;
}
