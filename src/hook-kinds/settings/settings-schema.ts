import { z } from 'zod';
import {
  HOOK_EVENT_ALIASES,
  HOOK_EVENT_NAMES,
  MATCHER_TARGET,
  type RegisteredEventName,
} from '../../events/index.ts';
import { DURATION_PATTERN } from './duration.ts';

/**
 * The shape of a settings file, as zod schemas. They are the one source of truth: loading
 * validates with them, and `settingsJsonSchema()` turns them into the JSON Schema published as
 * `schemas/settings.schema.json` for editors. Every object is strict (an unknown field is an
 * error); checks that need more than a shape (matchers that compile, timeouts in range, matchers
 * on events that have no matcher target) run after this validation, in `parseSettingsText`.
 */

/** The `timeout` of a hook: seconds as a number, or a string with its unit. */
export const timeoutSchema = z
  .union([z.number().positive(), z.string().regex(DURATION_PATTERN)])
  .meta({
    id: 'SettingsTimeout',
    description:
      'Deadline of the hook process: a number of seconds (30), or a string with its unit ("500ms", "30s", "2m", "1h"). Default 60 seconds.',
  });

/** One external hook: a shell command run with the event's payload on stdin. */
export const commandHookSchema = z
  .strictObject({
    type: z
      .literal('command')
      .meta({ description: 'The kind of hook. Only "command" is supported.' }),
    command: z.string().regex(/\S/).meta({
      description: 'The shell command to run. Receives the event payload as JSON on stdin.',
    }),
    timeout: timeoutSchema.optional(),
    name: z.string().regex(/\S/).optional().meta({
      description:
        'A name shown in listings and logs. Defaults to the command (first 40 characters).',
    }),
    description: z.string().optional().meta({ description: "A note on the hook's purpose." }),
    failClosed: z.boolean().optional().meta({
      description:
        'true for a guard: if the hook crashes, times out or answers badly, the guarded action is denied. Default false (fail open with a warning).',
    }),
    environment: z.enum(['inherit', 'scrubbed']).optional().meta({
      description:
        'The environment the hook process gets. "inherit" (default): hookwire\'s own, as a trusted program of yours. "scrubbed": without credentials (variables named like *_API_KEY, *_TOKEN, *_SECRET*, *_PASSWORD*, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN), as the model\'s shell tool gets it; passEnvironment names the ones to keep.',
    }),
    sandbox: z.boolean().optional().meta({
      description:
        'true: run the hook under bubblewrap (bwrap) like the shell tool under --sandbox: the project and added directories writable, the rest read-only, a private /tmp, no network unless --sandbox-network. Default false.',
    }),
  })
  .meta({ id: 'SettingsCommandHook', description: 'A command hook.' });

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
    hooks: z
      .array(commandHookSchema)
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
    hooks: hooksByEventSchema.optional(),
  })
  .meta({ title: 'hookwire settings', description: 'Command hooks for hookwire.' });

/** A settings file as validated by `settingsFileSchema`. */
export type SettingsFile = z.infer<typeof settingsFileSchema>;

/** The names of the fields each object of a settings file accepts, for unknown-field fixes. */
export const KNOWN_FIELDS = {
  file: Object.keys(settingsFileSchema.shape),
  group: Object.keys(hookGroupSchema.shape),
  hook: Object.keys(commandHookSchema.shape),
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
