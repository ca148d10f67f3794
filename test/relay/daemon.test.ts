/**
 * The relay's daemon and clients as processes: the native client (`native/build/hookwire-relay`,
 * built by `npm run build` where `cc` exists) and the Node one (`hookwire relay hook`) against a
 * project's daemon — started on first use, a stale socket and a killed daemon replaced, two
 * starters racing into one daemon, a daemon of another build replaced, idle stop, and the
 * fail-closed answer when no daemon can be reached. Effects asserted: the answers, the daemon's
 * pid, the socket's mode.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { appendFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAIN, REPOSITORY, runCli } from '../cli/support.ts';
import { runRelayClient, type ClientAnswer } from '../support/real-agents/relay-project.ts';
import { expectAllGone } from '../../src/supervision/command-runner.contract.ts';

const NATIVE = join(REPOSITORY, 'native', 'build', 'hookwire-relay');

let dir: string;
let project: string;
let runtime: string;
let entry: string;
let env: NodeJS.ProcessEnv;

const GUARD = `export default {
  onToolCall(_c, call) {
    return /rm/.test(call.args.command ?? '') ? { kind: 'skip', reason: 'no rm (pid ' + process.pid + ')' } : { kind: 'run' };
  },
};
`;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hookwire-daemon-'));
  project = join(dir, 'project');
  runtime = join(dir, 'run');
  mkdirSync(join(project, '.hookwire'), { recursive: true });
  mkdirSync(runtime, { mode: 0o700 });
  // An entry file of its own, so a test can make "another build" by changing it.
  entry = join(dir, 'entry.mjs');
  await writeFile(entry, `await import(${JSON.stringify(MAIN)});\n`);
  await writeFile(join(project, 'guard.mjs'), GUARD);
  await writeFile(
    join(project, '.hookwire', 'settings.json'),
    JSON.stringify({
      hooks: { PreToolUse: [{ matcher: 'shell', hooks: [{ type: 'module', path: 'guard.mjs' }] }] },
    }),
  );
  env = {
    ...process.env,
    HOOKWIRE_HOME: join(dir, 'home'),
    HOOKWIRE_TRUST_PROJECT: '1',
    XDG_RUNTIME_DIR: runtime,
    CLAUDE_PROJECT_DIR: project,
  };
});

afterEach(async () => {
  await runCli(['daemon', 'stop', '--cwd', project], { env, main: entry });
  await rm(dir, { recursive: true, force: true });
});

type Answer = ClientAnswer;

const native = (payload: object, extra: NodeJS.ProcessEnv = {}): Promise<Answer> =>
  runRelayClient([NATIVE, 'claude', process.execPath, entry], payload, {
    env: { ...env, ...extra },
    cwd: project,
  });

const pre = (command: string): object => ({
  session_id: 'relay-test',
  transcript_path: '',
  cwd: project,
  hook_event_name: 'PreToolUse',
  tool_name: 'Bash',
  tool_input: { command },
  tool_use_id: 'toolu_1',
});

function socketFile(): string {
  const names = readdirSync(join(runtime, 'hookwire')).filter((name) => name.endsWith('.sock'));
  expect(names).toHaveLength(1);
  return join(runtime, 'hookwire', names[0]!);
}

function daemonPid(): number {
  const names = readdirSync(join(runtime, 'hookwire')).filter((name) => name.endsWith('.pid'));
  expect(names).toHaveLength(1);
  return Number(readFileSync(join(runtime, 'hookwire', names[0]!), 'utf8'));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const denialOf = (answer: Answer): string => {
  const output = JSON.parse(answer.stdout) as {
    hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string };
  };
  expect(output.hookSpecificOutput?.permissionDecision).toBe('deny');
  return output.hookSpecificOutput?.permissionDecisionReason ?? '';
};

describe.skipIf(!existsSync(NATIVE))('the native relay client and the project daemon', () => {
  it("starts the daemon on first use; it answers in Claude Code's format on an owner-only socket", async () => {
    const denied = await native(pre('rm -rf /tmp/x'));
    expect(denied.code, denied.stderr).toBe(0);
    expect(denialOf(denied)).toContain('no rm');
    const allowed = await native(pre('ls'));
    expect(allowed).toEqual({ code: 0, stdout: '', stderr: '' });
    // Owner-only: nobody else may connect.
    expect(statSync(socketFile()).mode & 0o077).toBe(0);
    expect(statSync(join(runtime, 'hookwire')).mode & 0o777).toBe(0o700);
    // Both events went to one daemon.
    const pid = daemonPid();
    expect(denialOf(await native(pre('rm a')))).toContain(`pid ${pid}`);
  }, 60_000);

  it('replaces a daemon that was killed (its socket left behind) and one of an older build', async () => {
    const first = denialOf(await native(pre('rm a')));
    const killed = daemonPid();
    expect(first).toContain(`pid ${killed}`);
    process.kill(killed, 'SIGKILL');
    // The socket file is still there, and nobody answers on it.
    expect(existsSync(socketFile())).toBe(true);
    const second = denialOf(await native(pre('rm a')));
    const restarted = daemonPid();
    expect(restarted).not.toBe(killed);
    expect(second).toContain(`pid ${restarted}`);
    // Another build of hookwire (the entry file changed): the old daemon steps down.
    await appendFile(entry, '// rebuilt\n');
    const third = denialOf(await native(pre('rm a')));
    const upgraded = daemonPid();
    expect(upgraded).not.toBe(restarted);
    // The old daemon steps down on its own once it saw the newer build (no wall-clock bound: one
    // that never exits fails at the test's timeout, named).
    await expectAllGone([restarted]);
    expect(third).toContain(`pid ${upgraded}`);
  }, 90_000);

  it('two starters at once start one daemon', async () => {
    const [a, b] = await Promise.all([
      runCli(['daemon', 'start', '--cwd', project], { env, main: entry }),
      runCli(['daemon', 'start', '--cwd', project], { env, main: entry }),
    ]);
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    const pid = daemonPid();
    const daemons = readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .filter((name) => {
        try {
          const argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
          return argv.includes('run') && argv.includes('daemon') && argv.includes(project);
        } catch {
          return false;
        }
      });
    expect(daemons).toEqual([String(pid)]);
  }, 60_000);

  it("runs the project's Claude Code mods (its plugins setting): a mod guard's deny comes back in Claude Code's format", async () => {
    const plugin = join(project, 'mods', 'no-curl');
    mkdirSync(join(plugin, '.claude-plugin'), { recursive: true });
    mkdirSync(join(plugin, 'hooks'), { recursive: true });
    await writeFile(
      join(plugin, '.claude-plugin', 'plugin.json'),
      JSON.stringify({ name: 'no-curl' }),
    );
    await writeFile(
      join(plugin, 'hooks', 'hooks.json'),
      JSON.stringify({ modules: ['./register.ts'] }),
    );
    await writeFile(
      join(plugin, 'hooks', 'register.ts'),
      `import type { Register } from 'claude-code'
export const register: Register = (on) => {
  on('tool.call', { tool: 'Bash' }, ($, e, next) =>
    String(e.command).includes('curl') ? { deny: 'the no-curl mod refuses ' + e.command } : next(e))
}
`,
    );
    await writeFile(
      join(project, '.hookwire', 'settings.json'),
      JSON.stringify({ plugins: ['./mods/no-curl'] }),
    );
    const hook = (command: string): Promise<Answer> =>
      runCli(['relay', 'hook', '--from', 'claude'], {
        env,
        main: entry,
        input: JSON.stringify(pre(command)),
      });
    const denied = await hook('curl https://example.com');
    expect(denied.code, denied.stderr).toBe(0);
    expect(denialOf(denied)).toContain('the no-curl mod refuses curl https://example.com');
    const allowed = await hook('ls');
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(allowed.stdout).toBe('');
  }, 60_000);

  it('fails closed on PreToolUse and passes PostToolUse when no daemon can be reached', async () => {
    const unsafe = join(dir, 'unsafe');
    mkdirSync(join(unsafe, 'hookwire'), { recursive: true, mode: 0o755 });
    const blocked = await native(pre('ls'), { XDG_RUNTIME_DIR: unsafe });
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toContain("blocked because hookwire's hooks could not run");
    const passed = await native(
      { ...pre('ls'), hook_event_name: 'PostToolUse', tool_response: {} },
      { XDG_RUNTIME_DIR: unsafe },
    );
    expect(passed).toEqual({ code: 0, stdout: '', stderr: '' });
    // The Node client answers the same.
    const node = await runCli(['relay', 'hook', '--from', 'claude'], {
      env: { ...env, XDG_RUNTIME_DIR: unsafe },
      main: entry,
      input: JSON.stringify(pre('ls')),
    });
    expect(node.code).toBe(2);
    expect(node.stderr).toContain("blocked because hookwire's hooks could not run");
  }, 60_000);

  it('stops after --idle without events, removing its socket', async () => {
    const started = await runCli(['daemon', 'start', '--cwd', project, '--idle', '1s'], {
      env,
      main: entry,
    });
    expect(started.code, started.stderr).toBe(0);
    const pid = daemonPid();
    const socket = socketFile();
    // Wait for the process to end (bounded by the test's timeout).
    await new Promise<void>((settle) => {
      const check = (): void => {
        if (!alive(pid)) settle();
        else setTimeout(check, 50);
      };
      check();
    });
    expect(existsSync(socket)).toBe(false);
  }, 60_000);
});

describe('hookwire relay install / uninstall', () => {
  it("merges beside the user's hooks, is idempotent, --dry-run prints the diff, uninstall restores the file exactly", async () => {
    const file = join(project, '.claude', 'settings.json');
    mkdirSync(join(project, '.claude'));
    const original = `${JSON.stringify(
      {
        model: 'x',
        hooks: {
          PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo mine' }] }],
        },
      },
      null,
      2,
    )}\n`;
    await writeFile(file, original);
    const dry = await runCli(
      [
        'relay',
        'install',
        '--into',
        'claude',
        '--events',
        'PreToolUse',
        '--dry-run',
        '--cwd',
        project,
      ],
      { env, main: entry },
    );
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/^\+.*hookwire-relay/m);
    expect(readFileSync(file, 'utf8')).toBe(original);
    const install = [
      'relay',
      'install',
      '--into',
      'claude',
      '--events',
      'PreToolUse',
      '--cwd',
      project,
    ];
    expect((await runCli(install, { env, main: entry })).code).toBe(0);
    const once = readFileSync(file, 'utf8');
    const settings = JSON.parse(once) as {
      hooks: { PreToolUse: { hooks: { command: string }[] }[] };
    };
    expect(settings.hooks.PreToolUse.map((group) => group.hooks[0]?.command)).toEqual([
      'echo mine',
      expect.stringContaining('hookwire-relay') as unknown,
    ]);
    const again = await runCli(install, { env, main: entry });
    expect(again.stdout).toContain('already installed');
    expect(readFileSync(file, 'utf8')).toBe(once);
    const status = await runCli(['relay', 'status', '--cwd', project], { env, main: entry });
    expect(status.stdout).toContain(`claude (project): ${file}: PreToolUse`);
    const removed = await runCli(['relay', 'uninstall', '--from', 'claude', '--cwd', project], {
      env,
      main: entry,
    });
    expect(removed.code, removed.stderr).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(original);
  }, 60_000);

  it('the built CLI (dist/) writes entries that run the native client, not a Node start per event', async () => {
    // The bundled dist/bin/hookwire.js sits at another depth than src/cli/commands/relay.ts: the
    // client is found from the package root, or every event would pay a Node start.
    const outcome = await runCli(
      ['relay', 'install', '--into', 'claude', '--events', 'PreToolUse', '--cwd', project],
      { env, main: join(REPOSITORY, 'dist', 'bin', 'hookwire.js') },
    );
    expect(outcome.code, outcome.stderr).toBe(0);
    const settings = JSON.parse(
      readFileSync(join(project, '.claude', 'settings.json'), 'utf8'),
    ) as { hooks: { PreToolUse: { hooks: { command: string }[] }[] } };
    const command = settings.hooks.PreToolUse[0]?.hooks[0]?.command ?? '';
    expect(command.startsWith(`'${NATIVE}' claude `)).toBe(true);
    expect(command).not.toContain('relay hook --from');
  }, 60_000);

  it("writes Gemini CLI's events into .gemini/settings.json with its millisecond timeout", async () => {
    const outcome = await runCli(['relay', 'install', '--into', 'gemini', '--cwd', project], {
      env,
      main: entry,
    });
    expect(outcome.code, outcome.stderr).toBe(0);
    const settings = JSON.parse(
      readFileSync(join(project, '.gemini', 'settings.json'), 'utf8'),
    ) as {
      hooks: Record<string, { matcher?: string; hooks: { command: string; timeout: number }[] }[]>;
    };
    expect(Object.keys(settings.hooks)).toEqual([
      'BeforeTool',
      'AfterTool',
      'BeforeAgent',
      'AfterAgent',
      'SessionStart',
      'SessionEnd',
      'PreCompress',
      'Notification',
    ]);
    expect(settings.hooks['BeforeTool']?.[0]?.hooks[0]).toMatchObject({ timeout: 600_000 });
    await runCli(['relay', 'uninstall', '--from', 'gemini', '--cwd', project], {
      env,
      main: entry,
    });
    expect(existsSync(join(project, '.gemini', 'settings.json'))).toBe(false);
  }, 60_000);
});
