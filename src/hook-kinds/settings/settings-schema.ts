import { z } from 'zod';
import {
  HOOK_EVENT_ALIASES,
  HOOK_EVENT_NAMES,
  MATCHER_TARGET,
  type RegisteredEventName,
} from '../../events/index.ts';
import { HOOK_KINDS, hookEntrySchema } from '../registry.ts';
import { mcpServersSchema } from './mcp-servers.ts';
import { DIALECT_NAMES } from '../dialects/dialect-names.ts';

/**
 * The shape of a settings file, as zod schemas. They are the one source of truth: loading
 * validates with them, and `settingsJsonSchema()` turns them into the JSON Schema published as
 * `schemas/settings.schema.json` for editors. Every object is strict (an unknown field is an
 * error); checks that need more than a shape (matchers that compile, timeouts in range, matchers
 * on events that have no matcher target) run after this validation, in `parseSettingsText`.
 */

export { timeoutSchema } from '../timeout-schema.ts';
export { commandHookSchema } from '../command/command-kind.ts';

/** A matcher and the hooks that run when it matches. */
export const hookGroupSchema = z
  .strictObject({
    matcher: z.string().optional().meta({
      description:
        'Which events of this kind the hooks run for. Empty, missing or "*": all. "Bash" or "Edit|Write": exactly those names. Anything else: a regular expression matched against the whole value.',
    }),
    sequential: z.boolean().optional().meta({
      description:
        'true: the hooks run one after another, each seeing the input as rewritten by the ones before. Default false (parallel).',
    }),
    dialect: z.enum(DIALECT_NAMES).optional().meta({
      description:
        'The tool these hooks were written for (what "hookwire hooks import" writes): they get tool_name and tool_input in its names and units, and their answers are read by its rules. The matcher and "if" stay in hookwire\'s tool names. Default: hookwire\'s own.',
    }),
    dialectEvent: z.string().regex(/\S/).optional().meta({
      description:
        'With "dialect": the event name those hooks were written for, when that tool gives its hooks payloads of its own (Cursor\'s "beforeShellExecution", Windsurf\'s "pre_run_command", Copilot CLI\'s "preToolUse") or calls the event by a name of its own (Augment\'s "PromptSubmit"): they get that name and that payload. Default: the group\'s event.',
    }),
    hooks: z
      .array(hookEntrySchema())
      .min(1)
      .meta({ description: 'The hooks of this group, in order.' }),
  })
  .meta({ id: 'SettingsHookGroup', description: 'A matcher and its hooks.' });

const eventGroupsSchema = z.array(hookGroupSchema);

function describeEvent(name: RegisteredEventName): string {
  const canonical = (HOOK_EVENT_ALIASES as Readonly<Record<string, string>>)[name];
  const event = canonical ?? name;
  const target = MATCHER_TARGET[event as keyof typeof MATCHER_TARGET];
  const matcher =
    target === undefined ? 'Takes no matcher.' : `The matcher is matched against ${target}.`;
  return canonical === undefined
    ? `${name} hook groups. ${matcher}`
    : `Alias of ${canonical}. ${matcher}`;
}

const registeredNames: readonly RegisteredEventName[] = [
  ...HOOK_EVENT_NAMES,
  ...(Object.keys(HOOK_EVENT_ALIASES) as (keyof typeof HOOK_EVENT_ALIASES)[]),
];

/** The `hooks` object: event name (canonical or alias) → hook groups. */
export const hooksByEventSchema = z
  .strictObject(
    Object.fromEntries(
      registeredNames.map((name) => [
        name,
        eventGroupsSchema.optional().meta({ description: describeEvent(name) }),
      ]),
    ) as Record<RegisteredEventName, z.ZodOptional<typeof eventGroupsSchema>>,
  )
  .meta({ description: 'Hook groups by event name. Gemini CLI names are accepted as aliases.' });

/** Permission rules and the permission mode. */
export const permissionsSchema = z
  .strictObject({
    allow: z.array(z.string()).optional().meta({
      description:
        'Rules for calls that run without asking, e.g. "shell(npm run *)", "write_file(src/**)", "read_file" (every call). From files inside the project they apply once trusted.',
    }),
    deny: z.array(z.string()).optional().meta({
      description:
        'Rules for calls that are refused (the model sees why), e.g. "shell(git push *)", "read_file(.env)". deny beats ask beats allow.',
    }),
    ask: z.array(z.string()).optional().meta({
      description:
        'Rules for calls that need asking: PermissionRequest hooks decide; a headless run without a deciding hook denies them.',
    }),
    defaultMode: z.enum(['default', 'acceptEdits', 'plan', 'bypassPermissions']).optional().meta({
      description:
        'The permission mode when --permission-mode is not given: default, acceptEdits, plan or bypassPermissions (as in Claude Code).',
    }),
    additionalDirectories: z.array(z.string()).optional().meta({
      description:
        'Directories the file tools may use besides the project directory, like --add-dir (relative paths resolve against the project directory).',
    }),
  })
  .meta({ id: 'SettingsPermissions', description: 'Permission rules and mode for tool calls.' });

/** One agent type of the `agent` tool (see the README's "Subagents"). */
export const agentTypeSchema = z
  .strictObject({
    description: z.string().regex(/\S/).meta({
      description: 'What this agent does and when to use it: the model reads it to choose a type.',
    }),
    prompt: z.string().regex(/\S/).meta({ description: "The subagent's system prompt." }),
    tools: z.array(z.string()).optional().meta({
      description:
        'The tools it may call (a subset of the main agent\'s, MCP tools included): names, patterns with * ("mcp__github__*", "mcp__*"), or "mcp__SERVER" for every tool of a server. Default: all of them (without "agent" at the nesting limit).',
    }),
    model: z.string().optional().meta({
      description:
        'The model, as a --model spec ("anthropic:claude-haiku-4-5"), or "inherit" (default): the main agent\'s.',
    }),
  })
  .meta({ id: 'SettingsAgentType', description: 'An agent type for the agent tool.' });

/** A whole settings file. */
export const settingsFileSchema = z
  .strictObject({
    $schema: z
      .string()
      .optional()
      .meta({ description: 'The JSON Schema of this file, for editors.' }),
    allowManagedHooksOnly: z.boolean().optional().meta({
      description:
        'Managed policy file only: true ignores the hooks of every other settings file (user, project, local, --settings).',
    }),
    disableAllHooks: z.boolean().optional().meta({
      description:
        'true: no hook runs. In the managed policy file it binds every layer; in user or --settings files it turns off every hook but the managed ones.',
    }),
    permissions: permissionsSchema.optional(),
    passEnvironment: z
      .array(z.string().regex(/^[^=\0]+$/))
      .optional()
      .meta({
        description:
          'Variables the shell tool (and hooks with "environment": "scrubbed") keep although their names look like credentials, e.g. ["GITHUB_TOKEN"]. From files inside the project they apply once trusted.',
      }),
    dialects: z.array(z.enum(DIALECT_NAMES)).optional().meta({
      description:
        "Which other tools' settings files hookwire reads hooks from (Claude Code .claude/settings*.json, Gemini CLI .gemini/settings.json, Codex .codex/hooks.json, Kimi Code ~/.kimi-code/config.toml, GitHub Copilot CLI .github/hooks/*.json, Cursor .cursor/hooks.json, Windsurf .windsurf/hooks.json, and the Claude-shaped factory .factory/, augment .augment/, codebuddy .codebuddy/, qwen .qwen/). Default: all of them; [] reads none (like --no-dialects). The managed policy's value binds; else the last layer that sets it.",
    }),
    plugins: z.array(z.string().regex(/\S/)).optional().meta({
      description:
        'Claude Code plugin directories to load (each holding .claude-plugin/plugin.json, hooks/hooks.json, agents/, .mcp.json), like --plugin-dir; relative paths resolve against the project directory. Plugins inside the project run once trusted (hookwire hooks trust).',
    }),
    enabledPlugins: z
      .record(z.string().regex(/^[^@\s]+@[^@\s]+$/), z.boolean())
      .optional()
      .meta({
        description:
          'Plugins installed with Claude Code (~/.claude/plugins/installed_plugins.json) to load, as Claude Code writes it: {"NAME@MARKETPLACE": true}. Claude Code\'s own enabledPlugins (.claude/settings.json) count too; the last layer that sets a key wins.',
      }),
    hooks: hooksByEventSchema.optional(),
    agents: z
      .record(z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/), agentTypeSchema)
      .optional()
      .meta({
        description:
          'Agent types for the agent tool, by name; a later layer replaces a type of the same name, and these replace .hookwire/agents/NAME.md files.',
      }),
    mcpServers: mcpServersSchema.optional(),
    maxContextTokens: z.int().positive().optional().meta({
      description:
        "The context budget in tokens past which hookwire run compacts the history, like --max-context-tokens (which wins). Default: the model's known context window, else no automatic compaction. The last layer that sets it wins.",
    }),
    recordPayloads: z.boolean().optional().meta({
      description:
        'SENSITIVE. true: the session transcript keeps what each hook received (its payload) and the tool results before PostToolUse hooks reviewed them, which may hold what a redacting hook removed (keys, tokens), like --record-payloads. Default false: neither is written. Read from the managed, user and --settings files only; the managed value wins.',
    }),
    systemPrompt: z.string().max(65536).optional().meta({
      description:
        "The main agent's system prompt for hookwire run, in place of the default one (like --system-prompt, which wins); project instructions (AGENTS.md, CLAUDE.md, GEMINI.md) and --append-system-prompt still follow it. The last layer that sets it wins; from a file inside the project it applies once trusted (hookwire hooks trust).",
    }),
    pluginConfigs: z
      .record(
        z.string().min(1),
        z
          .strictObject({
            options: z.record(z.string(), z.unknown()).optional().meta({
              description:
                "Overrides the plugin's userConfig defaults (plugin.json); its mods get them as register's options.",
            }),
            failClosed: z.boolean().optional().meta({
              description:
                "true: a failure of one of the plugin's mod hooks (throw, timeout, wrong shape, wedged worker) denies what it guards, instead of Claude Code's skip. Default false.",
            }),
          })
          .meta({
            id: 'SettingsPluginConfig',
            description: "One Claude Code plugin's configuration.",
          }),
      )
      .optional()
      .meta({
        description:
          "Claude Code plugins' configuration, by plugin name (\"<name>@inline\" for a --plugin-dir plugin, as Claude Code spells it). Read from the managed, user and --settings files only; a later file's entry for a plugin replaces an earlier one's, and the managed one wins.",
      }),
    prependPlugins: z.array(z.string().min(1)).optional().meta({
      description:
        'Managed policy file only: Claude Code plugins (by name, or "<name>@inline") whose mods run outermost, before every other mod, in this order; only they may use next.to.',
    }),
    appendPlugins: z.array(z.string().min(1)).optional().meta({
      description:
        'Managed policy file only: Claude Code plugins whose mods run innermost, after the other mods, in this order; only they (and prependPlugins) may use next.to.',
    }),
    recovery: z
      .record(z.string().min(1), z.enum(['rerun', 'report']))
      .optional()
      .meta({
        description:
          'Durable sessions (hookwire worker, hookwire/restate): what a tool call that was running when its worker died becomes, by tool name. "rerun": it runs again (for idempotent tools); "report": the model is told the call was interrupted and may or may not have run. Default: read_file, glob and grep rerun, every other tool reports. A later layer overrides a tool an earlier one names.',
      }),
    maxStopContinuations: z.int().min(0).optional().meta({
      description:
        'How many times Stop (and SubagentStop) hooks may keep one turn going by blocking, like --max-stop-continuations (which wins); 0 lets no block continue a turn. The last layer that sets it wins.',
    }),
  })
  .meta({ title: 'hookwire settings', description: 'Command hooks for hookwire.' });

/** A settings file as validated by `settingsFileSchema`. */
export type SettingsFile = z.infer<typeof settingsFileSchema>;

/** The names of the fields each object of a settings file accepts, for unknown-field fixes. */
export const KNOWN_FIELDS = {
  file: Object.keys(settingsFileSchema.shape),
  group: Object.keys(hookGroupSchema.shape),
  hook: [...new Set(HOOK_KINDS.flatMap((kind) => Object.keys(kind.schema.shape)))],
  permissions: Object.keys(permissionsSchema.shape),
  events: registeredNames,
} as const;

/**
 * The JSON Schema (draft 2020-12) of a settings file, generated from `settingsFileSchema`; the
 * hook, group and timeout shapes are `$defs`. Pure: an equal object on every call.
 * `scripts/generate-schemas.ts` writes it to `schemas/settings.schema.json` (2-space JSON and a
 * final newline, like the wire's schemas).
 */
export function settingsJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(settingsFileSchema, { target: 'draft-2020-12', unrepresentable: 'throw' });
}
