/**
 * Decisions visible in the text output, through the built command (dist/bin/hookwire.js): one
 * line on stderr per hook that denied, stopped the run, failed closed or blocked a Stop, with the
 * event and the hook's name; `--quiet` prints none of them (warnings still print). And Stop
 * continuations bounded by `--max-stop-continuations N` or the `maxStopContinuations` setting.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  BIN,
  callTool,
  createSandbox,
  readLog,
  runCli,
  say,
  writeJson,
  writeScript,
  type Sandbox,
} from './support.ts';

const built = existsSync(BIN);
if (!built) console.warn(`decisions.test.ts skipped: ${BIN} is not built (run npm run build)`);

let runs = 0;

/** Runs the built `hookwire run` on a scripted model with `settings`, recording the requests. */
async function runBuilt(
  sandbox: Sandbox,
  turns: readonly unknown[],
  settings: unknown,
  extra: readonly string[] = [],
) {
  const script = await writeScript(join(sandbox.root, 'model.jsonl'), turns);
  const settingsFile = await writeJson(join(sandbox.root, 'settings.json'), settings);
  runs += 1;
  const requestsFile = join(sandbox.root, `requests-${runs}.jsonl`);
  const outcome = await runCli(
    [
      'run',
      'go',
      '--model',
      `scripted:${script}`,
      '--cwd',
      sandbox.project,
      '--settings',
      settingsFile,
      '--record-requests',
      requestsFile,
      ...extra,
    ],
    { env: sandbox.env, main: BIN },
  );
  return { ...outcome, requests: await readLog(requestsFile) };
}

const command = (name: string, line: string, extra: Record<string, unknown> = {}) => ({
  type: 'command',
  name,
  command: line,
  ...extra,
});

const GUARDS = {
  hooks: {
    PreToolUse: [
      {
        matcher: 'shell',
        hooks: [
          command('denier', "echo 'no rm here' >&2; exit 2"),
          command('crasher', 'echo boom >&2; exit 1'),
          // A deadline the hook cannot meet (it sleeps far longer), not a timing assertion.
          command('slowguard', 'sleep 30', { timeout: '300ms', failClosed: true }),
        ],
      },
    ],
  },
};

describe.skipIf(!built)('decisions in the text output (the built command)', () => {
  it('prints one line per denial and failed-closed guard, with the hook names; a crash stays a warning', async () => {
    const sandbox = await createSandbox();
    const run = await runBuilt(
      sandbox,
      [callTool('c1', 'shell', { command: 'rm -rf ./*' }), say('done')],
      GUARDS,
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('done\n');
    const lines = run.stderr.split('\n').filter((line) => line !== '');
    expect(lines).toContain('hookwire: PreToolUse hook "denier" denied: no rm here');
    expect(lines).toContain(
      'hookwire: PreToolUse hook "slowguard" failed closed (timed out after 300ms): denied',
    );
    expect(lines.filter((line) => line.includes('"crasher"'))).toEqual([
      expect.stringMatching(/^warning: .*hook "crasher" \(PreToolUse\) crashed \(exit 1\): boom$/),
    ]);
    // The denial reached the model as the tool's error.
    expect(JSON.stringify(run.requests[1]?.['contents'])).toContain('no rm here');
  });

  it('--quiet prints no decision line, and still the warnings', async () => {
    const sandbox = await createSandbox();
    const run = await runBuilt(
      sandbox,
      [callTool('c1', 'shell', { command: 'rm -rf ./*' }), say('done')],
      GUARDS,
      ['--quiet'],
    );
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain('denied');
    expect(run.stderr).not.toContain('failed closed');
    expect(run.stderr).toContain('hook "crasher" (PreToolUse) crashed (exit 1): boom');
  });

  it('prints a Stop block and a stop, with the hook names', async () => {
    const sandbox = await createSandbox();
    const run = await runBuilt(sandbox, [say('first'), say('second')], {
      hooks: {
        Stop: [
          {
            hooks: [
              command(
                'tests-pass',
                `node -e "const p = JSON.parse(require('fs').readFileSync(0, 'utf8')); process.stdout.write(JSON.stringify(p.stop_hook_active ? {continue: false, stopReason: 'enough for today'} : {decision: 'block', reason: 'the tests fail'}))"`,
              ),
            ],
          },
        ],
      },
    });
    expect(run.code).toBe(1);
    const lines = run.stderr.split('\n').filter((line) => line !== '');
    expect(lines).toEqual([
      'hookwire: Stop hook "tests-pass" blocked the stop, to keep the agent working: the tests fail',
      'hookwire: Stop hook "tests-pass" stopped the run: enough for today',
      'hookwire: the run ended stopped: enough for today',
    ]);
  });
});

/** A Stop hook that always blocks. */
const ALWAYS_BLOCKS = {
  hooks: {
    Stop: [
      {
        hooks: [
          command(
            'never-done',
            `node -e "process.stdout.write(JSON.stringify({decision: 'block', reason: 'keep going'}))"`,
          ),
        ],
      },
    ],
  },
};

describe.skipIf(!built)('Stop continuations per turn (the built command)', () => {
  const answers = Array.from({ length: 8 }, (_, index) => say(`answer ${index + 1}`));

  it('--max-stop-continuations 3: a Stop hook that always blocks continues the turn exactly 3 times', async () => {
    const sandbox = await createSandbox();
    const run = await runBuilt(sandbox, answers, ALWAYS_BLOCKS, ['--max-stop-continuations', '3']);
    expect(run.code).toBe(0);
    // The first answer and three continuations: four model calls, the fourth answer stands.
    expect(run.requests).toHaveLength(4);
    expect(run.stdout).toBe('answer 4\n');
    expect(run.stderr.match(/blocked the stop/g)).toHaveLength(4);
    expect(run.stderr).toContain('already continued 3 time(s)');
  });

  it('the maxStopContinuations setting bounds them too, and the flag wins over it', async () => {
    const sandbox = await createSandbox();
    const settings = { ...ALWAYS_BLOCKS, maxStopContinuations: 2 };
    const fromSetting = await runBuilt(sandbox, answers, settings);
    expect(fromSetting.requests).toHaveLength(3);
    expect(fromSetting.stdout).toBe('answer 3\n');
    const fromFlag = await runBuilt(sandbox, answers, settings, ['--max-stop-continuations', '0']);
    expect(fromFlag.requests).toHaveLength(1);
    expect(fromFlag.stdout).toBe('answer 1\n');
  });

  it('rejects a --max-stop-continuations that is not a whole number', async () => {
    const sandbox = await createSandbox();
    const run = await runBuilt(sandbox, answers, ALWAYS_BLOCKS, [
      '--max-stop-continuations',
      'many',
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      '--max-stop-continuations must be a whole number (0 or more), got "many"',
    );
    expect(run.requests).toHaveLength(0);
  });
});
