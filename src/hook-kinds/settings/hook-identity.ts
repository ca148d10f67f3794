import { sha256 } from '../../wire/sha256.ts';

/**
 * The fields of a loaded hook that do not change what it does: its name and notes, where it was
 * defined, and Claude Code's spinner text. Everything else a kind's `parse` puts in the config
 * is the hook's identity, for de-duplication and trust (as codex hashes its whole normalised
 * handler): a new kind's fields count without anyone listing them, and a field that does not
 * change behaviour has to be named here on purpose. `hook-identity.test.ts` walks every kind's
 * settings schema and fails on a property whose change leaves the fingerprint as it was unless it
 * is listed here.
 *
 * - `name`, `description`, `statusMessage`: shown, never run (renaming a hook keeps it trusted).
 * - `layer`, `file`, `path`, `alsoDefinedIn`: where it was defined (moving it keeps it trusted,
 *   and the same hook in two files runs once).
 */
export const COSMETIC_HOOK_FIELDS: ReadonlySet<string> = new Set([
  'name',
  'description',
  'statusMessage',
  'layer',
  'file',
  'path',
  'alsoDefinedIn',
]);

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
 * and `Write|Edit` are one matcher), the group's `dialect`, and every field of the hook's config
 * but `COSMETIC_HOOK_FIELDS`, as one canonical JSON text (keys sorted at every depth). Takes any
 * hook kind's config.
 */
export function hookIdentity(group: HookIdentityGroup, hook: object): string {
  const identity: Record<string, unknown> = { event: group.event, matcher: group.matcher.key };
  const dialect = field(group, 'dialect');
  if (dialect !== undefined) identity['dialect'] = dialect;
  // The payload a dialect with payloads of its own gives (Cursor's beforeShellExecution).
  const dialectEvent = field(group, 'dialectEvent');
  if (dialectEvent !== undefined) identity['dialectEvent'] = dialectEvent;
  for (const [key, value] of Object.entries(hook))
    if (value !== undefined && !COSMETIC_HOOK_FIELDS.has(key)) identity[key] = value;
  return JSON.stringify(canonical(identity));
}

/** The SHA-256 (lowercase hex) of `hookIdentity(group, hook)`: the key of the trust record. */
export function hookFingerprint(group: HookIdentityGroup, hook: object): string {
  return sha256().update(hookIdentity(group, hook)).digest('hex');
}

/**
 * The fingerprint of `hook` without its `namedFiles`: the same as `hookFingerprint` for a hook
 * that runs no project file, and what the trust record files a trusted hook's file contents
 * under (to say which script changed since).
 */
export function definitionFingerprint(group: HookIdentityGroup, hook: object): string {
  if (!('namedFiles' in hook) || hook.namedFiles === undefined) return hookFingerprint(group, hook);
  return hookFingerprint(group, { ...hook, namedFiles: undefined });
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
  return sha256()
    .update(JSON.stringify(canonical(value)))
    .digest('hex');
}
