/**
 * The shapes published Claude Code mods take that hookwire once refused or served differently
 * (decision 0037, "published mods"): a guard split over extensionless imports (`./rules`,
 * `./policy` as a folder's index), a toggle command (`$.command.register`, a `command.run`
 * hook, `$.command.run`) over `$.state` values kept with the `claude-code` helpers (`atom`,
 * `read`, `update`), and a `classic.PostToolUse` answer in Claude Code's field names. The mods
 * are our own, written to those shapes; each test runs `hookwire run --plugin-dir` on the
 * scripted model and asserts the effect (the file that survives, what the model was sent).
 */
import { existsSync, readdirSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pluginArgs, writeMod } from './mods-support.ts';
import {
  callTool,
  createSandbox,
  runScripted,
  runToolCalls,
  say,
  settingsWith,
  writeHookScript,
  writeJson,
} from './support.ts';

/**
 * A fence in the shape of a published one: its rules in `./rules` and `./policy` (no suffix),
 * a `/fence` command toggling a `$.state` atom, and `tool.check` hooks reading it. Decoys that
 * would allow everything sit where a different resolution would look (`rules.js`, `policy.js`).
 * With `turnOff`, its session.start hook runs `/fence off` through `$.command.run`.
 */
const fenceMod = (turnOff: boolean): string => `import { atom, read, update } from 'claude-code'
import type { Register } from 'claude-code'
import { isProtected } from './rules'
import { reasonFor } from './policy'

const off = atom({ plugin: 'fence', key: 'off' } as const, false)

export const register: Register = (on) => {
  on('session.start', async ($, e, next) => {
    const registered = await $.command.register({ name: 'fence', description: 'fence on|off' })
    const ran = ${turnOff ? "await $.command.run({ command: 'fence', args: 'off' })" : 'undefined'}
    await $.fs.write('fence-start.json', JSON.stringify({ registered, list: await $.command.list(), ran }))
    return next(e)
  })
  on('command.run', { command: 'fence' }, async ($, e) => {
    await update($, off, () => e.args.trim() === 'off')
    await $.fs.write('fence-command.json', JSON.stringify(e))
    return { text: 'fence is ' + ((await read($, off)) ? 'off' : 'on') }
  })
  on('tool.check', { tool: 'Bash' }, async ($, e, next) => {
    const verdict = await next(e)
    if (verdict.decision === 'deny' || (await read($, off))) return verdict
    const command = String(e.input.command)
    return isProtected(command) ? { decision: 'deny', reason: reasonFor(command) } : verdict
  })
}
`;

const FENCE_FILES = {
  'rules.ts':
    "export function isProtected(command: string): boolean { return command.includes('keep.txt') }\n",
  'rules.js': 'export function isProtected() { return false }\n',
  'policy/index.ts':
    "export function reasonFor(command: string): string { return 'fence keeps keep.txt: ' + command }\n",
  'policy.js': "export function reasonFor() { return 'the decoy policy.js' }\n",
};

/** A JSON object a mod wrote. */
const readRecord = async (file: string): Promise<Record<string, unknown>> =>
  JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;

/** The fence mod in a sandbox whose project holds keep.txt, and `commands` run as shell calls. */
async function runFence(turnOff: boolean, commands: readonly string[]) {
  const sandbox = await createSandbox();
  const mod = await writeMod(sandbox, 'fence', fenceMod(turnOff), {}, FENCE_FILES);
  await writeFile(join(sandbox.project, 'keep.txt'), 'keep');
  const run = await runToolCalls(
    sandbox,
    commands.map((command) => ['shell', { command }] as [string, unknown]),
    pluginArgs(mod),
  );
  return { sandbox, ...run };
}

describe('published mod shapes in hookwire run --plugin-dir', () => {
  it('a guard with extensionless imports and a toggle command loads and guards: ./rules is rules.ts, ./policy is policy/index.ts', async () => {
    const { sandbox, results, code, stderr } = await runFence(false, [
      'rm keep.txt',
      'echo fine > fine.txt',
    ]);

    expect(stderr).toBe('');
    expect(code).toBe(0);
    // The guard's rules came from rules.ts and policy/index.ts, not the decoys beside them.
    expect(existsSync(join(sandbox.project, 'keep.txt'))).toBe(true);
    expect(results[0]?.error).toContain('fence keeps keep.txt: rm keep.txt');
    expect(await readFile(join(sandbox.project, 'fine.txt'), 'utf8')).toBe('fine\n');
    // The command registered as under claude -p: accepted, listed, and never run unasked.
    const start = await readRecord(join(sandbox.project, 'fence-start.json'));
    expect(start.registered).toEqual({ command: 'fence' });
    expect(start.list).toEqual([
      { name: 'fence', description: 'fence on|off', source: 'plugin', plugin: 'fence' },
    ]);
    expect(existsSync(join(sandbox.project, 'fence-command.json'))).toBe(false);
  });

  it('$.command.run raises command.run through the mod: its hook updates the $.state atom, and the guard reads it off', async () => {
    const { sandbox, results, code, stderr } = await runFence(true, ['rm keep.txt']);

    expect(stderr).toBe('');
    expect(code).toBe(0);
    // The command's hook saw Claude Code's command.run input, and its answer came back.
    const command = await readRecord(join(sandbox.project, 'fence-command.json'));
    expect(command).toEqual({
      command: 'fence',
      args: 'off',
      origin: { kind: 'plugin', name: 'fence' },
      presentation: { isFullscreen: false, columns: 80 },
    });
    const start = await readRecord(join(sandbox.project, 'fence-start.json'));
    expect(start.ran).toEqual({ text: 'fence is off' });
    // The fence is off: the call ran.
    expect(results[0]?.error).toBeUndefined();
    expect(existsSync(join(sandbox.project, 'keep.txt'))).toBe(false);
  });

  it('a hook is never re-entered: a command.run hook running its own command, and two mods calling each other, end at core instead of recursing', async () => {
    const sandbox = await createSandbox();
    // /loop's hook runs /loop again; /ping (mod pinger) runs /pong, whose hook (mod ponger)
    // runs /ping again. Each hook waits on $ (which its budget does not count), so before the
    // guard neither ever ended and the run hung.
    const looper = await writeMod(
      sandbox,
      'looper',
      `import type { Register } from 'claude-code'
export const register: Register = (on) => {
  on('session.start', async ($, e, next) => {
    await $.command.register({ name: 'loop', description: 'runs itself' })
    const outcome = async (command: string) => {
      try { return { value: await $.command.run({ command, args: '0' }) } } catch (error) { return { error: String(error) } }
    }
    await $.fs.write('loop.json', JSON.stringify({ loop: await outcome('loop'), ping: await outcome('ping') }))
    return next(e)
  })
  on('command.run', { command: 'loop' }, async ($, e) => {
    const depth = Number(e.args) + 1
    await $.fs.write('loop-' + depth + '.txt', 'ran')
    return $.command.run({ command: 'loop', args: String(depth) })
  })
}
`,
    );
    const callsBack = (name: string, own: string, other: string) =>
      writeMod(
        sandbox,
        name,
        `import type { Register } from 'claude-code'
export const register: Register = (on) => {
  on('command.run', { command: '${own}' }, async ($, e) => {
    const depth = Number(e.args) + 1
    await $.fs.write('${own}-' + depth + '.txt', 'ran')
    return $.command.run({ command: '${other}', args: String(depth) })
  })
}
`,
      );
    const pinger = await callsBack('pinger', 'ping', 'pong');
    const ponger = await callsBack('ponger', 'pong', 'ping');

    const { results, code, stderr } = await runToolCalls(
      sandbox,
      [['shell', { command: 'echo done' }]],
      pluginArgs(looper, pinger, ponger),
    );

    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(JSON.stringify(results[0]?.result)).toContain('done');
    const ran = (prefix: string) =>
      readdirSync(sandbox.project)
        .filter((file) => file.startsWith(prefix))
        .sort();
    // Each hook ran once for its chain; the call it made from inside reached core.
    expect(ran('loop-')).toEqual(['loop-1.txt']);
    expect(ran('ping-')).toEqual(['ping-1.txt']);
    expect(ran('pong-')).toEqual(['pong-2.txt']);
    const record = await readRecord(join(sandbox.project, 'loop.json'));
    // The innermost /loop reached core, which answers a registered command no hook took.
    expect(record.loop).toEqual({ value: { text: '/loop: no hook answered the command' } });
    // /ping's chain: pinger's hook → /pong → ponger's hook → /ping, where pinger's hook is
    // already running: the call reaches core, which has no /ping (nobody registered it).
    expect(record.ping).toEqual({
      error: expect.stringContaining('$.command.run: no command /ping') as string,
    });
  });

  it('the static scan follows an extensionless import: a $ call in ./helpers is named, and an import no file answers refuses the mod', async () => {
    const sandbox = await createSandbox();
    const mod = await writeMod(
      sandbox,
      'spawner',
      `import type { Register } from 'claude-code'
import { delegate } from './helpers'
import { nothing } from './missing'
export const register: Register = (on) => {
  on('tool.call', async ($, e, next) => { await delegate($); nothing(); return next(e) })
}
`,
      {},
      {
        'helpers/index.ts':
          "export async function delegate($: any) { await $.agent.spawn({ prompt: 'review' }) }\n",
      },
    );

    const refused = await runToolCalls(
      sandbox,
      [['shell', { command: 'echo ran > ran.txt' }]],
      pluginArgs(mod),
    );

    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('mod spawner');
    expect(refused.stderr).toContain('capabilities hookwire does not provide: $.agent.spawn');
    expect(refused.stderr).toContain(
      'cannot import "./missing" (from hooks/register.ts): no such file under',
    );
    expect(existsSync(join(sandbox.project, 'ran.txt'))).toBe(false);
  });

  it("classic.PostToolUse speaks Claude Code's updatedToolOutput: next(e) carries the settings hook's, and the mod's replaces what the model sees", async () => {
    const sandbox = await createSandbox();
    const hook = await writeHookScript(
      sandbox.project,
      'replace.mjs',
      `process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'SETTINGS-CTX', updatedToolOutput: 'SETTINGS-REPLACED' } }))
`,
    );
    await writeJson(
      join(sandbox.project, '.hookwire', 'settings.json'),
      settingsWith({ PostToolUse: [hook] }),
    );
    const mod = await writeMod(
      sandbox,
      'redactor',
      `import type { Register } from 'claude-code'
export const register: Register = (on) => {
  on('classic.PostToolUse', async ($, e, next) => {
    const answer = await next(e)
    await $.fs.write('post-answer.json', JSON.stringify(answer))
    return { ...answer, updatedToolOutput: { stdout: 'MOD-REPLACED', stderr: '', interrupted: false, isImage: false } }
  })
}
`,
    );

    const run = await runScripted(
      sandbox,
      [callTool('c1', 'shell', { command: "printf '%s-%s' ORIGINAL OUTPUT" }), say('done')],
      { extra: pluginArgs(mod) },
    );

    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const answer = await readRecord(join(sandbox.project, 'post-answer.json'));
    expect(answer).toEqual({
      additionalContext: ['SETTINGS-CTX'],
      updatedToolOutput: 'SETTINGS-REPLACED',
    });
    const second = JSON.stringify(run.requests[1]);
    expect(second).toContain('MOD-REPLACED');
    expect(second).toContain('SETTINGS-CTX');
    expect(second).not.toContain('SETTINGS-REPLACED');
    expect(second).not.toContain('ORIGINAL-OUTPUT');
  });
});
