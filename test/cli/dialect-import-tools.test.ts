/**
 * `hookwire hooks import --from copilot|cursor|windsurf` round-trips: a tool's own hooks file
 * loaded as a dialect, and the same file imported into `.hookwire/settings.json` (the original
 * removed), give the same effects on the same tool calls — guards, a rewrite, a logger that sees
 * the tool's own payload, a hook's own directory.
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
async function effects(sandbox: Sandbox, log: string) {
  await rm(log, { force: true });
  await rm(join(sandbox.project, 'out.txt'), { force: true });
  await mkdir(join(sandbox.project, 'victim'), { recursive: true });
  await writeFile(join(sandbox.project, '.env'), 'SECRET=1\n');
  const { results } = await runToolCalls(sandbox, [
    ['shell', { command: 'rm -rf victim' }],
    ['shell', { command: 'echo raw > out.txt' }],
    ['write_file', { path: '.env', content: 'SECRET=2\n' }],
  ]);
  return {
    victim: existsSync(join(sandbox.project, 'victim')),
    env: await readFile(join(sandbox.project, '.env'), 'utf8'),
    out: await readFile(join(sandbox.project, 'out.txt'), 'utf8').catch(() => null),
    errors: results.map((result) => result.error ?? null),
    logged: await readLog(log),
  };
}

async function importAndCompare(
  sandbox: Sandbox,
  from: string,
  log: string,
  originals: readonly string[],
) {
  const asDialect = await effects(sandbox, log);
  const target = join(sandbox.project, '.hookwire', 'settings.json');
  await mkdir(join(sandbox.project, '.hookwire'), { recursive: true });
  const imported = await runCli(
    ['hooks', 'import', '--from', from, '--write', target, '--cwd', sandbox.project],
    { env: sandbox.env },
  );
  expect(imported.code, imported.stderr).toBe(0);
  for (const original of originals) await rm(original, { recursive: true });
  expect(await effects(sandbox, log)).toEqual(asDialect);
  return {
    asDialect,
    written: JSON.parse(await readFile(target, 'utf8')) as { hooks: Record<string, unknown[]> },
    stderr: imported.stderr,
  };
}

describe('hookwire hooks import from Copilot CLI, Cursor and Windsurf', () => {
  it(
    '--from copilot: camelCase hooks keep their payloads (dialectEvent), cwd and failing closed',
    { timeout: 90_000 },
    async () => {
      const sandbox = await createSandbox();
      const log = join(sandbox.root, 'log.jsonl');
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
      const { asDialect, written } = await importAndCompare(sandbox, 'copilot', log, [
        join(sandbox.project, '.github'),
      ]);
      expect(asDialect).toMatchObject({
        victim: true,
        env: 'SECRET=1\n',
        out: 'rewritten\n',
        errors: ['copilot guard: bash', null, 'copilot guard: create'],
      });
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
          hooks: [{ type: 'command', command: guard, timeout: '30s', failClosed: true }],
        },
      ]);
    },
  );

  it(
    '--from cursor: a specific event becomes its kind of call, a ~/.cursor hook keeps its directory',
    { timeout: 90_000 },
    async () => {
      const sandbox = await createSandbox();
      const log = join(sandbox.root, 'log.jsonl');
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
      await mkdir(join(sandbox.home, '.cursor'), { recursive: true });
      await writeJson(join(sandbox.home, '.cursor', 'hooks.json'), {
        version: 1,
        hooks: {
          afterShellExecution: [
            {
              command: `${node} -e "require('fs').appendFileSync(${JSON.stringify(log).replace(/"/g, "'")}, JSON.stringify({ cwd: process.cwd() }) + '\\\\n')"`,
            },
          ],
        },
      });
      const { asDialect, written } = await importAndCompare(sandbox, 'cursor', log, [
        join(sandbox.project, '.cursor'),
        join(sandbox.home, '.cursor', 'hooks.json'),
      ]);
      expect(asDialect).toMatchObject({
        victim: true,
        env: 'SECRET=1\n',
        out: 'rewritten\n',
        errors: ['cursor guard: beforeShellExecution', null, 'cursor guard: Write'],
      });
      expect(asDialect.logged).toEqual([
        { cwd: join(sandbox.home, '.cursor') },
        { cwd: join(sandbox.home, '.cursor') },
      ]);
      expect(written.hooks['PreToolUse']).toContainEqual({
        matcher: 'shell',
        dialect: 'cursor',
        dialectEvent: 'beforeShellExecution',
        hooks: [{ type: 'command', command: guard, timeout: '60s' }],
      });
    },
  );

  it(
    '--from windsurf: exit-2 guards and a logger of tool_info give the same effects',
    { timeout: 90_000 },
    async () => {
      const sandbox = await createSandbox();
      const log = join(sandbox.root, 'log.jsonl');
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
      const { asDialect, written } = await importAndCompare(sandbox, 'windsurf', log, [
        join(sandbox.project, '.windsurf'),
      ]);
      expect(asDialect).toMatchObject({
        victim: true,
        env: 'SECRET=1\n',
        out: 'raw\n',
        errors: ['windsurf guard: pre_run_command', null, 'windsurf guard: pre_write_code'],
      });
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
        hooks: [{ type: 'command', command: guard, timeout: '60s' }],
      });
    },
  );
});
