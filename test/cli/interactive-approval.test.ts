/**
 * Interactive approvals through a real pseudo-terminal: the built `hookwire run` under
 * `test/fixtures/pty-driver.py` (Python's `pty`: stdin, stdout and stderr are the terminal),
 * which types the answers. An `ask` — the permission mode, a rule, a PreToolUse hook's
 * `permissionDecision: "ask"` — that no PermissionRequest hook decides is put to the user once;
 * the effects are checked on real files. Headless behaviour (no terminal: refused) is covered by
 * permission-request.test.ts.
 */
import { execFile } from 'node:child_process';
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
  runToolCalls,
  say,
  scriptedRunArgs,
  settingsWith,
  writeHookScript,
  writeJson,
  writeScript,
  type Sandbox,
} from './support.ts';

const BIN = join(REPOSITORY, 'dist', 'bin', 'hookwire.js');
const DRIVER = join(REPOSITORY, 'test', 'fixtures', 'pty-driver.py');
const built = existsSync(BIN);
if (!built) console.warn(`interactive-approval.test.ts skipped: ${BIN} is not built`);

interface TerminalRun {
  /** Everything the terminal showed. */
  readonly output: string;
  /** How many approval prompts were shown. */
  readonly prompts: number;
  readonly status: number;
}

/** Runs the built CLI at a terminal on a scripted model, typing `answers` at its prompts. */
async function atTerminal(
  sandbox: Sandbox,
  turns: readonly unknown[],
  answers: readonly string[],
  extra: readonly string[] = [],
): Promise<TerminalRun> {
  const script = await writeScript(join(sandbox.root, 'model.jsonl'), turns);
  const spec = {
    argv: [process.execPath, BIN, ...scriptedRunArgs(script, sandbox.project, extra)],
    cwd: sandbox.project,
    answers,
  };
  const stdout = await new Promise<string>((resolvePromise, reject) => {
    execFile(
      'python3',
      [DRIVER, JSON.stringify(spec)],
      { env: sandbox.env, maxBuffer: 16 * 1024 * 1024 },
      (error, out) => {
        if (error) reject(new Error(error.message));
        else resolvePromise(out);
      },
    );
  });
  const run = JSON.parse(stdout) as TerminalRun & { killed: boolean };
  expect(run.killed, run.output).toBe(false);
  return run;
}

const shell = (id: string, command: string) => callTool(id, 'shell', { command });
const DEFAULT_MODE = ['--permission-mode', 'default'];

describe.skipIf(!built)('interactive approvals at a terminal (built CLI in a pty)', () => {
  it('"deny" refuses the call: the file survives, and the prompt showed the call and who asked', async () => {
    const sandbox = await createSandbox();
    const victim = join(sandbox.project, 'victim.txt');
    await writeFile(victim, 'keep me');
    const run = await atTerminal(
      sandbox,
      [shell('c0', 'rm victim.txt'), say('done')],
      ['n'],
      DEFAULT_MODE,
    );
    expect(run.prompts, run.output).toBe(1);
    expect(await readFile(victim, 'utf8')).toBe('keep me');
    expect(run.output).toContain('hookwire: approve shell?');
    expect(run.output).toContain('{"command":"rm victim.txt"}');
    expect(run.output).toContain('asked by:  the default permission mode');
    expect(run.output).toContain('allow always (shell running "rm victim.txt", this session)');
    expect(run.status).toBe(0);
  });

  it('"allow once" runs the command, and a second identical call prompts again', async () => {
    const sandbox = await createSandbox();
    const command = 'echo ran >> log.txt';
    const run = await atTerminal(
      sandbox,
      [shell('c0', command), shell('c1', command), say('done')],
      ['y', 'y'],
      DEFAULT_MODE,
    );
    expect(run.prompts, run.output).toBe(2);
    expect(await readFile(join(sandbox.project, 'log.txt'), 'utf8')).toBe('ran\nran\n');
  });

  it('"allow always" runs the command and the identical call after it without a prompt; another command is asked', async () => {
    const sandbox = await createSandbox();
    const command = 'echo ran >> log.txt';
    const run = await atTerminal(
      sandbox,
      [shell('c0', command), shell('c1', command), shell('c2', 'rm log.txt'), say('done')],
      ['a', 'n'],
      DEFAULT_MODE,
    );
    expect(run.prompts, run.output).toBe(2);
    expect(run.output).toContain('{"command":"rm log.txt"}');
    expect(await readFile(join(sandbox.project, 'log.txt'), 'utf8')).toBe('ran\nran\n');
  });

  it("a PreToolUse hook's ask is put to the user with the hook's name and reason, even without a permission mode", async () => {
    const sandbox = await createSandbox();
    const asker = await writeHookScript(
      sandbox.project,
      'ask.mjs',
      `console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: 'writes need a second look' } }));`,
    );
    await writeJson(
      join(sandbox.project, '.hookwire', 'settings.json'),
      settingsWith({ PreToolUse: [asker] }, { PreToolUse: { matcher: 'write_file' } }),
    );
    const run = await atTerminal(
      sandbox,
      [
        callTool('c0', 'write_file', { path: 'approved.txt', content: 'yes' }),
        callTool('c1', 'write_file', { path: 'refused.txt', content: 'no' }),
        say('done'),
      ],
      ['y', 'n'],
    );
    expect(run.prompts, run.output).toBe(2);
    expect(run.output).toMatch(/asked by: {2}hook ".+" \(PreToolUse\)/);
    expect(run.output).toContain('reason:    writes need a second look');
    expect(await readFile(join(sandbox.project, 'approved.txt'), 'utf8')).toBe('yes');
    expect(existsSync(join(sandbox.project, 'refused.txt'))).toBe(false);
  });

  it('a PermissionRequest hook decides first: no prompt; the permission_prompt Notification fires only for a prompt shown', async () => {
    const sandbox = await createSandbox();
    const notifications = join(sandbox.root, 'notifications.log');
    const allow = await writeHookScript(
      sandbox.project,
      'allow.mjs',
      `import { readFileSync } from 'node:fs';
const payload = JSON.parse(readFileSync(0, 'utf8'));
if (payload.tool_input.command.startsWith('echo'))
  console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } }));`,
    );
    const notify = await writeHookScript(sandbox.project, 'notify.mjs', LOGGER_HOOK, [
      notifications,
    ]);
    await writeJson(
      join(sandbox.project, '.hookwire', 'settings.json'),
      settingsWith({ PermissionRequest: [allow], Notification: [notify] }),
    );
    const run = await atTerminal(
      sandbox,
      [shell('c0', 'echo hooked > hooked.txt'), shell('c1', 'rm hooked.txt'), say('done')],
      ['n'],
      DEFAULT_MODE,
    );
    expect(run.prompts, run.output).toBe(1);
    expect(run.output).toContain('{"command":"rm hooked.txt"}');
    expect(await readFile(join(sandbox.project, 'hooked.txt'), 'utf8')).toBe('hooked\n');
    const heard = await readLog(notifications);
    expect(heard).toHaveLength(1);
    expect(heard[0]).toMatchObject({
      notification_type: 'permission_prompt',
      message: expect.stringContaining('waiting for an answer at the terminal') as string,
    });
  });

  it('Ctrl-C at the prompt denies the call and cancels the run (status 130)', async () => {
    const sandbox = await createSandbox();
    const victim = join(sandbox.project, 'victim.txt');
    await writeFile(victim, 'keep me');
    const run = await atTerminal(
      sandbox,
      [shell('c0', 'rm victim.txt'), shell('c1', 'rm victim.txt'), say('done')],
      ['\u0003'],
      DEFAULT_MODE,
    );
    expect(run.prompts, run.output).toBe(1);
    expect(run.status, run.output).toBe(130);
    expect(await readFile(victim, 'utf8')).toBe('keep me');
  });

  it('the arguments shown are bounded and their control characters escaped', async () => {
    const sandbox = await createSandbox();
    const run = await atTerminal(
      sandbox,
      [shell('c0', `echo \u001b[2Jspoof ${'x'.repeat(2000)}`), say('done')],
      ['n'],
      DEFAULT_MODE,
    );
    expect(run.prompts, run.output).toBe(1);
    expect(run.output).not.toContain('\u001b[2J');
    expect(run.output).toContain('\\u001b[2Jspoof');
    expect(run.output).toMatch(/… \(\d+ more characters\)/);
    expect(run.output).not.toContain('x'.repeat(1000));
  });

  it("headless (no terminal) nothing is asked: a hook's ask and the mode's ask are refused as before", async () => {
    const sandbox = await createSandbox();
    const asker = await writeHookScript(
      sandbox.project,
      'ask.mjs',
      `console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask' } }));`,
    );
    await writeJson(
      join(sandbox.project, '.hookwire', 'settings.json'),
      settingsWith({ PreToolUse: [asker] }, { PreToolUse: { matcher: 'write_file' } }),
    );
    const { results } = await runToolCalls(
      sandbox,
      [
        ['write_file', { path: 'asked.txt', content: 'x' }],
        ['shell', { command: 'echo ran > ran.txt' }],
      ],
      DEFAULT_MODE,
    );
    expect(results.map((result) => result.error)).toEqual([
      expect.stringContaining('hookwire runs without an interactive user: denied'),
      expect.stringContaining('nobody can be asked in a headless run'),
    ]);
    expect(existsSync(join(sandbox.project, 'asked.txt'))).toBe(false);
    expect(existsSync(join(sandbox.project, 'ran.txt'))).toBe(false);
  });
});
