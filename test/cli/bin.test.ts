/**
 * The command users run is the bundle in dist/bin/ (package.json's `bin`, built by
 * `npm run build`: scripts/bundle-cli.mjs), not the sources the other CLI suites spawn. These
 * tests run that bundle for what depends on where files sit: the package version, the native spawn
 * helper and the Node one (a second entry of the bundle), hooks, lazily imported commands and
 * kinds, and a provider SDK left external. CI builds before it tests; without a build the suite
 * is skipped and says so.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
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
  type Sandbox,
} from './support.ts';

const manifest = JSON.parse(await readFile(join(REPOSITORY, 'package.json'), 'utf8')) as {
  version: string;
  bin: { hookwire: string };
};
const BIN = join(REPOSITORY, manifest.bin.hookwire);
const built = existsSync(BIN);
if (!built) console.warn(`bin.test.ts skipped: ${BIN} is not built (run npm run build)`);

/** A sandbox whose settings put a hook logging each PreToolUse payload to `log`. */
async function preToolUseLogger(): Promise<{ sandbox: Sandbox; log: string; settings: string }> {
  const sandbox = await createSandbox();
  const log = join(sandbox.root, 'hook.jsonl');
  const logger = await writeHookScript(sandbox.root, 'logger.mjs', LOGGER_HOOK, [log]);
  const settings = await writeJson(
    join(sandbox.root, 'settings.json'),
    settingsWith({ PreToolUse: [logger] }),
  );
  return { sandbox, log, settings };
}

describe.skipIf(!built)(`the built command (${manifest.bin.hookwire})`, () => {
  it('prints the package version', async () => {
    const outcome = await runCli(['--version'], { main: BIN });
    expect(outcome).toMatchObject({ code: 0, stdout: `${manifest.version}\n` });
  });

  it.each(['native', 'node'])(
    'runs a tool call under a command hook with the %s spawn helper',
    async (helper) => {
      const { sandbox, log, settings } = await preToolUseLogger();
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

  it('hands a 2 MiB payload to a hook whole (written into its stdin through a lazily loaded net.Socket)', async () => {
    const { sandbox, log, settings } = await preToolUseLogger();
    const big = 'x'.repeat(2 * 1024 * 1024);
    const fired = await runCli(
      ['hooks', 'fire', 'PreToolUse', '--settings', settings, '--input', '-'],
      {
        main: BIN,
        cwd: sandbox.project,
        env: sandbox.env,
        input: JSON.stringify({
          tool_name: 'shell',
          tool_input: { command: big },
          tool_call_id: 'c1',
        }),
      },
    );
    expect(fired.stderr).toBe('');
    expect(JSON.parse(fired.stdout)).toMatchObject({ decision: 'allow' });
    const [entry] = await readLog(log);
    expect((entry?.['tool_input'] as { command: string }).command).toBe(big);
  });

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

  describe('loads what a run uses, on first use', () => {
    // Written into the process by --require: at exit, which of the costly modules it loaded.
    const REPORTER = `
      const { writeFileSync } = require('node:fs');
      const files = [];
      require('node:module').registerHooks({
        load(url, context, next) {
          files.push(url.slice(url.lastIndexOf('/') + 1));
          return next(url, context);
        },
      });
      process.on('exit', () => {
        const builtins = ['crypto', 'child_process'].filter((name) =>
          process.moduleLoadList.includes('NativeModule ' + name));
        const zod = files.includes('zod.cjs');
        // The spawn machinery: the helper runner and the supervisor of a hook's process.
        const runner = files.some((file) => /^(helper-runner|supervise-command)-/.test(file));
        writeFileSync(process.env.LOADED_REPORT, JSON.stringify({ builtins, zod, runner }));
      });
    `;

    async function loadedBy(
      args: readonly string[],
      sandbox: Awaited<ReturnType<typeof createSandbox>>,
    ) {
      const reporter = join(sandbox.root, 'reporter.cjs');
      const report = join(sandbox.root, 'loaded.json');
      await writeFile(reporter, REPORTER);
      const outcome = await runCli(args, {
        main: BIN,
        cwd: sandbox.project,
        env: { ...sandbox.env, NODE_OPTIONS: `--require ${reporter}`, LOADED_REPORT: report },
      });
      return { outcome, loaded: JSON.parse(await readFile(report, 'utf8')) as unknown };
    }

    it('a run no hook answers loads neither zod, node:crypto, node:child_process nor the spawn machinery', async () => {
      const sandbox = await createSandbox();
      const script = await writeScript(join(sandbox.root, 'model.jsonl'), [say('done')]);
      const { outcome, loaded } = await loadedBy(
        ['run', 'hi', '--model', `scripted:${script}`],
        sandbox,
      );
      expect(outcome).toMatchObject({ code: 0, stdout: 'done\n' });
      expect(loaded).toEqual({ builtins: [], zod: false, runner: false });
    });

    it('hooks list with no settings file loads neither zod nor the spawn machinery', async () => {
      const sandbox = await createSandbox();
      const { outcome, loaded } = await loadedBy(['hooks', 'list'], sandbox);
      expect(outcome).toMatchObject({ code: 0 });
      expect(outcome.stdout).toContain('No hooks configured.');
      expect(loaded).toEqual({ builtins: [], zod: false, runner: false });
    });

    it('zod loads when a schema is needed, and its errors read as from the sources', async () => {
      const sandbox = await createSandbox();
      const settings = await writeJson(join(sandbox.root, 'settings.json'), {
        hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'true', timeout: 'soon' }] }] },
      });
      const { outcome, loaded } = await loadedBy(
        ['hooks', 'validate', '--settings', settings],
        sandbox,
      );
      expect(outcome.code).not.toBe(0);
      expect(outcome.stderr).toContain(settings);
      expect(outcome.stderr).toMatch(/timeout/);
      expect(loaded).toMatchObject({ zod: true });
    });

    it('hooks fire checks a payload against its event schema built from zod.cjs', async () => {
      const sandbox = await createSandbox();
      const settings = await writeJson(join(sandbox.root, 'settings.json'), {
        hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'true' }] }] },
      });
      const payload = { tool_name: 'shell', tool_input: { command: 'ls' }, tool_call_id: 'call_1' };
      const fire = (input: unknown) =>
        runCli(['hooks', 'fire', 'PreToolUse', '--settings', settings, '--input', '-'], {
          main: BIN,
          cwd: sandbox.project,
          env: sandbox.env,
          input: JSON.stringify(input),
        });
      const fired = await fire(payload);
      expect(fired.stderr).toBe('');
      expect(JSON.parse(fired.stdout)).toMatchObject({ event: 'PreToolUse', decision: 'allow' });
      const refused = await fire({ ...payload, tool_input: 'ls' });
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toMatch(/tool_input/);
    });

    it('spawns through node:child_process loaded on the first shell call', async () => {
      const sandbox = await createSandbox();
      const script = await writeScript(join(sandbox.root, 'model.jsonl'), [
        callTool('c1', 'shell', { command: 'echo lazily > out.txt' }),
        say('done'),
      ]);
      const { outcome, loaded } = await loadedBy(
        ['run', 'go', '--model', `scripted:${script}`],
        sandbox,
      );
      expect(outcome).toMatchObject({ code: 0, stdout: 'done\n' });
      expect(await readFile(join(sandbox.project, 'out.txt'), 'utf8')).toBe('lazily\n');
      expect(loaded).toMatchObject({
        builtins: expect.arrayContaining(['child_process']) as unknown,
      });
    });
  });
});
