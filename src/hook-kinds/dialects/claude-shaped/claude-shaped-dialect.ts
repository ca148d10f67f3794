/**
 * A Claude-shaped profile (`profiles.ts`) as a `Dialect`: Claude Code's rules (envelope,
 * answers, exit codes, `if`, feedback blocks) with the profile's files, event aliases, timeout
 * unit and MCP matcher form; its tool names come from `profileToolTable` through the vocabulary.
 */
import { claudeDialect, CLAUDE_EVENTS } from '../claude/claude-dialect.ts';
import type { Dialect } from '../dialect-contract.ts';
import type { DialectName } from '../dialect-names.ts';
import type { ClaudeProfile } from './profiles.ts';

/** The dialect of `profile`, named `name`. */
export function claudeShapedDialect(name: DialectName, profile: ClaudeProfile): Dialect {
  const rootFiles = profile.sources
    .filter((source) => source.eventsAtRoot === true)
    .map((source) => source.path.join('/'));
  const { envFile: _claudeOnly, ...claude } = claudeDialect;
  return {
    ...claude,
    name,
    title: profile.title,
    sources: profile.sources.map(({ layer, under, path }) => ({ layer, under, path })),
    timeoutUnit: profile.timeoutUnit,
    events: { ...CLAUDE_EVENTS, ...profile.eventAliases },
    ...(rootFiles.length === 0
      ? {}
      : {
          eventsAtRoot: (file: string) =>
            rootFiles.some((path) => file.replaceAll('\\', '/').endsWith(`/${path}`)),
        }),
    ...(profile.mcpMatcherPrefix === undefined
      ? {}
      : { mcpMatcherPrefix: profile.mcpMatcherPrefix }),
    // Claude Code's enabledPlugins is Claude Code's own.
    enablesPlugins: false,
    ...(Object.keys(profile.eventAliases).length === 0 && profile.payloadFields === undefined
      ? {}
      : { claudePayload: (name, payload) => profilePayload(profile, name, payload) }),
  };
}

/**
 * Claude Code's payload as `profile`'s tool gives it to a hook registered under `name`: its own
 * event name (an alias, Augment's `PromptSubmit`) as `hook_event_name`, and the fields it adds.
 */
function profilePayload(
  profile: ClaudeProfile,
  name: string,
  payload: Readonly<Record<string, unknown>>,
): Readonly<Record<string, unknown>> {
  return {
    ...payload,
    ...profile.payloadFields?.(payload),
    ...(name in profile.eventAliases ? { hook_event_name: name } : {}),
  };
}
