/**
 * `hookwire hooks import --from ahp --file REGISTRATION.json [--write FILE]`: an AHP portable
 * registration (AHP-REG-001) becomes `ahp` entries with the same order, subscriptions, timeouts,
 * failure policies, transports and credential references; invalid registrations are refused
 * with the file and the JSON path. The round trip loads the written settings in a real
 * `hookwire run` on the scripted model against the scripted stdio backends of test/fixtures/ahp.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  callTool,
  createSandbox,
  runCli,
  say,
  scriptedRunArgs,
  writeJson,
  writeScript,
} from './support.ts';

const BACKEND = fileURLToPath(new URL('../fixtures/ahp/backend.mjs', import.meta.url));

function registration(): Record<string, unknown> {
  return {
    protocolVersion: '0.1',
    hooks: [
      {
        id: 'com.example.first',
        transport: {
          type: 'stdio',
          command: process.execPath,
          args: [BACKEND, 'first'],
          lifecycle: 'persistent',
        },
        subscriptions: [
          {
            events: ['tool.before'],
            mode: 'intercept',
            timeoutMs: 20000,
            failurePolicy: 'fail-closed',
          },
          { events: ['session.start', 'tool.after'], mode: 'observe' },
        ],
      },
      {
        id: 'com.example.second',
        transport: {
          type: 'stdio',
          command: process.execPath,
          args: [BACKEND, 'second'],
          lifecycle: 'per_event',
        },
        subscriptions: [
          {
            events: ['tool.before'],
            mode: 'intercept',
            timeoutMs: 20000,
            failurePolicy: 'fail-open',
            includeNative: true,
          },
        ],
      },
    ],
  };
}

async function importAhp(root: string, env: NodeJS.ProcessEnv, document: unknown, write?: string) {
  const file = await writeJson(
    join(root, `registration-${Math.random().toString(36).slice(2)}.json`),
    document,
  );
  const outcome = await runCli(
    [
      'hooks',
      'import',
      '--from',
      'ahp',
      '--file',
      file,
      ...(write === undefined ? [] : ['--write', write]),
    ],
    { env },
  );
  return { ...outcome, file };
}

describe('hookwire hooks import --from ahp', () => {
  it(
    'AHP-REG-001 AHP-COMP-001: the round trip keeps order, subscriptions, timeouts and policies, and the written settings run: a deny short-circuits, empty effects let the call run',
    { timeout: 120_000 },
    async () => {
      const sandbox = await createSandbox();
      const written = join(sandbox.root, 'ahp-settings.json');
      const imported = await importAhp(sandbox.root, sandbox.env, registration(), written);
      expect(imported.code, imported.stderr).toBe(0);
      expect(imported.stderr).toContain(`wrote ${written}`);
      const settings = JSON.parse(await readFile(written, 'utf8')) as {
        hooks: Record<string, { hooks: Record<string, unknown>[] }[]>;
      };
      expect(Object.keys(settings.hooks)).toEqual(['PreToolUse', 'SessionStart', 'PostToolUse']);
      expect(settings.hooks['PreToolUse']).toEqual([
        {
          hooks: [
            {
              type: 'ahp',
              name: 'com.example.first',
              transport: {
                type: 'stdio',
                command: process.execPath,
                args: [BACKEND, 'first'],
                lifecycle: 'persistent',
              },
              failurePolicy: 'fail-closed',
              timeout: '20000ms',
              protocolVersion: '0.1',
            },
            {
              type: 'ahp',
              name: 'com.example.second',
              transport: {
                type: 'stdio',
                command: process.execPath,
                args: [BACKEND, 'second'],
                lifecycle: 'per_event',
              },
              includeNative: true,
              failurePolicy: 'fail-open',
              timeout: '20000ms',
              protocolVersion: '0.1',
            },
          ],
        },
      ]);
      for (const event of ['SessionStart', 'PostToolUse'])
        expect(settings.hooks[event]?.[0]?.hooks).toEqual([
          {
            type: 'ahp',
            name: 'com.example.first',
            transport: {
              type: 'stdio',
              command: process.execPath,
              args: [BACKEND, 'first'],
              lifecycle: 'persistent',
            },
            protocolVersion: '0.1',
          },
        ]);

      // The written settings, loaded by a real run: both backends deny, the first one's deny ends
      // the chain (the second never hears of the call) and the file survives.
      const victim = join(sandbox.project, 'victim.txt');
      const run = async (answer: string) => {
        await writeFile(victim, 'precious');
        const log = join(sandbox.root, `backend-${answer}.log`);
        const script = await writeScript(join(sandbox.root, `model-${answer}.jsonl`), [
          callTool('c0', 'shell', { command: 'rm -f victim.txt' }),
          say('done'),
        ]);
        const permissions = await writeJson(join(sandbox.root, 'permissions.json'), {
          permissions: { allow: ['shell'] },
        });
        const outcome = await runCli(
          scriptedRunArgs(script, sandbox.project, [
            '--settings',
            written,
            '--settings',
            permissions,
          ]),
          { env: { ...sandbox.env, AHP_CASE: answer, AHP_LOG: log } },
        );
        expect(outcome.code, outcome.stderr).toBe(0);
        return (await readFile(log, 'utf8'))
          .split('\n')
          .filter(Boolean)
          .map(
            (line) =>
              JSON.parse(line) as {
                name: string;
                at: string;
                request?: { method: string; params: { event: { type: string } } };
              },
          )
          .filter((entry) => entry.at === 'recv')
          .map(
            (entry) => `${entry.name} ${entry.request?.method} ${entry.request?.params.event.type}`,
          );
      };
      const denied = await run('deny');
      expect(existsSync(victim)).toBe(true);
      expect(denied.filter((line) => line.includes('intercept'))).toEqual([
        'first hooks/intercept tool.before',
      ]);
      expect(denied).toContain('first hooks/observe session.start');
      const allowed = await run('allow');
      expect(existsSync(victim)).toBe(false);
      expect(allowed.filter((line) => line.includes('intercept'))).toEqual([
        'first hooks/intercept tool.before',
        'second hooks/intercept tool.before',
      ]);
      expect(allowed).toContain('first hooks/observe tool.after');
    },
  );

  it(
    'carries an https transport and its bearer token reference (never a token) to stdout',
    { timeout: 120_000 },
    async () => {
      const sandbox = await createSandbox();
      const imported = await importAhp(sandbox.root, sandbox.env, {
        protocolVersion: '0.1',
        hooks: [
          {
            id: 'com.example.remote',
            transport: { type: 'http', url: 'https://policy.example.com/agent-hooks' },
            authentication: { type: 'bearer', tokenEnv: 'AHP_POLICY_TOKEN' },
            subscriptions: [
              {
                events: ['tool.before'],
                mode: 'intercept',
                timeoutMs: 500,
                failurePolicy: 'fail-open',
              },
            ],
          },
        ],
      });
      expect(imported.code, imported.stderr).toBe(0);
      expect(JSON.parse(imported.stdout)).toEqual({
        hooks: {
          PreToolUse: [
            {
              hooks: [
                {
                  type: 'ahp',
                  name: 'com.example.remote',
                  transport: { type: 'http', url: 'https://policy.example.com/agent-hooks' },
                  authentication: { type: 'bearer', tokenEnv: 'AHP_POLICY_TOKEN' },
                  failurePolicy: 'fail-open',
                  timeout: '500ms',
                  protocolVersion: '0.1',
                },
              ],
            },
          ],
        },
      });
    },
  );

  it(
    'AHP-REG-001 AHP-FAIL-001 AHP-FAIL-002 AHP-SEC-001: invalid registrations are refused with the file and each JSON path, and nothing is written',
    { timeout: 120_000 },
    async () => {
      const sandbox = await createSandbox();
      const written = join(sandbox.root, 'never.json');
      const base = registration();
      const [first, second] = base['hooks'] as Record<string, unknown>[];
      const cases: [unknown, string[]][] = [
        [
          {
            protocolVersion: '0.1',
            hooks: [
              {
                id: 'com.example.remote',
                transport: { type: 'http', url: 'https://policy.example.com/h' },
                authentication: { type: 'bearer', token: 'sk-literal' },
                subscriptions: [
                  {
                    events: ['tool.before'],
                    mode: 'intercept',
                    timeoutMs: 500,
                    failurePolicy: 'fail-open',
                  },
                ],
              },
            ],
          },
          ['$.hooks[0].authentication.token: a literal token is never valid'],
        ],
        [
          {
            protocolVersion: '0.1',
            hooks: [
              {
                ...first,
                subscriptions: [
                  { events: ['tool.before'], mode: 'intercept', timeoutMs: 750 },
                  { events: ['tool.after'], mode: 'observe', failurePolicy: 'fail-closed' },
                ],
              },
            ],
          },
          [
            '$.hooks[0].subscriptions[0].failurePolicy: an intercept subscription must declare',
            '$.hooks[0].subscriptions[1].failurePolicy: an observe subscription declares no deadline',
          ],
        ],
        [
          {
            protocolVersion: '0.1',
            hooks: [
              {
                ...first,
                subscriptions: [
                  { events: ['tool.before'], mode: 'intercept', failurePolicy: 'fail-open' },
                ],
              },
            ],
          },
          [
            '$.hooks[0].subscriptions[0].timeoutMs: an intercept subscription must declare a positive integer deadline',
          ],
        ],
        [
          { protocolVersion: '0.1', hooks: [first, { ...second, id: 'com.example.first' }] },
          ['$.hooks[1].id: com.example.first is registered twice'],
        ],
        [
          {
            protocolVersion: '0.1',
            hooks: [{ ...first, transport: { type: 'http', url: 'http://policy.example.com/h' } }],
          },
          ['$.hooks[0].transport.url: plain http is allowed only on loopback'],
        ],
        [
          { protocolVersion: '0.3', hooks: [] },
          ['$.protocolVersion', '$.hooks: must be a non-empty array'],
        ],
      ];
      for (const [document, expected] of cases) {
        const refused = await importAhp(sandbox.root, sandbox.env, document, written);
        expect(refused.code, JSON.stringify(document)).toBe(1);
        expect(refused.stderr).toContain(refused.file);
        for (const text of expected) expect(refused.stderr).toContain(text);
        expect(existsSync(written)).toBe(false);
      }
      const notJson = join(sandbox.root, 'broken.json');
      await writeFile(notJson, '{"protocolVersion": ');
      const broken = await runCli(['hooks', 'import', '--from', 'ahp', '--file', notJson], {
        env: sandbox.env,
      });
      expect(broken.code).toBe(1);
      expect(broken.stderr).toContain(`${notJson}: not a JSON document`);
      const noFile = await runCli(['hooks', 'import', '--from', 'ahp'], { env: sandbox.env });
      expect(noFile.code).toBe(1);
      expect(noFile.stderr).toContain('--from ahp needs --file');
    },
  );
});
