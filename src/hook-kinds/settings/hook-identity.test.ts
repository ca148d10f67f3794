import { describe, expect, it } from 'vitest';
import {
  HOOK_IDENTITY_FIELDS,
  hookFingerprint,
  hookIdentity,
  settingFingerprint,
} from './hook-identity.ts';

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

  it('lists every field named by the trust issue', () => {
    for (const field of [
      'type',
      'command',
      'url',
      'prompt',
      'timeoutMs',
      'failClosed',
      'if',
      'environment',
      'dialect',
    ])
      expect(HOOK_IDENTITY_FIELDS).toContain(field);
  });

  it('fingerprints a setting by its name and value', () => {
    expect(settingFingerprint('permissions.allow', 'shell')).toMatch(/^[0-9a-f]{64}$/);
    expect(settingFingerprint('permissions.allow', 'shell')).not.toBe(
      settingFingerprint('permissions.allow', 'shell(npm *)'),
    );
  });
});
