import { createHash } from 'node:crypto';

/**
 * The fields of a loaded hook that make it *that* hook for trust: everything that changes what
 * runs, where it sends the payload, what it may read, and how its answer is read. `name`,
 * `description`, the file and the JSON path do not count (moving a hook or renaming it keeps it
 * trusted; changing its command does not). A field a hook kind does not have is left out, so this
 * one list serves every kind: command (`command`), http (`url`, `headers`, `allowedEnvVars`),
 * prompt (`prompt`, `model`), process (`command`, `start`), and the dialects (`if`, `dialect`). A new field that changes
 * behaviour is added here, and only here.
 *
 * The event and the matcher come from the group (see `hookIdentity`); `dialect` is read from the
 * hook, else from its group.
 */
export const HOOK_IDENTITY_FIELDS = [
  'type',
  'command',
  'url',
  'headers',
  'allowedEnvVars',
  'prompt',
  'model',
  'start',
  'timeoutMs',
  'failClosed',
  'if',
  'environment',
  'env',
  'sandbox',
  'async',
  'once',
  'dialect',
] as const;

/** What `hookIdentity` reads from a group: its canonical event and its compiled matcher's key. */
export interface HookIdentityGroup {
  readonly event: string;
  readonly matcher: { readonly key: string };
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** `value` with every object's keys sorted (recursively), `undefined` members dropped. */
function canonical(value: unknown): Json {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'string' || typeof value === 'boolean') return value;
    if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
    return null;
  }
  if (Array.isArray(value)) return value.map(canonical);
  const out: { [key: string]: Json } = {};
  for (const key of Object.keys(value).sort()) {
    const member = (value as Record<string, unknown>)[key];
    if (member !== undefined) out[key] = canonical(member);
  }
  return out;
}

function field(source: object, key: string): unknown {
  return (source as Record<string, unknown>)[key];
}

/**
 * The normalized definition of one hook: `event`, `matcher` (the matcher's key, so `Edit|Write`
 * and `Write|Edit` are one matcher) and each of `HOOK_IDENTITY_FIELDS` the hook has, as one
 * canonical JSON text (keys sorted at every depth). Takes any hook kind's config.
 */
export function hookIdentity(group: HookIdentityGroup, hook: object): string {
  const identity: Record<string, unknown> = { event: group.event, matcher: group.matcher.key };
  for (const key of HOOK_IDENTITY_FIELDS) {
    const value = field(hook, key) ?? (key === 'dialect' ? field(group, key) : undefined);
    if (value !== undefined) identity[key] = value;
  }
  return JSON.stringify(canonical(identity));
}

/** The SHA-256 (lowercase hex) of `hookIdentity(group, hook)`: the key of the trust record. */
export function hookFingerprint(group: HookIdentityGroup, hook: object): string {
  return createHash('sha256').update(hookIdentity(group, hook)).digest('hex');
}

/**
 * The fingerprint of a setting that loosens what the model's tools may do (an allow rule, a
 * permission mode, an added directory, a passed variable), when a file inside the project sets
 * it: trusted like a hook, by `{setting, value}` (`setting` is e.g. `permissions.allow`).
 */
export function settingFingerprint(setting: string, value: string): string {
  return trustFingerprint({ setting, value });
}

/**
 * The SHA-256 (lowercase hex) of `value` as canonical JSON (keys sorted at every depth,
 * `undefined` members dropped): the key of a trust record, for whatever is trusted (a hook, a
 * setting, an MCP server).
 */
export function trustFingerprint(value: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(canonical(value)))
    .digest('hex');
}
