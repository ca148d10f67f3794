/**
 * The process, http and prompt kinds in settings files: read through the registry into their
 * configs, validated with one clear issue per mistake (file, JSON path, fix), and accepted by the
 * generated settings JSON Schema exactly when the loader accepts them.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import {
  parseSettingsText,
  readSettingsText,
} from '../../src/hook-kinds/settings/parse-settings-text.ts';
import { formatSettingsIssues } from '../../src/hook-kinds/settings/settings-error.ts';
import { settingsJsonSchema } from '../../src/hook-kinds/settings/settings-schema.ts';

const origin = { file: 'settings.json', layer: 'user' } as const;
const withHooks = (...hooks: unknown[]): string =>
  JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'shell', hooks }] } });
const validate = new Ajv2020({ strict: false }).compile(settingsJsonSchema());

describe('process, http and prompt hooks in settings files', () => {
  it('reads each kind into its config, with its defaults', () => {
    const text = withHooks(
      { type: 'process', command: 'node guard.mjs', timeout: '2s', failClosed: true },
      { type: 'process', command: 'node early.mjs', start: 'session' },
      {
        type: 'http',
        url: 'http://127.0.0.1:8080/hook',
        headers: { authorization: 'Bearer $TOKEN' },
        allowedEnvVars: ['TOKEN'],
      },
      { type: 'http', url: 'https://hooks.example/check' },
      { type: 'prompt', prompt: 'Judge $ARGUMENTS', model: 'openai:gpt-judge', name: 'judge' },
    );
    const parsed = parseSettingsText(text, origin);
    const hooks = parsed.groups[0]?.hooks.map(
      ({ layer: _layer, file: _file, path: _path, ...rest }) => rest,
    );
    expect(hooks).toEqual([
      {
        type: 'process',
        name: 'node guard.mjs',
        command: 'node guard.mjs',
        start: 'first-use',
        timeoutMs: 2000,
        failClosed: true,
        alsoDefinedIn: [],
      },
      {
        type: 'process',
        name: 'node early.mjs',
        command: 'node early.mjs',
        start: 'session',
        timeoutMs: 60_000,
        failClosed: false,
        alsoDefinedIn: [],
      },
      {
        type: 'http',
        name: 'http://127.0.0.1:8080/hook',
        url: 'http://127.0.0.1:8080/hook',
        headers: { authorization: 'Bearer $TOKEN' },
        allowedEnvVars: ['TOKEN'],
        timeoutMs: 60_000,
        failClosed: false,
        alsoDefinedIn: [],
      },
      {
        type: 'http',
        name: 'https://hooks.example/check',
        url: 'https://hooks.example/check',
        headers: {},
        allowedEnvVars: [],
        timeoutMs: 60_000,
        failClosed: false,
        alsoDefinedIn: [],
      },
      {
        type: 'prompt',
        name: 'judge',
        prompt: 'Judge $ARGUMENTS',
        model: 'openai:gpt-judge',
        timeoutMs: 60_000,
        failClosed: false,
        alsoDefinedIn: [],
      },
    ]);
    expect(validate(JSON.parse(text))).toBe(true);
  });

  it('reports each mistake at its JSON path, and the schema rejects the same entries', () => {
    const cases: [unknown, string][] = [
      [{ type: 'process' }, 'hooks.PreToolUse[0].hooks[0].command'],
      [{ type: 'process', command: 'x', start: 'later' }, 'hooks.PreToolUse[0].hooks[0].start'],
      [{ type: 'http', url: 'ftp://example/x' }, 'hooks.PreToolUse[0].hooks[0].url'],
      [
        { type: 'http', url: 'http://x/', headers: { a: 1 } },
        'hooks.PreToolUse[0].hooks[0].headers',
      ],
      [{ type: 'prompt', prompt: '  ' }, 'hooks.PreToolUse[0].hooks[0].prompt'],
      [{ type: 'prompt', prompt: 'p', command: 'x' }, 'hooks.PreToolUse[0].hooks[0].command'],
      [{ type: 'daemon', command: 'x' }, 'hooks.PreToolUse[0].hooks[0].type'],
    ];
    for (const [hook, path] of cases) {
      const text = withHooks(hook);
      const issues = formatSettingsIssues(readSettingsText(text, origin).issues);
      expect(issues, JSON.stringify(hook)).toContain(`settings.json: ${path}`);
      expect(validate(JSON.parse(text)), JSON.stringify(hook)).toBe(false);
    }
  });
});
