import { describe, expect, it } from 'vitest';
import { HOOK_KINDS } from '../registry.ts';
import { mergeSettingsFiles } from './effective-settings.ts';
import {
  COSMETIC_HOOK_FIELDS,
  hookFingerprint,
  hookIdentity,
  settingFingerprint,
} from './hook-identity.ts';
import { parseSettingsText, readSettingsText } from './parse-settings-text.ts';

const group = { event: 'PreToolUse', matcher: { key: 'edit_file|write_file' } };
const hook = { type: 'command', command: './guard.sh', timeoutMs: 60000, failClosed: false };

describe('hookIdentity', () => {
  it('is canonical JSON of the event, the matcher key and the identity fields, keys sorted', () => {
    expect(hookIdentity(group, hook)).toBe(
      '{"command":"./guard.sh","event":"PreToolUse","failClosed":false,"matcher":"edit_file|write_file","timeoutMs":60000,"type":"command"}',
    );
  });

  it('ignores name, description, file and path, and the order keys were written in', () => {
    const moved = {
      failClosed: false,
      name: 'renamed',
      description: 'a note',
      file: '/elsewhere.json',
      path: 'hooks.PreToolUse[3].hooks[0]',
      timeoutMs: 60000,
      command: './guard.sh',
      type: 'command',
    };
    expect(hookFingerprint(group, moved)).toBe(hookFingerprint(group, hook));
  });

  it('changes with any field that changes behaviour, for any hook kind', () => {
    const base = hookFingerprint(group, hook);
    const variants: object[] = [
      { ...hook, command: './guard.sh --force' },
      { ...hook, timeoutMs: 5000 },
      { ...hook, failClosed: true },
      { ...hook, environment: 'scrubbed' },
      { ...hook, sandbox: true },
      { ...hook, if: 'Bash(rm *)' },
      { ...hook, dialect: 'claude' },
      { type: 'http', url: 'http://127.0.0.1:9/hook', timeoutMs: 60000, failClosed: false },
      { type: 'prompt', prompt: 'Is $ARGUMENTS safe?', timeoutMs: 60000, failClosed: false },
    ];
    const prints = variants.map((variant) => hookFingerprint(group, variant));
    expect(new Set([base, ...prints]).size).toBe(variants.length + 1);
    expect(hookFingerprint({ ...group, event: 'PostToolUse' }, hook)).not.toBe(base);
    expect(hookFingerprint({ ...group, matcher: { key: '*' } }, hook)).not.toBe(base);
    // Nested values are canonical too: header order does not matter.
    const http = { type: 'http', url: 'http://127.0.0.1:9/', headers: { a: '1', b: '2' } };
    expect(hookFingerprint(group, http)).toBe(
      hookFingerprint(group, { ...http, headers: { b: '2', a: '1' } }),
    );
  });

  it('reads the dialect from the group when the hook has none', () => {
    expect(hookIdentity({ ...group, dialect: 'gemini' } as typeof group, hook)).toContain(
      '"dialect":"gemini"',
    );
  });

  it("counts a field no list names: a new kind's behavioural field makes two hooks", () => {
    // The review's trial kind `static`: its `answer` is behaviour, and nobody listed it.
    const one = { type: 'static', answer: '{"decision":"block"}', timeoutMs: 1, failClosed: false };
    const two = { ...one, answer: '{}' };
    expect(hookFingerprint(group, one)).not.toBe(hookFingerprint(group, two));
    expect(hookFingerprint(group, { ...one, name: 'x', alsoDefinedIn: ['y'] })).toBe(
      hookFingerprint(group, one),
    );
  });

  it('fingerprints a setting by its name and value', () => {
    expect(settingFingerprint('permissions.allow', 'shell')).toMatch(/^[0-9a-f]{64}$/);
    expect(settingFingerprint('permissions.allow', 'shell')).not.toBe(
      settingFingerprint('permissions.allow', 'shell(npm *)'),
    );
  });
});

/** Values tried for a settings property: each property takes the ones its schema accepts. */
const CANDIDATES: readonly unknown[] = [
  true,
  false,
  1,
  5,
  'a',
  'b',
  'inherit',
  'scrubbed',
  'first-use',
  'session',
  'shell(rm *)',
  'shell(ls *)',
  'http://127.0.0.1:9/a',
  'http://127.0.0.1:9/b',
  ['A'],
  ['B'],
  { a: '1' },
  { a: '2' },
  // ahp: transports (http first: the base entry's, so that `authentication` applies), bearer
  // references, failure policies, protocol versions.
  { type: 'http', url: 'http://127.0.0.1:9/ahp' },
  { type: 'stdio', command: 'policy', args: ['serve'], lifecycle: 'persistent' },
  { type: 'bearer', tokenEnv: 'A' },
  { type: 'bearer', tokenEnv: 'B' },
  'fail-open',
  'fail-closed',
  '0.1',
  'draft',
];

const ABSENT = Symbol('absent');

/**
 * The fingerprint of `entry` as settings loading reads it (a PreToolUse hook on `shell`);
 * `undefined` when settings validation rejects it (the schema's property fits, the file does not).
 */
function loadedFingerprint(entry: Record<string, unknown>): string | undefined {
  const text = JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'shell', hooks: [entry] }] } });
  const parsed = readSettingsText(text, {
    file: '/p/.hookwire/settings.json',
    layer: 'user',
  }).parsed;
  if (parsed === undefined) return undefined;
  const loaded = parsed.groups[0];
  const hook = loaded?.hooks[0];
  if (loaded === undefined || hook === undefined) throw new Error('no hook loaded');
  return hookFingerprint(loaded, hook);
}

/** The cosmetic config fields that say where a hook was defined (set by the loader). */
const LOCATION_FIELDS: ReadonlySet<string> = new Set(['layer', 'file', 'path', 'alsoDefinedIn']);

describe('the identity of every registered kind, from its settings schema', () => {
  for (const kind of HOOK_KINDS) {
    const shape = kind.schema.shape as Record<
      string,
      { safeParse(value: unknown): { success: boolean } }
    >;
    const accepted = (property: string): unknown[] => {
      const schema = shape[property];
      return schema === undefined
        ? []
        : CANDIDATES.filter((value) => schema.safeParse(value).success);
    };
    // The smallest entry the schema accepts: its type and each required property's first value.
    const base: Record<string, unknown> = { type: kind.type };
    for (const property of Object.keys(shape)) {
      if (property === 'type' || shape[property]?.safeParse(undefined).success === true) continue;
      base[property] = accepted(property)[0];
    }
    // An ahp intercept (PreToolUse) loads only with its failure policy and deadline declared.
    if (kind.type === 'ahp') Object.assign(base, { failurePolicy: 'fail-open', timeout: 1 });

    it(`${kind.type}: every property is cosmetic or changes the fingerprint`, () => {
      expect(kind.schema.safeParse(base).success).toBe(true);
      for (const property of Object.keys(shape)) {
        if (property === 'type') {
          expect(hookIdentity(group, { type: kind.type })).toContain(`"type":"${kind.type}"`);
          continue;
        }
        const optional = shape[property]?.safeParse(undefined).success === true;
        const loaded = [...(optional ? [ABSENT] : []), ...accepted(property)].map((value) => {
          const entry = Object.fromEntries(
            Object.entries(base).filter(([key]) => key !== property),
          );
          if (value !== ABSENT) entry[property] = value;
          return loadedFingerprint(entry);
        });
        const values = loaded.filter((print) => print !== undefined);
        const prints = new Set(values);
        // `layer`, `file`, `path` and `alsoDefinedIn` are where a config was defined, never a
        // settings property: a kind's own `path` (the module kind's file) is what it runs.
        if (COSMETIC_HOOK_FIELDS.has(property) && !LOCATION_FIELDS.has(property)) {
          expect(prints.size, `cosmetic ${kind.type}.${property} changed the fingerprint`).toBe(1);
          continue;
        }
        expect(
          values.length,
          `${kind.type}.${property}: no candidate value fits its schema; add one to CANDIDATES`,
        ).toBeGreaterThanOrEqual(2);
        expect(
          prints.size,
          `${kind.type}.${property} is in neither list: changing it leaves the fingerprint as it was (parse drops it, or it belongs in COSMETIC_HOOK_FIELDS)`,
        ).toBeGreaterThan(1);
      }
    });
  }

  it('keeps two hooks of a kind that differ only in a behavioural field as two hooks', () => {
    const text = JSON.stringify({
      hooks: {
        PreToolUse: [
          {
            matcher: 'shell',
            hooks: [
              { type: 'process', command: './judge', start: 'session' },
              { type: 'process', command: './judge' },
              { type: 'http', url: 'http://127.0.0.1:9/', headers: { a: '1' } },
              { type: 'http', url: 'http://127.0.0.1:9/', headers: { a: '2' } },
              { type: 'prompt', prompt: 'ok?', model: 'a' },
              { type: 'prompt', prompt: 'ok?', model: 'b' },
              { type: 'prompt', prompt: 'ok?', model: 'b', name: 'renamed' },
            ],
          },
        ],
      },
    });
    const parsed = parseSettingsText(text, { file: '/p/s.json', layer: 'user' });
    const merged = mergeSettingsFiles([parsed]);
    const hooks = merged.events.PreToolUse?.[0]?.hooks ?? [];
    expect(hooks.map((hook) => hook.type)).toEqual([
      'process',
      'process',
      'http',
      'http',
      'prompt',
      'prompt',
    ]);
    const loaded = merged.events.PreToolUse?.[0];
    if (loaded === undefined) throw new Error('no group');
    expect(new Set(hooks.map((hook) => hookFingerprint(loaded, hook))).size).toBe(6);
    expect(hooks[5]?.alsoDefinedIn).toEqual(['user: /p/s.json at hooks.PreToolUse[0].hooks[6]']);
  });
});
