import type { z } from 'zod';
import { HOOK_EVENT_NAMES, canonicalEventName } from '../../events/index.ts';
import { describeType } from '../duration.ts';
import { closestName } from './edit-distance.ts';
import { KNOWN_FIELDS } from './settings-schema.ts';
import { HOOK_KINDS } from '../registry.ts';
import { MAX_ISSUES_PER_FILE } from './settings-limits.ts';
import { formatJsonPath, type SettingsIssue } from './settings-issue.ts';

type Segment = string | number;

/** The value at `path` in `root`, or `undefined` when the path does not exist. */
export function valueAt(root: unknown, path: readonly Segment[]): unknown {
  let current = root;
  for (const segment of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

/** Which object of a settings file a path points into. */
function objectKind(
  path: readonly Segment[],
): 'file' | 'events' | 'group' | 'hook' | 'permissions' | undefined {
  if (path.length === 0) return 'file';
  if (path.length === 1 && path[0] === 'permissions') return 'permissions';
  if (path.length === 1 && path[0] === 'hooks') return 'events';
  if (path.length === 3) return 'group';
  if (path.length === 5) return 'hook';
  return undefined;
}

/** True for the path of a hook's `timeout`: its checks belong to `parseTimeout`. */
export function isTimeoutPath(path: readonly PropertyKey[]): boolean {
  return path.length === 6 && path[0] === 'hooks' && path[3] === 'hooks' && path[5] === 'timeout';
}

const validEvents = `valid events: ${HOOK_EVENT_NAMES.join(', ')} (Gemini CLI aliases: BeforeAgent, BeforeTool, AfterTool, AfterAgent, PreCompress)`;

function unknownKeyIssue(
  file: string,
  path: readonly Segment[],
  key: string,
  raw: unknown,
): SettingsIssue {
  const at = formatJsonPath([...path, key]);
  const kind = objectKind(path);
  if (kind === 'hook' && KNOWN_FIELDS.hook.includes(key)) {
    // A field of another kind of hook (`if` on a process hook): say so, not "did you mean" itself.
    const type = valueAt(raw, [...path, 'type']);
    const kinds = HOOK_KINDS.filter((hookKind) => key in hookKind.schema.shape).map(
      (hookKind) => `"${hookKind.type}"`,
    );
    return {
      file,
      path: at,
      message: `${JSON.stringify(key)} is not supported for a hook of type ${JSON.stringify(type)}`,
      fix: `remove it (${JSON.stringify(key)} is a field of hooks of type ${kinds.join(', ')})`,
    };
  }
  if (kind === 'events') {
    const suggestion = closestName(key, HOOK_EVENT_NAMES) ?? closestName(key, KNOWN_FIELDS.events);
    return {
      file,
      path: at,
      message: `unknown event ${JSON.stringify(key)}`,
      fix: `${suggestion === undefined ? '' : `did you mean ${JSON.stringify(suggestion)}? `}${validEvents}`,
    };
  }
  if (kind === 'file' && canonicalEventName(key) !== undefined) {
    return {
      file,
      path: at,
      message: `event ${JSON.stringify(key)} is outside "hooks"`,
      fix: `move it under "hooks": {"hooks": {${JSON.stringify(key)}: [...]}}`,
    };
  }
  const fields =
    kind === 'file'
      ? KNOWN_FIELDS.file
      : kind === 'group'
        ? KNOWN_FIELDS.group
        : kind === 'permissions'
          ? KNOWN_FIELDS.permissions
          : KNOWN_FIELDS.hook;
  const where =
    kind === 'file'
      ? 'a settings file'
      : kind === 'group'
        ? 'a hook group'
        : kind === 'permissions'
          ? '"permissions"'
          : 'a hook';
  const suggestion = closestName(key, fields);
  const otherLevel =
    kind === 'group' && KNOWN_FIELDS.hook.includes(key)
      ? ` (${JSON.stringify(key)} belongs to each hook inside "hooks")`
      : kind === 'hook' && (KNOWN_FIELDS.group as readonly string[]).includes(key)
        ? ` (${JSON.stringify(key)} belongs to the group around "hooks")`
        : '';
  return {
    file,
    path: at,
    message: `unknown field ${JSON.stringify(key)} in ${where}${otherLevel}`,
    fix: `${suggestion === undefined || otherLevel !== '' ? 'remove it' : `did you mean ${JSON.stringify(suggestion)}?`} (${where} accepts ${fields.map((field) => JSON.stringify(field)).join(', ')})`,
  };
}

const missingFieldFixes: Readonly<Record<string, string>> = {
  type: 'add "type": "command"',
  command: 'add "command" with the shell command to run, e.g. "command": "./hooks/guard.sh"',
  hooks: 'add "hooks": [{"type": "command", "command": "..."}]',
};

function exampleOf(expected: string, field: Segment | undefined): string {
  if (expected === 'boolean') return 'write true or false';
  if (expected === 'string')
    return field === 'matcher'
      ? 'write a string such as "Bash" or "Edit|Write"'
      : 'write a string in double quotes';
  if (expected === 'array') {
    return field === 'hooks'
      ? 'write a list: [{"type": "command", "command": "..."}]'
      : 'write a list of groups: [{"matcher": "...", "hooks": [{"type": "command", "command": "..."}]}]';
  }
  if (expected === 'object') return 'write an object: {...}';
  return `write a ${expected}`;
}

/**
 * Turns one zod issue of `settingsFileSchema` into settings issues with a message and a fix
 * (an unrecognised-keys issue becomes one issue per key). `raw` is the parsed JSON, used to
 * name what was actually written.
 */
export function schemaIssues(file: string, issue: z.core.$ZodIssue, raw: unknown): SettingsIssue[] {
  const path = issue.path.filter((segment): segment is Segment => typeof segment !== 'symbol');
  const at = formatJsonPath(path);
  const field = path[path.length - 1];
  const fieldName = typeof field === 'string' ? field : 'value';
  const actual = valueAt(raw, path);
  switch (issue.code) {
    case 'unrecognized_keys':
      // A hostile object may hold a hundred thousand unknown keys: the first ones are enough.
      return issue.keys
        .slice(0, MAX_ISSUES_PER_FILE + 1)
        .map((key) => unknownKeyIssue(file, path, key, raw));
    case 'invalid_type': {
      if (actual === undefined && typeof field === 'string') {
        return [
          {
            file,
            path: at,
            message: `missing required field ${JSON.stringify(field)}`,
            fix: missingFieldFixes[field] ?? `add ${JSON.stringify(field)}`,
          },
        ];
      }
      const expected = issue.expected;
      const subject =
        path.length === 0
          ? 'a settings file'
          : path.length === 2 && path[0] === 'hooks'
            ? `event ${JSON.stringify(field)}`
            : path.length === 3
              ? 'a hook group'
              : path.length === 5
                ? 'a hook'
                : fieldName;
      return [
        {
          file,
          path: at,
          message: `${subject} must be ${expected === 'array' || expected === 'object' ? 'an' : 'a'} ${expected}, got ${describeType(actual)}`,
          fix:
            path.length === 0
              ? 'write a JSON object: {"hooks": {...}}'
              : exampleOf(expected, field),
        },
      ];
    }
    case 'invalid_value':
      if (fieldName === 'type') {
        return [
          {
            file,
            path: at,
            message: `hook type ${JSON.stringify(actual)} is not supported`,
            fix: 'write "type": "command" (the only kind of hook settings files define)',
          },
        ];
      }
      break;
    case 'invalid_format':
      if (fieldName === 'command') {
        return [
          {
            file,
            path: at,
            message: 'command is empty',
            fix: 'write the shell command to run, e.g. "./hooks/guard.sh"',
          },
        ];
      }
      if (fieldName === 'name') {
        return [
          {
            file,
            path: at,
            message: 'name is empty',
            fix: 'write a name, or leave "name" out to use the command',
          },
        ];
      }
      break;
    case 'too_small':
      if (fieldName === 'hooks' && path.length === 4) {
        return [
          {
            file,
            path: at,
            message: 'hook group has no hooks',
            fix: 'add a hook, e.g. [{"type": "command", "command": "..."}], or remove the group',
          },
        ];
      }
      break;
    default:
      break;
  }
  return [
    {
      file,
      path: at,
      message: issue.message,
      fix: 'see schemas/settings.schema.json for the accepted shape',
    },
  ];
}
