/**
 * `hookwire run` with an `ahp` PreToolUse backend (the scripted stdio backend of
 * test/fixtures/ahp, persistent), through the real CLI and the real loop: the model asks to run
 * `rm -f victim.txt`; the backend's answer decides (`AHP_CASE` in its environment). The effect
 * is asserted on the file: a deny keeps it (the tool never ran), empty effects leave a permission
 * deny rule in force (AHP-DEC-003, AHP-SEC-001), and without either the file goes (the test can
 * see a deletion).
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  MAIN,
  callTool,
  createSandbox,
  jsonLines,
  runCli,
  say,
  scriptedRunArgs,
  writeJson,
  writeScript,
} from './support.ts';

const BACKEND = fileURLToPath(new URL('../fixtures/ahp/backend.mjs', import.meta.url));

async function runWith(answer: string, permissions?: Record<string, unknown>) {
  const sandbox = await createSandbox();
  const victim = join(sandbox.project, 'victim.txt');
  await writeFile(victim, 'precious');
  const log = join(sandbox.root, 'backend.log');
  const settings = await writeJson(join(sandbox.root, 'ahp.json'), {
    ...(permissions === undefined ? {} : { permissions }),
    hooks: {
      PreToolUse: [
        {
          hooks: [
            {
              type: 'ahp',
              transport: {
                type: 'stdio',
                command: process.execPath,
                args: [BACKEND, 'policy'],
                lifecycle: 'persistent',
              },
              failurePolicy: 'fail-closed',
              timeout: '10s',
            },
          ],
        },
      ],
    },
  });
  const script = await writeScript(join(sandbox.root, 'model.jsonl'), [
    callTool('c0', 'shell', { command: 'rm -f victim.txt' }),
    say('done'),
  ]);
  const run = await runCli(
    scriptedRunArgs(script, sandbox.project, [
      '--output-format',
      'stream-json',
      '--settings',
      settings,
    ]),
    { env: { ...sandbox.env, AHP_CASE: answer, AHP_LOG: log }, main: MAIN },
  );
  const received = (await readFile(log, 'utf8'))
    .split('\n')
    .filter((line) => line.includes('"recv"'))
    .map((line) => JSON.parse(line) as { request: { params: { event: { tool: unknown } } } });
  return { run, victim, received };
}

describe('hookwire run with an ahp PreToolUse backend', () => {
  it('AHP-TB-001 AHP-DEC-002: a deny prevents execution — the tool never runs, the model sees the reason', async () => {
    const { run, victim, received } = await runWith('deny');
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(victim)).toBe(true);
    const result = jsonLines(run.stdout).find((line) => line['type'] === 'tool-result');
    expect(String(result?.['error'])).toContain('blocked by policy');
    expect(received[0]?.request.params.event.tool).toMatchObject({
      name: 'shell',
      input: { command: 'rm -f victim.txt' },
    });
  });

  it('AHP-DEC-003 AHP-SEC-001: empty effects do not bypass a permission deny rule', async () => {
    const { run, victim, received } = await runWith('allow', {
      allow: ['shell'],
      deny: ['shell(rm *)'],
    });
    expect(run.code, run.stderr).toBe(0);
    expect(received).toHaveLength(1);
    expect(existsSync(victim)).toBe(true);
  });

  it('empty effects without a rule let the call run (the file goes)', async () => {
    const { run, victim } = await runWith('allow', { allow: ['shell'] });
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(victim)).toBe(false);
  });

  it('AHP-FAIL-001: a crashing fail-closed backend denies with the generic reason', async () => {
    const { run, victim } = await runWith('crash', { allow: ['shell'] });
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(victim)).toBe(true);
    const result = jsonLines(run.stdout).find((line) => line['type'] === 'tool-result');
    expect(String(result?.['error'])).toContain('Required policy backend unavailable');
  });
});
