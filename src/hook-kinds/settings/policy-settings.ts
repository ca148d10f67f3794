/**
 * The non-hook settings of a file that decide what the model's tools may do: `permissions`
 * (rules, `defaultMode`, `additionalDirectories`), `passEnvironment` and `disableAllHooks`. Read
 * tolerantly after the schema check, so every issue of a file is reported at once.
 */
import {
  parsePermissionRule,
  type PermissionMode,
  type PermissionRule,
} from '../../hooks/permissions/index.ts';
import { isJsonObject } from '../../wire/json-object.ts';
import { formatJsonPath, type SettingsIssue } from './settings-issue.ts';
import type { SettingsLayer } from './settings-layer.ts';

/** Where a setting was written. */
export interface SettingLocation {
  readonly layer: SettingsLayer;
  readonly file: string;
  /** JSON path, e.g. `permissions.allow[2]`. */
  readonly path: string;
}

/** A permission rule and where it was written. */
export interface LocatedRule extends PermissionRule, SettingLocation {}

/** A string setting and where it was written. */
export interface LocatedValue<Value extends string = string> extends SettingLocation {
  readonly value: Value;
}

/** The policy settings of one file. */
export interface FilePolicySettings {
  readonly disableAllHooks: boolean;
  /** The file has a `permissions` object (even an empty one). */
  readonly hasPermissions: boolean;
  readonly allow: readonly LocatedRule[];
  readonly deny: readonly LocatedRule[];
  readonly ask: readonly LocatedRule[];
  readonly defaultMode?: LocatedValue<PermissionMode>;
  readonly additionalDirectories: readonly LocatedValue[];
  readonly passEnvironment: readonly LocatedValue[];
}

/**
 * The policy of a file that sets none: what the dialects' files (their `permissions` are their
 * own tool's) and `.mcp.json` (servers only) contribute.
 */
export const NO_FILE_POLICY: FilePolicySettings = Object.freeze({
  disableAllHooks: false,
  hasPermissions: false,
  allow: [],
  deny: [],
  ask: [],
  additionalDirectories: [],
  passEnvironment: [],
});

const MODES: ReadonlySet<string> = new Set(['default', 'acceptEdits', 'plan', 'bypassPermissions']);

function strings(value: unknown): { value: string; index: number }[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry: unknown, index) =>
    typeof entry === 'string' ? [{ value: entry, index }] : [],
  );
}

/** Reads the policy settings of a file's raw JSON; appends what is wrong to `issues`. */
export function readPolicySettings(
  raw: unknown,
  origin: { readonly file: string; readonly layer: SettingsLayer },
  issues: SettingsIssue[],
): FilePolicySettings {
  const { file, layer } = origin;
  const object = isJsonObject(raw) ? raw : {};
  const disableAllHooks = object.disableAllHooks === true;
  if (object.disableAllHooks !== undefined && (layer === 'project' || layer === 'local')) {
    issues.push({
      file,
      path: 'disableAllHooks',
      message: `disableAllHooks has no effect in the ${layer} settings: a repository cannot switch off your hooks`,
      fix: 'remove it; set it in your user settings (~/.hookwire/settings.json), a --settings file, or the managed policy file',
    });
  }
  const permissions = isJsonObject(object.permissions) ? object.permissions : undefined;
  const rulesOf = (list: 'allow' | 'deny' | 'ask'): LocatedRule[] =>
    strings(permissions?.[list]).flatMap(({ value, index }) => {
      const path = formatJsonPath(['permissions', list, index]);
      const parsed = parsePermissionRule(value);
      if (!parsed.ok) {
        issues.push({ file, path, message: parsed.message, fix: parsed.fix });
        return [];
      }
      return [{ ...parsed.rule, layer, file, path }];
    });
  const mode = permissions?.defaultMode;
  const defaultMode =
    typeof mode === 'string' && MODES.has(mode)
      ? { value: mode as PermissionMode, layer, file, path: 'permissions.defaultMode' }
      : undefined;
  const located = (value: unknown, at: readonly string[]): LocatedValue[] =>
    strings(value).map(({ value: entry, index }) => ({
      value: entry,
      layer,
      file,
      path: formatJsonPath([...at, index]),
    }));
  return {
    disableAllHooks,
    hasPermissions: permissions !== undefined,
    allow: rulesOf('allow'),
    deny: rulesOf('deny'),
    ask: rulesOf('ask'),
    ...(defaultMode === undefined ? {} : { defaultMode }),
    additionalDirectories: located(permissions?.additionalDirectories, [
      'permissions',
      'additionalDirectories',
    ]),
    passEnvironment: located(object.passEnvironment, ['passEnvironment']),
  };
}
