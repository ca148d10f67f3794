/**
 * The command users run is the bundle in dist/bin/ (package.json's `bin`, built by
 * `npm run build`: scripts/bundle-cli.mjs), not the sources the other CLI suites spawn. These
 * tests run that bundle for what depends on where files sit: the package version, the native spawn
 * helper and the Node one (a second entry of the bundle), hooks, lazily imported commands and
 * kinds, and a provider SDK left external. CI builds before it tests; without a build the suite
 * is skipped and says so.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  LOGGER_HOOK,
  REPOSITORY,
  callTool,
  createSandbox,
  readLog,
  runCli,
  say,
  settingsWith,
  writeHookScript,
  writeJson,
  writeScript,
} from './support.ts';

const manifest = JSON.parse(await readFile(join(REPOSITORY, 'package.json'), 'utf8')) as {
  version: string;
  bin: { hookwire: string };
};
const BIN = join(REPOSITORY, manifest.bin.hookwire);
const built = existsSync(BIN);
if (!built) console.warn(`bin.test.ts skipped: ${BIN} is not built (run npm run build)`);

describe.skipIf(!built)(`the built command (${manifest.bin.hookwire})`, () => {
  it('prints the package version', async () => {
    const outcome = await runCli(['--version'], { main: BIN });
    expect(outcome).toMatchObject({ code: 0, stdout: `${manifest.version}\n` });
  });

  it.each(['native', 'node'])(
    'runs a tool call under a command hook with the %s spawn helper',
    async (helper) => {
      const sandbox = await createSandbox();
      const log = join(sandbox.root, 'hook.jsonl');
      const logger = await writeHookScript(sandbox.root, 'logger.mjs', LOGGER_HOOK, [log]);
      const settings = await writeJson(
        join(sandbox.root, 'settings.json'),
        settingsWith({ PreToolUse: [logger] }),
      );
      const script = await writeScript(join(sandbox.root, 'model.jsonl'), [
        callTool('c1', 'shell', { command: 'echo from-the-shell > out.txt' }),
        say('done'),
      ]);
      const outcome = await runCli(
        ['run', 'go', '--model', `scripted:${script}`, '--settings', settings],
        {
          main: BIN,
          cwd: sandbox.project,
          env: { ...sandbox.env, HOOKWIRE_SPAWN_HELPER: helper },
        },
      );
      expect(outcome.stderr).toBe('');
      expect(outcome).toMatchObject({ code: 0, stdout: 'done\n' });
      expect((await readLog(log)).map((entry) => entry['tool_name'])).toEqual(['shell']);
      expect(await readFile(join(sandbox.project, 'out.txt'), 'utf8')).toBe('from-the-shell\n');
    },
  );

  it('doctor finds the native spawn helper where the build put it', async () => {
    const outcome = await runCli(['doctor', '--json'], { main: BIN });
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toContain(join(REPOSITORY, 'native', 'build', 'hookwire-spawn'));
  });

  it('loads a provider SDK it leaves external (the request fails on a closed port, cleanly)', async () => {
    const sandbox = await createSandbox();
    const outcome = await runCli(
      ['run', 'hi', '--model', 'openai:gpt-4o-mini', '--base-url', 'http://127.0.0.1:9/v1'],
      { main: BIN, cwd: sandbox.project, env: { ...sandbox.env, OPENAI_API_KEY: 'test-key' } },
    );
    expect(outcome.code).not.toBe(0);
    expect(outcome.stderr).toMatch(/connect|ECONNREFUSED|fetch failed|Connection error/i);
    expect(outcome.stderr).not.toMatch(/ERR_MODULE_NOT_FOUND|Cannot find module/);
  });

  it('draws the trace of a session it ran (a lazily imported command)', async () => {
    const sandbox = await createSandbox();
    const script = await writeScript(join(sandbox.root, 'model.jsonl'), [say('done')]);
    const ran = await runCli(
      ['run', 'hi', '--model', `scripted:${script}`, '--output-format', 'json'],
      { main: BIN, cwd: sandbox.project, env: sandbox.env },
    );
    const { sessionId } = JSON.parse(ran.stdout) as { sessionId: string };
    const out = join(sandbox.root, 'trace.html');
    const traced = await runCli(['trace', sessionId, '--out', out], {
      main: BIN,
      cwd: sandbox.project,
      env: sandbox.env,
    });
    expect(traced.code).toBe(0);
    expect(await readFile(out, 'utf8')).toContain('<html');
  });
});
