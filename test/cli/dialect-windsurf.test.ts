/**
 * Windsurf's Cascade hooks (`/etc/windsurf/hooks.json`, `~/.codeium/windsurf/hooks.json`,
 * `.windsurf/hooks.json`) end to end: hooks written as Windsurf's reference describes them
 * (reading `agent_action_name` and `tool_info`, blocking by exit 2), driven by `hookwire run` on
 * the scripted model; the effects are asserted. Windsurf hooks cannot rewrite, add context or
 * continue a turn, so its guards and loggers are what there is to run.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { callTool, createSandbox, readLog, runScripted, say, writeJson } from './support.ts';

const node = JSON.stringify(process.execPath);

function hook(body: string): string {
  return `import { appendFileSync, readFileSync } from 'node:fs';
const input = JSON.parse(readFileSync(0, 'utf8'));
${body}
`;
}

async function script(file: string, source: string): Promise<string> {
  await mkdir(join(file, '..'), { recursive: true });
  await writeFile(file, source);
  return `${node} ${JSON.stringify(file)}`;
}

describe('Windsurf dialect', () => {
  it(
    'runs system, user and workspace hooks in order: command and file guards by exit 2, a post-read guard withholding a secret, loggers',
    { timeout: 90_000 },
    async () => {
      const sandbox = await createSandbox();
      const systemRoot = join(sandbox.root, 'system');
      const env = { ...sandbox.env, HOOKWIRE_SYSTEM_ROOT: systemRoot };
      const log = join(sandbox.root, 'actions.jsonl');
      const logger = (who: string) =>
        hook(
          `appendFileSync(${JSON.stringify(log)}, JSON.stringify({ who: ${JSON.stringify(who)}, ...input }) + '\\n');`,
        );
      const guardCommand = await script(
        join(sandbox.project, '.windsurf', 'guard-command.mjs'),
        hook(`if (/rm -rf/.test(input.tool_info.command_line)) {
  process.stderr.write('windsurf guard: ' + input.tool_info.command_line + ' in ' + input.tool_info.cwd);
  process.exit(2);
}`),
      );
      const guardWrite = await script(
        join(sandbox.project, '.windsurf', 'guard-write.mjs'),
        hook(`if (input.tool_info.file_path.endsWith('.env')) {
  process.stderr.write('windsurf guard: no writes to ' + input.tool_info.file_path);
  process.exit(2);
}`),
      );
      const secretScan = await script(
        join(sandbox.home, 'scan.mjs'),
        hook(`if (readFileSync(input.tool_info.file_path, 'utf8').includes('SECRET=')) {
  process.stderr.write('windsurf scan: secret in ' + input.tool_info.file_path);
  process.exit(2);
}`),
      );
      const systemLogger = await script(join(systemRoot, 'log.mjs'), logger('system'));
      const userLogger = await script(join(sandbox.home, 'log.mjs'), logger('user'));
      const workspaceLogger = await script(
        join(sandbox.project, '.windsurf', 'log.mjs'),
        logger('workspace'),
      );
      // A logger that exits 2 after the response: nothing to block, so only a warning.
      const responseLogger = await script(
        join(sandbox.project, '.windsurf', 'response.mjs'),
        hook(`appendFileSync(${JSON.stringify(log)}, JSON.stringify({ who: 'response', ...input }) + '\\n');
process.exit(2);`),
      );
      await writeJson(join(systemRoot, 'etc', 'windsurf', 'hooks.json'), {
        hooks: { pre_user_prompt: [{ command: systemLogger, show_output: true }] },
      });
      await writeJson(join(sandbox.home, '.codeium', 'windsurf', 'hooks.json'), {
        hooks: {
          pre_user_prompt: [{ command: userLogger }],
          post_read_code: [{ command: secretScan, show_output: true }],
        },
      });
      await writeJson(join(sandbox.project, '.windsurf', 'hooks.json'), {
        hooks: {
          pre_user_prompt: [{ command: workspaceLogger }],
          pre_run_command: [{ command: guardCommand, show_output: true }],
          // An unknown field never disables a hook.
          pre_write_code: [{ command: guardWrite, notAField: true }],
          post_cascade_response: [{ command: responseLogger }],
          post_setup_worktree: [{ command: 'true' }],
        },
      });
      await mkdir(join(sandbox.project, 'victim'));
      await writeFile(join(sandbox.project, '.env'), 'SECRET=1\n');

      const outcome = await runScripted(
        sandbox,
        [
          callTool('c0', 'shell', { command: 'rm -rf victim' }),
          callTool('c1', 'edit_file', { path: '.env', old_string: 'SECRET', new_string: 'X' }),
          callTool('c2', 'read_file', { path: '.env' }),
          callTool('c3', 'shell', { command: 'echo ok > ok.txt' }),
          say('all done'),
        ],
        { env, prompt: 'tidy up' },
      );
      const { requests, stderr } = outcome;

      expect(existsSync(join(sandbox.project, 'victim'))).toBe(true);
      expect(JSON.stringify(requests[1]?.['contents'])).toContain(
        `windsurf guard: rm -rf victim in ${sandbox.project}`,
      );
      expect(await readFile(join(sandbox.project, '.env'), 'utf8')).toBe('SECRET=1\n');
      expect(JSON.stringify(requests[2]?.['contents'])).toContain('windsurf guard: no writes to');
      // The post-read scan's exit 2 kept the secret from the model (Windsurf would pass it on).
      expect(JSON.stringify(requests[3]?.['contents'])).toContain('windsurf scan: secret in');
      expect(JSON.stringify(requests[3]?.['contents'])).not.toContain('SECRET=1');
      expect(await readFile(join(sandbox.project, 'ok.txt'), 'utf8')).toBe('ok\n');
      // Loggers: system, then user, then workspace; the response logger saw the answer.
      const logged = await readLog(log);
      expect(logged.map((entry) => entry['who'])).toEqual([
        'system',
        'user',
        'workspace',
        'response',
      ]);
      expect(logged[0]).toMatchObject({
        agent_action_name: 'pre_user_prompt',
        tool_info: { user_prompt: 'tidy up' },
      });
      expect(typeof logged[0]?.['trajectory_id']).toBe('string');
      expect(logged[3]).toMatchObject({
        agent_action_name: 'post_cascade_response',
        tool_info: { response: 'all done' },
      });
      // Its exit 2 did not continue the turn.
      expect(requests).toHaveLength(5);
      expect(stderr).toContain('hooks.pre_write_code[0].notAField');
      expect(stderr).toContain(`Windsurf's event "post_setup_worktree" is not supported`);
      expect(stderr).not.toContain('show_output');
    },
  );
});
