/**
 * `hookwire hooks import --from TOOL` round-trips for every tool added by issue 31 (copilot,
 * cursor, windsurf, factory, augment, codebuddy, qwen, claude-plugin): one table, a row per tool.
 * Each row writes that tool's own file (a guard of `rm -rf` and of `.env`, a rewrite where the
 * tool's answers can rewrite, a logger of the tool's own payload); the scenario runs it through
 * `hookwire run` on the scripted model as the dialect, imports it into `.hookwire/settings.json`,
 * removes the original (a plugin: stops passing `--plugin-dir`), and runs again: the effects (the
 * directory that survives, the secret file left alone, the command that ran, what each guard
 * said, what the logger saw) are the same, and as the tool would have them.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  createSandbox,
  readLog,
  runCli,
  runToolCalls,
  writeJson,
  type Sandbox,
} from './support.ts';

const node = JSON.stringify(process.execPath);

async function script(file: string, body: string): Promise<string> {
  await mkdir(join(file, '..'), { recursive: true });
  await writeFile(
    file,
    `import { appendFileSync, readFileSync } from 'node:fs';
const input = JSON.parse(readFileSync(0, 'utf8'));
${body}
`,
  );
  return `${node} ${JSON.stringify(file)}`;
}

/** The effects of one round of calls: what survived, what the guards said, what the logger saw. */
async function effects(sandbox: Sandbox, log: string, extra: readonly string[]) {
  await rm(log, { force: true });
  await rm(join(sandbox.project, 'out.txt'), { force: true });
  await mkdir(join(sandbox.project, 'victim'), { recursive: true });
  await writeFile(join(sandbox.project, '.env'), 'SECRET=1\n');
  const { results, code } = await runToolCalls(
    sandbox,
    [
      ['shell', { command: 'rm -rf victim' }],
      ['shell', { command: 'echo raw > out.txt' }],
      ['write_file', { path: '.env', content: 'SECRET=2\n' }],
    ],
    extra,
  );
  return {
    code,
    victim: existsSync(join(sandbox.project, 'victim')),
    env: await readFile(join(sandbox.project, '.env'), 'utf8'),
    out: await readFile(join(sandbox.project, 'out.txt'), 'utf8').catch(() => null),
    errors: results.map((result) => result.error ?? null),
    logged: await readLog(log),
  };
}

type Effects = Awaited<ReturnType<typeof effects>>;
type Written = { hooks: Record<string, unknown[]> };

/** What a row's setup leaves: the files to remove after the import, the flags of each step. */
interface Placed {
  /** The tool's files, removed once imported. */
  readonly originals: readonly string[];
  /** Flags of the run that reads the tool's files (a plugin's `--plugin-dir`). */
  readonly runArgs?: readonly string[];
  /** Flags of `hooks import`. */
  readonly importArgs?: readonly string[];
}

interface Row {
  readonly from: string;
  /** The guards' messages, in call order (`null`: the call went through). */
  readonly errors: readonly (string | null)[];
  /** Whether the tool's answers can rewrite a command (Windsurf's hooks answer by exit code). */
  readonly rewrites: boolean;
  /** Writes the tool's hooks (guards, rewrite, logger appending to `log`) where it keeps them. */
  place(sandbox: Sandbox, log: string): Promise<Placed>;
  /** What this tool's logger saw, and how the import wrote its hooks. */
  check(asDialect: Effects, written: Written, sandbox: Sandbox): void;
}

/** A Claude-shaped tool (Claude Code's envelope, its own names): guard, rewrite and logger. */
interface ClaudeShaped {
  readonly shell: string;
  readonly write: string;
  readonly pathField: string;
}

async function claudeShapedScripts(directory: string, names: ClaudeShaped, log: string) {
  const guard = await script(
    join(directory, 'pre.mjs'),
    `const tool = input.tool_input;
if (input.tool_name === ${JSON.stringify(names.shell)} && /rm -rf/.test(tool.command)) {
  process.stderr.write('guard: no rm -rf in ' + input.tool_name);
  process.exit(2);
}
if (input.tool_name === ${JSON.stringify(names.write)} && String(tool[${JSON.stringify(names.pathField)}]).endsWith('.env'))
  console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'guard: secrets stay out of ' + input.tool_name } }));
else if (input.tool_name === ${JSON.stringify(names.shell)} && tool.command.includes('raw'))
  console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { ...tool, command: tool.command.replace('raw', 'rewritten') } } }));`,
  );
  const logger = await script(
    join(directory, 'log.mjs'),
    `appendFileSync(${JSON.stringify(log)}, JSON.stringify({ tool: input.tool_name, command: input.tool_input.command, root: process.env.CLAUDE_PLUGIN_ROOT ?? null }) + '\\n');`,
  );
  return { guard, logger };
}

/** A row for a Claude-shaped profile: its file, names and timeout unit. */
function profileRow(
  from: string,
  file: readonly string[],
  names: ClaudeShaped & { readonly atRoot?: boolean; readonly timeout: number },
): Row {
  return {
    from,
    errors: [
      `guard: no rm -rf in ${names.shell}`,
      null,
      `guard: secrets stay out of ${names.write}`,
    ],
    rewrites: true,
    async place(sandbox, log) {
      const { guard, logger } = await claudeShapedScripts(join(sandbox.root, 'hooks'), names, log);
      const events = {
        PreToolUse: [
          {
            matcher: `${names.shell}|${names.write}`,
            hooks: [{ type: 'command', command: guard, timeout: names.timeout }],
          },
        ],
        PostToolUse: [{ matcher: names.shell, hooks: [{ type: 'command', command: logger }] }],
      };
      const path = join(sandbox.project, ...file);
      await writeJson(path, names.atRoot === true ? events : { hooks: events });
      return { originals: [path] };
    },
    check(asDialect, written) {
      expect(asDialect.logged).toEqual([
        { tool: names.shell, command: 'rm -rf victim', root: null },
        { tool: names.shell, command: 'echo rewritten > out.txt', root: null },
      ]);
      // The timeout read in the tool's unit (30 s), the matcher in hookwire's names.
      expect(written.hooks['PreToolUse']).toEqual([
        {
          matcher: 'shell|write_file',
          dialect: from,
          hooks: [{ type: 'command', command: expect.any(String) as string, timeout: '30s' }],
        },
      ]);
    },
  };
}

const ROWS: readonly Row[] = [
  {
    from: 'copilot',
    errors: ['copilot guard: bash', null, 'copilot guard: create'],
    rewrites: true,
    async place(sandbox, log) {
      const guard = await script(
        join(sandbox.root, 'hooks', 'guard.mjs'),
        `const args = JSON.parse(input.toolArgs);
if (/rm -rf/.test(args.command ?? '') || (args.path ?? '').endsWith('.env'))
  console.log(JSON.stringify({ permissionDecision: 'deny', permissionDecisionReason: 'copilot guard: ' + input.toolName }));
else if ((args.command ?? '').includes('raw'))
  console.log(JSON.stringify({ permissionDecision: 'allow', modifiedArgs: { command: args.command.replace('raw', 'rewritten') } }));`,
      );
      const logger = await script(
        join(sandbox.root, 'hooks', 'log.mjs'),
        `appendFileSync(${JSON.stringify(log)}, JSON.stringify({ cwd: process.cwd(), toolName: input.toolName, toolArgs: input.toolArgs }) + '\\n');`,
      );
      await writeJson(join(sandbox.project, '.github', 'hooks', 'hooks.json'), {
        version: 1,
        hooks: {
          preToolUse: [{ type: 'command', bash: guard, matcher: 'bash|create|edit' }],
          postToolUse: [{ type: 'command', bash: logger, cwd: 'victim' }],
        },
      });
      return { originals: [join(sandbox.project, '.github')] };
    },
    check(asDialect, written, sandbox) {
      // The logger ran in its cwd and saw Copilot's payload (toolArgs, a JSON string).
      expect(asDialect.logged.at(-1)).toEqual({
        cwd: join(sandbox.project, 'victim'),
        toolName: 'create',
        toolArgs: JSON.stringify({ path: '.env', file_text: 'SECRET=2\n' }),
      });
      expect(written.hooks['PreToolUse']).toEqual([
        {
          matcher: 'shell|write_file|edit_file',
          dialect: 'copilot',
          dialectEvent: 'preToolUse',
          hooks: [
            {
              type: 'command',
              command: expect.any(String) as string,
              timeout: '30s',
              failClosed: true,
            },
          ],
        },
      ]);
    },
  },
  {
    from: 'cursor',
    errors: ['cursor guard: beforeShellExecution', null, 'cursor guard: Write'],
    rewrites: true,
    async place(sandbox, log) {
      const guard = await script(
        join(sandbox.root, 'hooks', 'guard.mjs'),
        `if (/rm -rf/.test(input.command)) console.log(JSON.stringify({ permission: 'deny', agent_message: 'cursor guard: ' + input.hook_event_name }));`,
      );
      const rewrite = await script(
        join(sandbox.root, 'hooks', 'rewrite.mjs'),
        `if (input.tool_name === 'Write' && input.tool_input.file_path.endsWith('.env'))
  console.log(JSON.stringify({ permission: 'deny', agent_message: 'cursor guard: Write' }));
else if (input.tool_name === 'Shell')
  console.log(JSON.stringify({ updated_input: { command: input.tool_input.command.replace('raw', 'rewritten') } }));`,
      );
      await writeJson(join(sandbox.project, '.cursor', 'hooks.json'), {
        version: 1,
        hooks: {
          beforeShellExecution: [{ command: guard }],
          preToolUse: [{ command: rewrite, matcher: 'Shell|Write' }],
        },
      });
      // A user-level hook: Cursor runs it from ~/.cursor.
      await writeJson(join(sandbox.home, '.cursor', 'hooks.json'), {
        version: 1,
        hooks: {
          afterShellExecution: [
            {
              command: await script(
                join(sandbox.root, 'hooks', 'log.mjs'),
                `appendFileSync(${JSON.stringify(log)}, JSON.stringify({ cwd: process.cwd(), command: input.command }) + '\\n');`,
              ),
            },
          ],
        },
      });
      return {
        originals: [join(sandbox.project, '.cursor'), join(sandbox.home, '.cursor', 'hooks.json')],
      };
    },
    check(asDialect, written, sandbox) {
      expect(asDialect.logged).toEqual([
        { cwd: join(sandbox.home, '.cursor'), command: 'rm -rf victim' },
        { cwd: join(sandbox.home, '.cursor'), command: 'echo rewritten > out.txt' },
      ]);
      expect(written.hooks['PreToolUse']).toContainEqual({
        matcher: 'shell',
        dialect: 'cursor',
        dialectEvent: 'beforeShellExecution',
        hooks: [{ type: 'command', command: expect.any(String) as string, timeout: '60s' }],
      });
    },
  },
  {
    from: 'windsurf',
    errors: ['windsurf guard: pre_run_command', null, 'windsurf guard: pre_write_code'],
    rewrites: false,
    async place(sandbox, log) {
      const guard = await script(
        join(sandbox.root, 'hooks', 'guard.mjs'),
        `const info = input.tool_info;
if (/rm -rf/.test(info.command_line ?? '') || (info.file_path ?? '').endsWith('.env')) {
  process.stderr.write('windsurf guard: ' + input.agent_action_name);
  process.exit(2);
}`,
      );
      const logger = await script(
        join(sandbox.root, 'hooks', 'log.mjs'),
        `appendFileSync(${JSON.stringify(log)}, JSON.stringify({ action: input.agent_action_name, info: input.tool_info }) + '\\n');`,
      );
      await writeJson(join(sandbox.project, '.windsurf', 'hooks.json'), {
        hooks: {
          pre_run_command: [{ command: guard, show_output: true }],
          pre_write_code: [{ command: guard }],
          post_run_command: [{ command: logger }],
        },
      });
      return { originals: [join(sandbox.project, '.windsurf')] };
    },
    check(asDialect, written, sandbox) {
      expect(asDialect.logged).toEqual([
        {
          action: 'post_run_command',
          info: { command_line: 'rm -rf victim', cwd: sandbox.project },
        },
        {
          action: 'post_run_command',
          info: { command_line: 'echo raw > out.txt', cwd: sandbox.project },
        },
      ]);
      expect(written.hooks['PreToolUse']).toContainEqual({
        matcher: 'write_file|edit_file',
        dialect: 'windsurf',
        dialectEvent: 'pre_write_code',
        hooks: [{ type: 'command', command: expect.any(String) as string, timeout: '60s' }],
      });
    },
  },
  profileRow('factory', ['.factory', 'hooks.json'], {
    shell: 'Execute',
    write: 'Create',
    pathField: 'file_path',
    atRoot: true,
    timeout: 30,
  }),
  profileRow('augment', ['.augment', 'settings.json'], {
    shell: 'launch-process',
    write: 'save-file',
    pathField: 'path',
    timeout: 30_000,
  }),
  profileRow('codebuddy', ['.codebuddy', 'settings.json'], {
    shell: 'Bash',
    write: 'Write',
    pathField: 'file_path',
    timeout: 30,
  }),
  profileRow('qwen', ['.qwen', 'settings.json'], {
    shell: 'run_shell_command',
    write: 'write_file',
    pathField: 'file_path',
    timeout: 30_000,
  }),
  {
    from: 'claude-plugin',
    errors: ['guard: no rm -rf in Bash', null, 'guard: secrets stay out of Write'],
    rewrites: true,
    async place(sandbox, log) {
      const plugin = join(sandbox.root, 'plugins', 'house rules');
      await claudeShapedScripts(
        join(plugin, 'scripts'),
        { shell: 'Bash', write: 'Write', pathField: 'file_path' },
        log,
      );
      await writeJson(join(plugin, '.claude-plugin', 'plugin.json'), { name: 'house-rules' });
      const run = (name: string) => `${node} "\${CLAUDE_PLUGIN_ROOT}/scripts/${name}"`;
      await writeJson(join(plugin, 'hooks', 'hooks.json'), {
        hooks: {
          PreToolUse: [
            { matcher: 'Bash|Write', hooks: [{ type: 'command', command: run('pre.mjs') }] },
          ],
          PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: run('log.mjs') }] }],
        },
      });
      // The plugin's scripts stay where they are: the import points at them.
      return {
        originals: [],
        runArgs: ['--plugin-dir', plugin],
        importArgs: ['--plugin-dir', plugin],
      };
    },
    check(asDialect, written, sandbox) {
      const root = join(sandbox.root, 'plugins', 'house rules');
      // The logger read CLAUDE_PLUGIN_ROOT from its environment, before and after the import.
      expect(asDialect.logged).toEqual([
        { tool: 'Bash', command: 'rm -rf victim', root },
        { tool: 'Bash', command: 'echo rewritten > out.txt', root },
      ]);
      expect(written.hooks['PreToolUse']).toEqual([
        {
          matcher: 'shell|write_file',
          dialect: 'claude',
          hooks: [
            {
              type: 'command',
              command: `export CLAUDE_PLUGIN_ROOT='${root}'; ${node} "${root}/scripts/pre.mjs"`,
              // The name the plugin's hook is listed by (its command without the export).
              name: expect.stringContaining('node') as string,
              timeout: '600s',
            },
          ],
        },
      ]);
    },
  },
];

describe('hookwire hooks import round-trips for each tool of issue 31', () => {
  for (const row of ROWS)
    it(
      `--from ${row.from}: the imported hooks have the tool file's effects in hookwire run`,
      {
        timeout: 120_000,
      },
      async () => {
        const sandbox = await createSandbox();
        const log = join(sandbox.root, 'log.jsonl');
        const placed = await row.place(sandbox, log);
        const asDialect = await effects(sandbox, log, placed.runArgs ?? []);
        expect(asDialect).toMatchObject({
          code: 0,
          victim: true,
          env: 'SECRET=1\n',
          out: row.rewrites ? 'rewritten\n' : 'raw\n',
          errors: row.errors,
        });

        const target = join(sandbox.project, '.hookwire', 'settings.json');
        await mkdir(join(sandbox.project, '.hookwire'), { recursive: true });
        const imported = await runCli(
          [
            'hooks',
            'import',
            '--from',
            row.from,
            ...(placed.importArgs ?? []),
            '--write',
            target,
            '--cwd',
            sandbox.project,
          ],
          { env: sandbox.env },
        );
        expect(imported.code, imported.stderr).toBe(0);
        for (const original of placed.originals) await rm(original, { recursive: true });
        const written = JSON.parse(await readFile(target, 'utf8')) as Written;
        row.check(asDialect, written, sandbox);
        expect(await effects(sandbox, log, [])).toEqual(asDialect);
      },
    );
});

describe('hookwire hooks import --from claude-plugin, refused', () => {
  it(
    'without a plugin to read, or with --plugin-dir for another tool, says what to give',
    {
      timeout: 60_000,
    },
    async () => {
      const sandbox = await createSandbox();
      const none = await runCli(
        ['hooks', 'import', '--from', 'claude-plugin', '--cwd', sandbox.project],
        {
          env: sandbox.env,
        },
      );
      expect(none.code).toBe(1);
      expect(none.stderr).toContain('no plugin with hooks found');
      expect(none.stderr).toContain('--plugin-dir DIR');
      const mixed = await runCli(
        [
          'hooks',
          'import',
          '--from',
          'cursor',
          '--plugin-dir',
          sandbox.root,
          '--cwd',
          sandbox.project,
        ],
        { env: sandbox.env },
      );
      expect(mixed.code).toBe(1);
      expect(mixed.stderr).toContain('--plugin-dir goes with --from claude-plugin');
    },
  );
});
