/**
 * The Claude-shaped family end to end (Factory Droid, Augment, CodeBuddy, Qwen Code): for each,
 * hooks written the way that tool's reference describes them (Claude Code's envelope in its own
 * file, with its own tool names, project-directory variable, timeout unit and event names) — a
 * shell guard, a protected-file guard, a rewrite, a context injector, a stop check and a logger —
 * placed in the tool's own file of a temporary project and driven by `hookwire run` on the
 * scripted model. The effects are asserted (the directory that survives, the secret file never
 * written, the command that ran instead, the context in the model's request, the Stop
 * continuation, the logged tool names), then again after `hooks import --from TOOL` with the
 * tool's file removed: the import round-trips. One unknown field never disables another hook.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  callTool,
  createSandbox,
  jsonLines,
  readLog,
  runCli,
  runScripted,
  say,
  writeJson,
  type Sandbox,
} from './support.ts';

/** argv: SHELL WRITE PATH_FIELD. Shell guard (exit 2), .env guard (deny), rewrite (updatedInput). */
const PRE_TOOL_USE = `
import { readFileSync } from 'node:fs';
const [shell, write, pathField] = process.argv.slice(2);
const input = JSON.parse(readFileSync(0, 'utf8'));
const tool = input.tool_input;
if (input.tool_name === shell && /\\brm\\s+-rf\\b/.test(tool.command)) {
  process.stderr.write('no rm -rf in ' + input.tool_name);
  process.exit(2);
}
if (input.tool_name === write && String(tool[pathField]).endsWith('.env')) {
  console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'secrets stay out of ' + tool[pathField] } }));
  process.exit(0);
}
if (input.tool_name === shell && tool.command.startsWith('echo original')) {
  console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { command: 'echo rewritten > out.txt' } } }));
}
`;

/** argv: VARIABLE. Adds context naming the project directory the variable gives. */
const CONTEXT = `
import { readFileSync } from 'node:fs';
const input = JSON.parse(readFileSync(0, 'utf8'));
const dir = process.env[process.argv[2]];
console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: input.hook_event_name, additionalContext: 'project at ' + dir + ' (' + input.hook_event_name + ')' } }));
`;

/** argv: VARIABLE. Blocks Stop until check.txt exists. */
const STOP_CHECK = `
import { existsSync, readFileSync } from 'node:fs';
readFileSync(0, 'utf8');
if (!existsSync(process.env[process.argv[2]] + '/check.txt'))
  console.log(JSON.stringify({ decision: 'block', reason: 'write check.txt before you stop' }));
`;

/** argv: LOG. Logs every payload. */
const LOGGER = `
import { appendFileSync, readFileSync } from 'node:fs';
appendFileSync(process.argv[2], readFileSync(0, 'utf8').trim() + '\\n');
`;

interface Profile {
  readonly name: string;
  /** The tool's hooks file, relative to the project. */
  readonly file: readonly string[];
  /** Events at the file's root (Factory's hooks.json). */
  readonly atRoot: boolean;
  readonly shell: string;
  readonly write: string;
  readonly pathField: string;
  readonly variable: string;
  readonly promptEvent: string;
  /** A 30-second timeout in the tool's unit. */
  readonly timeout: number;
  /** Fields the tool's payloads add to Claude Code's (seen by the logger). */
  readonly payloadFields?: (project: string) => Record<string, unknown>;
}

const PROFILES: readonly Profile[] = [
  {
    name: 'factory',
    file: ['.factory', 'hooks.json'],
    atRoot: true,
    shell: 'Execute',
    write: 'Create',
    pathField: 'file_path',
    variable: 'FACTORY_PROJECT_DIR',
    promptEvent: 'UserPromptSubmit',
    timeout: 30,
  },
  {
    name: 'augment',
    file: ['.augment', 'settings.json'],
    atRoot: false,
    shell: 'launch-process',
    write: 'save-file',
    pathField: 'path',
    variable: 'CLAUDE_PROJECT_DIR',
    promptEvent: 'PromptSubmit',
    timeout: 30_000,
    payloadFields: (project) => ({
      conversation_id: expect.any(String) as string,
      workspace_roots: [project],
      is_mcp_tool: false,
    }),
  },
  {
    name: 'codebuddy',
    file: ['.codebuddy', 'settings.json'],
    atRoot: false,
    shell: 'Bash',
    write: 'Write',
    pathField: 'file_path',
    variable: 'CODEBUDDY_PROJECT_DIR',
    promptEvent: 'UserPromptSubmit',
    timeout: 30,
  },
  {
    name: 'qwen',
    file: ['.qwen', 'settings.json'],
    atRoot: false,
    shell: 'run_shell_command',
    write: 'write_file',
    pathField: 'file_path',
    variable: 'CLAUDE_PROJECT_DIR',
    promptEvent: 'UserPromptSubmit',
    timeout: 30_000,
  },
];

async function script(sandbox: Sandbox, name: string, source: string): Promise<string> {
  const file = join(sandbox.root, 'hooks', name);
  await mkdir(join(sandbox.root, 'hooks'), { recursive: true });
  await writeFile(file, source);
  return `${JSON.stringify(process.execPath)} ${JSON.stringify(file)}`;
}

const TURNS = [
  callTool('t1', 'shell', { command: 'rm -rf keep' }),
  callTool('t2', 'write_file', { path: '.env', content: 'TOKEN=1' }),
  callTool('t3', 'shell', { command: 'echo original > out.txt' }),
  say('Done.'),
  callTool('t4', 'shell', { command: 'echo ok > check.txt' }),
  say('Done, checked.'),
];

async function runAndCheck(sandbox: Sandbox, profile: Profile, log: string) {
  await mkdir(join(sandbox.project, 'keep'), { recursive: true });
  await rm(join(sandbox.project, 'check.txt'), { force: true });
  await rm(join(sandbox.project, 'out.txt'), { force: true });
  await rm(log, { force: true });
  const outcome = await runScripted(sandbox, TURNS, { extra: ['--output-format', 'stream-json'] });
  const results = jsonLines(outcome.stdout)
    .filter((event) => event.type === 'tool-result')
    .map((event) => String(event.error ?? event.result));
  expect(outcome.code).toBe(0);
  expect(existsSync(join(sandbox.project, 'keep'))).toBe(true);
  expect(results[0]).toContain(`no rm -rf in ${profile.shell}`);
  expect(existsSync(join(sandbox.project, '.env'))).toBe(false);
  expect(results[1]).toContain(
    // Paths in `file_path` are absolute, as in Claude Code; Augment's `path` is the workspace's.
    `secrets stay out of ${profile.pathField === 'file_path' ? join(sandbox.project, '.env') : '.env'}`,
  );
  expect(await readFile(join(sandbox.project, 'out.txt'), 'utf8')).toBe('rewritten\n');
  // The context injector got the tool's own prompt event name, and its answer applied.
  expect(JSON.stringify(outcome.requests[0])).toContain(
    `project at ${sandbox.project} (${profile.promptEvent})`,
  );
  expect(existsSync(join(sandbox.project, 'check.txt'))).toBe(true);
  expect(JSON.stringify(outcome.requests[4])).toContain('write check.txt before you stop');
  const lines = await readLog(log);
  if (profile.payloadFields !== undefined)
    expect(lines[0]).toMatchObject(profile.payloadFields(sandbox.project));
  const logged = lines.map((line): [unknown, string | undefined] => [
    line['tool_name'],
    (line['tool_input'] as { command?: string } | undefined)?.command,
  ]);
  // The logger saw the calls in the tool's names, the rewritten command instead of the original.
  expect(logged).toEqual(
    expect.arrayContaining([
      [profile.shell, 'echo rewritten > out.txt'],
      [profile.shell, 'echo ok > check.txt'],
    ]),
  );
  expect(logged.some(([, command]) => command?.startsWith('echo original') === true)).toBe(false);
  return outcome;
}

describe('the Claude-shaped family', () => {
  for (const profile of PROFILES)
    it(`${profile.name}: guards, rewrite, context, stop check and logger in ${profile.file.join('/')} take effect, and again after hooks import --from ${profile.name}`, async () => {
      const sandbox = await createSandbox();
      const log = join(sandbox.root, 'log.jsonl');
      const pre = await script(sandbox, 'pre.mjs', PRE_TOOL_USE);
      const context = await script(sandbox, 'context.mjs', CONTEXT);
      const stop = await script(sandbox, 'stop.mjs', STOP_CHECK);
      const logger = await script(sandbox, 'log.mjs', LOGGER);
      const command = (base: string, ...args: string[]) =>
        [base, ...args.map((arg) => JSON.stringify(arg))].join(' ');
      const events = {
        PreToolUse: [
          {
            matcher: `${profile.shell}|${profile.write}`,
            // One unknown field: ignored with a warning, the hook still runs.
            somethingNew: true,
            hooks: [
              {
                type: 'command',
                command: command(pre, profile.shell, profile.write, profile.pathField),
                timeout: profile.timeout,
              },
            ],
          },
        ],
        [profile.promptEvent]: [
          { hooks: [{ type: 'command', command: command(context, profile.variable) }] },
        ],
        Stop: [{ hooks: [{ type: 'command', command: command(stop, profile.variable) }] }],
        PostToolUse: [
          { matcher: profile.shell, hooks: [{ type: 'command', command: command(logger, log) }] },
        ],
      };
      const file = join(sandbox.project, ...profile.file);
      await writeJson(file, profile.atRoot ? events : { model: 'x', hooks: events });

      const first = await runAndCheck(sandbox, profile, log);
      expect(first.stderr).toContain('somethingNew');

      // hooks list shows the dialect and the file, with the timeout read in the tool's unit.
      const listed = await runCli(['hooks', 'list', '--json', '--cwd', sandbox.project], {
        env: sandbox.env,
      });
      const rows = JSON.parse(listed.stdout) as {
        file: string;
        dialect?: string;
        event: string;
        timeout: string;
      }[];
      const preRow = rows.find((row) => row.event === 'PreToolUse');
      expect(preRow).toMatchObject({ file, dialect: profile.name, timeout: '30s' });

      // --no-dialects reads none of it.
      const off = await runScripted(
        sandbox,
        [callTool('x', 'shell', { command: 'true' }), say('ok')],
        {
          extra: ['--no-dialects'],
        },
      );
      expect(off.code).toBe(0);
      expect(JSON.stringify(off.requests[0])).not.toContain('project at');

      // Imported into hookwire's own file, the tool's file removed: the same effects.
      const target = join(sandbox.project, '.hookwire', 'settings.json');
      await mkdir(join(sandbox.project, '.hookwire'), { recursive: true });
      const imported = await runCli(
        ['hooks', 'import', '--from', profile.name, '--write', target, '--cwd', sandbox.project],
        { env: sandbox.env },
      );
      expect(imported.code).toBe(0);
      const written = JSON.parse(await readFile(target, 'utf8')) as {
        hooks: Record<string, { dialect: string }[]>;
      };
      expect(written.hooks['PreToolUse']?.[0]?.dialect).toBe(profile.name);
      await rm(file);
      await runAndCheck(sandbox, profile, log);
    }, 120_000);
});
