import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { defaultHookName, parseSettingsText, readSettingsText } from './parse-settings-text.ts';
import { SettingsError, formatSettingsIssues } from './settings-error.ts';
import { settingsJsonSchema } from './settings-schema.ts';
import { MAX_LISTED_ISSUES, SETTINGS_LIMITS } from './settings-limits.ts';
import { mergeSettingsFiles } from './effective-settings.ts';

const root = join(import.meta.dirname, '..', '..', '..');
const fixture = (name: string): string =>
  readFileSync(join(root, 'test', 'fixtures', 'settings', name), 'utf8');
const user = { file: 'settings.json', layer: 'user' } as const;

function issuesOf(text: string, layer: 'managed' | 'user' = 'user'): string {
  return formatSettingsIssues(readSettingsText(text, { file: 'settings.json', layer }).issues);
}

describe('parseSettingsText', () => {
  it('reads every field of a valid file, with aliases registered under their own name', () => {
    const parsed = parseSettingsText(fixture('valid-full.json'), user);
    const summary = parsed.groups.map((group) => ({
      event: group.event,
      registeredAs: group.registeredAs,
      matcher: group.matcherSource,
      kind: group.matcher.kind,
      sequential: group.sequential,
      path: group.path,
      hooks: group.hooks.map((hook) => [hook.name, hook.timeoutMs, hook.failClosed, hook.path]),
    }));
    expect(summary).toMatchInlineSnapshot(`
      [
        {
          "event": "PreToolUse",
          "hooks": [
            [
              "shell guard",
              5000,
              true,
              "hooks.PreToolUse[0].hooks[0]",
            ],
          ],
          "kind": "names",
          "matcher": "Bash",
          "path": "hooks.PreToolUse[0]",
          "registeredAs": "PreToolUse",
          "sequential": false,
        },
        {
          "event": "PreToolUse",
          "hooks": [
            [
              "./hooks/format.sh",
              1500,
              false,
              "hooks.PreToolUse[1].hooks[0]",
            ],
            [
              "./hooks/lint.sh",
              120000,
              false,
              "hooks.PreToolUse[1].hooks[1]",
            ],
          ],
          "kind": "names",
          "matcher": "Edit|Write",
          "path": "hooks.PreToolUse[1]",
          "registeredAs": "PreToolUse",
          "sequential": true,
        },
        {
          "event": "PreToolUse",
          "hooks": [
            [
              "./hooks/audit-mcp.sh",
              500,
              false,
              "hooks.BeforeTool[0].hooks[0]",
            ],
          ],
          "kind": "pattern",
          "matcher": "mcp__.*",
          "path": "hooks.BeforeTool[0]",
          "registeredAs": "BeforeTool",
          "sequential": false,
        },
        {
          "event": "Stop",
          "hooks": [
            [
              "./hooks/check-done.sh",
              60000,
              false,
              "hooks.AfterAgent[0].hooks[0]",
            ],
          ],
          "kind": "all",
          "matcher": "",
          "path": "hooks.AfterAgent[0]",
          "registeredAs": "AfterAgent",
          "sequential": false,
        },
        {
          "event": "SessionStart",
          "hooks": [
            [
              "cat NOTES.md",
              60000,
              false,
              "hooks.SessionStart[0].hooks[0]",
            ],
          ],
          "kind": "names",
          "matcher": "startup|resume",
          "path": "hooks.SessionStart[0]",
          "registeredAs": "SessionStart",
          "sequential": false,
        },
      ]
    `);
    expect(parsed.groups[1]?.hooks[1]?.description).toBe('lint after format');
  });

  it('accepts an empty object and a byte-order mark', () => {
    expect(parseSettingsText('{}', user).groups).toEqual([]);
    expect(parseSettingsText('\uFEFF{"hooks": {}}', user).groups).toEqual([]);
  });

  it('reports every issue of a file in document order, each with its path and fix', () => {
    expect(issuesOf(fixture('invalid-every-kind.json'))).toMatchInlineSnapshot(`
      "Invalid hook settings (11 issues):
        settings.json: extra: unknown field "extra" in a settings file; fix: remove it (a settings file accepts "$schema", "allowManagedHooksOnly", "disableAllHooks", "permissions", "passEnvironment", "dialects", "plugins", "enabledPlugins", "hooks", "agents", "mcpServers", "maxContextTokens", "recordPayloads", "systemPrompt", "pluginConfigs", "prependPlugins", "appendPlugins", "recovery", "maxStopContinuations")
        settings.json: hooks.PreTooluse: unknown event "PreTooluse"; fix: did you mean "PreToolUse"? valid events: SessionStart, UserPromptSubmit, BeforeModel, BeforeToolSelection, AfterModel, PreToolUse, PermissionRequest, PostToolUse, PostToolUseFailure, SubagentStart, SubagentStop, Stop, StopFailure, Interrupt, PreCompact, PostCompact, Notification, SessionEnd (Gemini CLI aliases: BeforeAgent, BeforeTool, AfterTool, AfterAgent, PreCompress)
        settings.json: hooks.Stop[0].matcher: Stop takes no matcher (it has no value to match against), so matcher "Bash" could never apply; fix: remove "matcher" (events with a matcher: SessionStart, PreToolUse, PermissionRequest, PostToolUse, PostToolUseFailure, SubagentStart, SubagentStop, PreCompact, PostCompact, Notification, SessionEnd)
        settings.json: hooks.BeforeTool[0].matcher: matcher "[" is not a valid regular expression: Invalid regular expression: /[/: Unterminated character class; fix: escape special characters with a backslash (in JSON, "\\\\[" for a literal "["), or list tool names as "Edit|Write"
        settings.json: hooks.BeforeTool[0].hooks[1].command: command is empty; fix: write the shell command to run, e.g. "./hooks/guard.sh"
        settings.json: hooks.BeforeTool[0].hooks[1].timeout: timeout "30" has no unit, so it is ambiguous (seconds or milliseconds?); fix: write 30 (seconds) or "30s"
        settings.json: hooks.BeforeTool[0].hooks[2].timeout: timeout "5 minutes" is not a duration hookwire reads; fix: write "5m"
        settings.json: hooks.BeforeTool[0].hooks[2].tmeout: unknown field "tmeout" in a hook; fix: did you mean "timeout"? (a hook accepts "type", "command", "timeout", "if", "name", "description", "failClosed", "environment", "cwd", "sandbox", "start", "url", "headers", "allowedEnvVars", "prompt", "model", "transport", "authentication", "failurePolicy", "protocolVersion", "includeNative", "path")
        settings.json: hooks.BeforeTool[0].hooks[3].timeout: timeout 0 must be greater than zero; fix: give the hook time to run: write 30 (seconds) or "30s"; leave timeout out for the 60 s default
        settings.json: hooks.BeforeTool[1].hooks: hook group has no hooks; fix: add a hook, e.g. [{"type": "command", "command": "..."}], or remove the group
        settings.json: hooks.PostToolUse: event "PostToolUse" must be an array, got an object; fix: write a list of groups: [{"matcher": "...", "hooks": [{"type": "command", "command": "..."}]}]"
    `);
  });

  it('throws a SettingsError carrying the issues', () => {
    expect(() => parseSettingsText('{"hooks": {"Stop": 1}}', user)).toThrow(SettingsError);
    try {
      parseSettingsText('{"hooks": {"Stop": 1}}', user);
      expect.unreachable();
    } catch (error) {
      expect((error as SettingsError).issues).toEqual([
        {
          file: 'settings.json',
          path: 'hooks.Stop',
          message: 'event "Stop" must be an array, got a number',
          fix: 'write a list of groups: [{"matcher": "...", "hooks": [{"type": "command", "command": "..."}]}]',
        },
      ]);
    }
  });

  it('suggests the closest event name', () => {
    const fixOf = (name: string) =>
      readSettingsText(`{"hooks": {"${name}": []}}`, user).issues[0]?.fix.split('?')[0];
    expect(fixOf('PreTooluse')).toBe('did you mean "PreToolUse"');
    expect(fixOf('pretooluse')).toBe('did you mean "PreToolUse"');
    expect(fixOf('PostToolUsee')).toBe('did you mean "PostToolUse"');
    expect(fixOf('BeforeTools')).toBe('did you mean "BeforeTool"');
    expect(fixOf('SessionBegin')).toBe('did you mean "SessionEnd"');
    expect(fixOf('Zzzzzzzz')).toMatch(/^valid events: SessionStart/);
  });

  it('names a field written at the wrong level and an event written outside "hooks"', () => {
    expect(
      issuesOf(
        '{"PreToolUse": [], "hooks": {"Stop": [{"timeout": 5, "hooks": [{"type": "command", "command": "x", "matcher": "y"}]}]}}',
      ),
    ).toMatchInlineSnapshot(`
      "Invalid hook settings (3 issues):
        settings.json: PreToolUse: event "PreToolUse" is outside "hooks"; fix: move it under "hooks": {"hooks": {"PreToolUse": [...]}}
        settings.json: hooks.Stop[0].timeout: unknown field "timeout" in a hook group ("timeout" belongs to each hook inside "hooks"); fix: remove it (a hook group accepts "matcher", "sequential", "dialect", "dialectEvent", "hooks")
        settings.json: hooks.Stop[0].hooks[0].matcher: unknown field "matcher" in a hook ("matcher" belongs to the group around "hooks"); fix: remove it (a hook accepts "type", "command", "timeout", "if", "name", "description", "failClosed", "environment", "cwd", "sandbox", "start", "url", "headers", "allowedEnvVars", "prompt", "model", "transport", "authentication", "failurePolicy", "protocolVersion", "includeNative", "path")"
    `);
  });

  it('says a field of another kind of hook is not supported for this kind, instead of suggesting the field itself', () => {
    const text = issuesOf(
      '{"hooks": {"PreToolUse": [{"hooks": [{"type": "process", "command": "node guard.mjs", "if": "shell(rm *)"}]}]}}',
    );
    expect(text).not.toContain('did you mean');
    expect(text).toBe(
      'Invalid hook settings (1 issue):\n  settings.json: hooks.PreToolUse[0].hooks[0].if: "if" is not supported for a hook of type "process"; fix: remove it ("if" is a field of hooks of type "command")',
    );
  });

  it("an if naming another tool's name for a built-in (Bash) is an error with the hookwire name", () => {
    expect(
      issuesOf(
        '{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "x", "if": "Bash(rm *)"}, {"type": "command", "command": "y", "if": "run_shell_command"}, {"type": "command", "command": "z", "if": "shell(rm *)"}]}]}}',
      ),
    ).toBe(
      [
        'Invalid hook settings (2 issues):',
        '  settings.json: hooks.PreToolUse[0].hooks[0].if: "if" names the tool "Bash", which hookwire does not have ("Bash" is Claude Code\'s name for hookwire\'s "shell"), so this hook would never run; fix: write "shell(rm *)"',
        '  settings.json: hooks.PreToolUse[0].hooks[1].if: "if" names the tool "run_shell_command", which hookwire does not have ("run_shell_command" is Gemini CLI\'s name for hookwire\'s "shell"), so this hook would never run; fix: write "shell"',
      ].join('\n'),
    );
  });

  it('reports wrong types with what was written', () => {
    expect(issuesOf('[]')).toMatchInlineSnapshot(`
      "Invalid hook settings (1 issue):
        settings.json: a settings file must be an object, got an array; fix: write a JSON object: {"hooks": {...}}"
    `);
    expect(
      issuesOf(
        '{"hooks": {"PreToolUse": [{"matcher": 5, "sequential": "yes", "hooks": [{"type": "command", "command": "x", "failClosed": 1, "name": ""}]}, "Bash"]}}',
      ),
    ).toMatchInlineSnapshot(`
      "Invalid hook settings (5 issues):
        settings.json: hooks.PreToolUse[0].matcher: matcher must be a string, got a number; fix: write a string such as "Bash" or "Edit|Write"
        settings.json: hooks.PreToolUse[0].sequential: sequential must be a boolean, got a string; fix: write true or false
        settings.json: hooks.PreToolUse[0].hooks[0].failClosed: failClosed must be a boolean, got a number; fix: write true or false
        settings.json: hooks.PreToolUse[0].hooks[0].name: name is empty; fix: write a name, or leave "name" out to use the command
        settings.json: hooks.PreToolUse[1]: a hook group must be an object, got a string; fix: write an object: {...}"
    `);
  });

  it('allows "*" and "" as the matcher of an event without a matcher target', () => {
    const text =
      '{"hooks": {"Stop": [{"matcher": "*", "hooks": [{"type": "command", "command": "a"}]}, {"matcher": "", "hooks": [{"type": "command", "command": "b"}]}]}}';
    expect(parseSettingsText(text, user).groups.map((group) => group.matcher.kind)).toEqual([
      'all',
      'all',
    ]);
  });

  it('accepts allowManagedHooksOnly only in the managed policy file', () => {
    expect(
      parseSettingsText('{"allowManagedHooksOnly": true}', { file: 'm.json', layer: 'managed' })
        .allowManagedHooksOnly,
    ).toBe(true);
    expect(issuesOf('{"allowManagedHooksOnly": true}')).toMatchInlineSnapshot(`
      "Invalid hook settings (1 issue):
        settings.json: allowManagedHooksOnly: allowManagedHooksOnly is a managed policy setting and has no effect in the user settings; fix: remove it; set it in the managed policy file (HOOKWIRE_MANAGED_SETTINGS, default /etc/hookwire/managed-settings.json)"
    `);
  });

  it('rejects a timeout of a number too large to be finite', () => {
    expect(
      issuesOf(
        '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x", "timeout": 1e999}]}]}}',
      ),
    ).toContain('hooks.Stop[0].hooks[0].timeout: timeout Infinity is not a finite number');
  });

  it.each([
    [
      '{\n  "hooks": {\n    "Stop": [],\n  }\n}',
      'settings.json:4:3: invalid JSON at line 4, column 3: trailing comma before "}"; fix: remove the comma after the last property',
    ],
    [
      '{"hooks": {"Stop": [}}',
      'settings.json:1:21: invalid JSON at line 1, column 21: expected a value, found "}"; fix: write a string, number, true, false, null, an object or an array',
    ],
    [
      '{\n  // guards\n  "hooks": {}\n}',
      'settings.json:2:3: invalid JSON at line 2, column 3: comments are not allowed in JSON; fix: remove the comment',
    ],
    [
      "{'hooks': {}}",
      'settings.json:1:2: invalid JSON at line 1, column 2: expected a double-quoted property name, found "\'"; fix: quote the property name with double quotes',
    ],
    [
      '{"hooks": {}',
      'settings.json:1:13: invalid JSON at line 1, column 13: expected "," or "}" after a property, found the end of the file; fix: separate properties with commas and close the object with "}"',
    ],
    [
      '{"hooks": {}} {}',
      'settings.json:1:15: invalid JSON at line 1, column 15: unexpected "{" after the end of the JSON value; fix: remove it: a settings file holds one JSON object',
    ],
    [
      '{"command": "a\\qb"}',
      'settings.json:1:15: invalid JSON at line 1, column 15: invalid escape \\q; fix: write a backslash as \\\\ inside JSON strings',
    ],
    [
      '  \n',
      'settings.json: the file is empty; fix: write {} (no hooks) or {"hooks": {...}}, or delete the file',
    ],
  ])('locates invalid JSON %j', (text, line) => {
    const { issues } = readSettingsText(text, user);
    expect(issues).toHaveLength(1);
    expect(formatSettingsIssues(issues).split('\n')[1]?.trim()).toBe(line);
  });
});

describe('defaultHookName', () => {
  it('is the command with whitespace collapsed, cut to 40 characters', () => {
    expect(defaultHookName('  ./guard.sh   --strict ')).toBe('./guard.sh --strict');
    const long = 'node ./hooks/a-very-long-script-name-for-auditing.js --verbose';
    expect(defaultHookName(long)).toBe('node ./hooks/a-very-long-script-name-fo…');
    expect(defaultHookName(long)).toHaveLength(40);
  });
});

describe('settingsJsonSchema', () => {
  const schema = settingsJsonSchema();
  const validate = new Ajv2020({ strict: false }).compile(schema);

  it('is what schemas/settings.schema.json holds, byte for byte', () => {
    const committed = readFileSync(join(root, 'schemas', 'settings.schema.json'), 'utf8');
    expect(committed).toBe(`${JSON.stringify(schema, null, 2)}\n`);
  });

  it('accepts the files the loader accepts', () => {
    const valid = JSON.parse(fixture('valid-full.json')) as unknown;
    expect(validate(valid)).toBe(true);
    expect(validate({})).toBe(true);
  });

  it.each([
    ['an unknown top-level field', { extra: true }],
    ['an unknown event', { hooks: { PreTooluse: [] } }],
    [
      'an unknown hook field',
      { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'x', tmeout: 1 }] }] } },
    ],
    [
      'a hook type other than command',
      { hooks: { Stop: [{ hooks: [{ type: 'http', command: 'x' }] }] } },
    ],
    ['an empty command', { hooks: { Stop: [{ hooks: [{ type: 'command', command: '' }] }] } }],
    [
      'a unitless timeout string',
      { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'x', timeout: '30' }] }] } },
    ],
    [
      'a zero timeout',
      { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'x', timeout: 0 }] }] } },
    ],
    ['a group without hooks', { hooks: { Stop: [{ hooks: [] }] } }],
  ])('rejects %s, as the loader does', (_name, document) => {
    expect(validate(document)).toBe(false);
    expect(readSettingsText(JSON.stringify(document), user).issues.length).toBeGreaterThan(0);
  });
});

describe('readSettingsText: bounded input', () => {
  const one = (text: string): string => {
    const { issues } = readSettingsText(text, user);
    expect(issues).toHaveLength(1);
    return formatSettingsIssues(issues).split('\n')[1]?.trim() ?? '';
  };

  it.each([
    ['10,000 unclosed "["', '['.repeat(10_000)],
    ['10,000 unclosed {"a":', '{"a":'.repeat(10_000)],
  ])('stops %s at the nesting limit with one issue naming it', (_name, text) => {
    expect(one(text)).toMatch(
      /^settings\.json:1:\d+: nesting deeper than the limit of 32 levels at line 1, column \d+ .*; fix: /,
    );
  });

  it('refuses a file larger than the size limit before parsing it', () => {
    const text = `{"hooks": {}, "$schema": "${'x'.repeat(SETTINGS_LIMITS.maxBytes)}"}`;
    expect(one(text)).toMatch(
      /^settings\.json: the file is \d+ bytes, more than the limit of 1 MiB on a settings file; fix: /,
    );
  });

  it('refuses more groups per event than the limit, as one issue, without validating each', () => {
    const group = { matcher: '(', hooks: [{ type: 'nope', command: '' }] };
    const groups = Array.from({ length: SETTINGS_LIMITS.maxGroupsPerEvent + 1 }, () => group);
    expect(one(JSON.stringify({ hooks: { PreToolUse: groups } }))).toMatch(
      /^settings\.json: hooks\.PreToolUse: 1001 hook groups, more than the limit of 1000 groups per event; fix: /,
    );
  });

  it('refuses more hooks per group than the limit', () => {
    const hooks = Array.from({ length: SETTINGS_LIMITS.maxHooksPerGroup + 1 }, () => ({
      type: 'command',
      command: 'x',
    }));
    expect(one(JSON.stringify({ hooks: { Stop: [{ hooks }] } }))).toMatch(
      /^settings\.json: hooks\.Stop\[0\]\.hooks: 101 hooks in one group, more than the limit of 100 hooks per group; fix: /,
    );
  });

  it('lists the first issues and counts the rest in one line', () => {
    const groups = Array.from({ length: 200 }, () => ({
      hooks: [{ type: 'command', command: 'x', bad: 1 }],
    }));
    const { issues } = readSettingsText(JSON.stringify({ hooks: { Stop: groups } }), user);
    expect(issues).toHaveLength(200);
    const lines = formatSettingsIssues(issues).split('\n');
    expect(lines).toHaveLength(1 + MAX_LISTED_ISSUES + 1);
    expect(lines.at(-1)?.trim()).toMatch(/^… and 150 more issues \(/);
  });
});

describe('readSettingsText: duplicate keys', () => {
  it('is an error naming both places of an event written twice (JSON.parse keeps the last)', () => {
    const text = [
      '{"hooks": {',
      '  "PreToolUse": [{"hooks": [{"type": "command", "command": "./first-guard.sh"}]}],',
      '  "PreToolUse": [{"hooks": [{"type": "command", "command": "./second-guard.sh"}]}]',
      '}}',
    ].join('\n');
    const { issues, parsed } = readSettingsText(text, user);
    expect(parsed).toBeUndefined();
    expect(formatSettingsIssues(issues).split('\n').slice(1)).toEqual([
      '  settings.json:3:3: hooks.PreToolUse: duplicate key "PreToolUse": hooks.PreToolUse (line 2, column 3) is written again as hooks.PreToolUse (line 3, column 3); JSON keeps only the last, so the first would be silently ignored; fix: write "PreToolUse" once, with the groups of both in one list',
    ]);
  });

  it('finds a duplicate anywhere: in a hook, and at the top level', () => {
    const text =
      '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "a", "command": "b"}]}]}, "hooks": {}}';
    const paths = readSettingsText(text, user).issues.map((issue) => [issue.path, issue.column]);
    expect(paths).toEqual([
      ['hooks', 89],
      ['hooks.Stop[0].hooks[0].command', 68],
    ]);
  });
});

describe('agents', () => {
  it('reads agent types with where they were written', () => {
    const { parsed } = readSettingsText(
      JSON.stringify({
        agents: {
          reviewer: { description: 'Reviews diffs', prompt: 'You review.', tools: ['read_file'] },
        },
      }),
      { file: 'settings.json', layer: 'project' },
    );
    expect(parsed?.agents).toEqual([
      {
        name: 'reviewer',
        description: 'Reviews diffs',
        prompt: 'You review.',
        tools: ['read_file'],
        file: 'settings.json',
        layer: 'project',
      },
    ]);
  });

  it('reports a malformed agent type with its path', () => {
    const { issues } = readSettingsText(
      JSON.stringify({
        agents: { 'bad name': { description: 'd', prompt: 'p' }, ok: { prompt: 'p' } },
      }),
      { file: 'settings.json', layer: 'user' },
    );
    expect(issues.map((issue) => issue.path)).toEqual(
      expect.arrayContaining(['agents.ok.description']),
    );
    expect(issues.length).toBeGreaterThanOrEqual(2);
  });
});

describe('maxContextTokens', () => {
  it('reads a positive whole number; the last layer that sets it wins', () => {
    const read = (value: unknown, file: string, layer: 'user' | 'project') =>
      readSettingsText(JSON.stringify(value), { file, layer }).parsed;
    const user = read({ maxContextTokens: 100_000 }, 'user.json', 'user');
    const project = read({ maxContextTokens: 50_000 }, 'project.json', 'project');
    const silent = read({}, 'local.json', 'project');
    expect(user?.maxContextTokens).toBe(100_000);
    expect(silent).not.toHaveProperty('maxContextTokens');
    const files = [user, project, silent].filter((file) => file !== undefined);
    expect(mergeSettingsFiles(files).maxContextTokens).toEqual({
      value: 50_000,
      file: 'project.json',
    });
    expect(mergeSettingsFiles([silent].filter((file) => file !== undefined))).not.toHaveProperty(
      'maxContextTokens',
    );
  });

  it('reports anything else with its path', () => {
    for (const value of [0, -5, 1.5, '8000']) {
      const { issues } = readSettingsText(JSON.stringify({ maxContextTokens: value }), {
        file: 'settings.json',
        layer: 'user',
      });
      expect(issues.map((issue) => issue.path)).toEqual(['maxContextTokens']);
    }
  });
});
