/**
 * Cursor's hooks (`.cursor/hooks.json`, `~/.cursor/hooks.json`) end to end: hooks written as
 * Cursor's reference describes them (a shell guard answering `permission`, a `beforeReadFile`
 * guard reading the file's `content`, a `preToolUse` rewrite with `updated_input`, a
 * `sessionStart` context injector, a `stop` check answering `followup_message` by `loop_count`,
 * an `afterFileEdit` logger run from `~/.cursor`), driven by `hookwire run` on the scripted model;
 * the effects are asserted.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  callTool,
  createSandbox,
  readLog,
  runCli,
  runScripted,
  say,
  writeJson,
} from './support.ts';

const node = JSON.stringify(process.execPath);

/** Reads the payload, answers with `answer(input)` (a JSON object, or nothing). */
function hook(body: string): string {
  return `import { appendFileSync, readFileSync } from 'node:fs';
const input = JSON.parse(readFileSync(0, 'utf8'));
${body}
`;
}

async function script(file: string, source: string): Promise<void> {
  await mkdir(join(file, '..'), { recursive: true });
  await writeFile(file, source);
}

describe('Cursor dialect', () => {
  it(
    'runs a Cursor project: shell and read guards, a rewrite, a context injector, a stop check and a ~/.cursor logger',
    { timeout: 90_000 },
    async () => {
      const sandbox = await createSandbox();
      const hooks = join(sandbox.project, '.cursor', 'hooks');
      await script(
        join(hooks, 'guard-shell.mjs'),
        hook(`if (/rm -rf/.test(input.command))
  console.log(JSON.stringify({ permission: 'deny', user_message: 'Blocked.', agent_message: 'cursor guard: no rm -rf in ' + input.cwd }));
else console.log(JSON.stringify({ permission: 'allow' }));`),
      );
      // Older published hooks answer in camelCase.
      await script(
        join(hooks, 'guard-secrets.mjs'),
        hook(`if (input.content.includes('SECRET='))
  console.log(JSON.stringify({ permission: 'deny', agentMessage: 'cursor guard: ' + input.file_path + ' holds a secret' }));
else console.log('{}');`),
      );
      await script(
        join(hooks, 'rewrite.mjs'),
        hook(
          `console.log(JSON.stringify({ permission: 'allow', updated_input: { ...input.tool_input, command: input.tool_input.command.replace('raw', 'rewritten') } }));`,
        ),
      );
      await script(
        join(hooks, 'context.mjs'),
        hook(
          `console.log(JSON.stringify({ additional_context: 'Cursor rule: answer briefly (' + input.hook_event_name + ')' }));`,
        ),
      );
      await script(
        join(hooks, 'stop.mjs'),
        hook(`appendFileSync('stop-log.jsonl', JSON.stringify(input) + '\\n');
console.log(JSON.stringify(input.loop_count === 0 ? { followup_message: 'cursor stop check: run the tests' } : {}));`),
      );
      await writeJson(join(sandbox.project, '.cursor', 'hooks.json'), {
        version: 1,
        hooks: {
          sessionStart: [{ command: `${node} .cursor/hooks/context.mjs` }],
          beforeShellExecution: [{ command: `${node} .cursor/hooks/guard-shell.mjs`, timeout: 10 }],
          beforeReadFile: [{ command: `${node} .cursor/hooks/guard-secrets.mjs` }],
          // An unknown field never disables a hook, an unknown event never disables the others.
          preToolUse: [
            { command: `${node} .cursor/hooks/rewrite.mjs`, matcher: 'Shell', notAField: true },
          ],
          afterTabFileEdit: [{ command: 'true' }],
          stop: [{ command: `${node} .cursor/hooks/stop.mjs` }],
        },
      });
      // The user's own logger runs from ~/.cursor, as Cursor runs it.
      await script(
        join(sandbox.home, '.cursor', 'hooks', 'log-edit.mjs'),
        hook(`appendFileSync('edits.jsonl', JSON.stringify(input) + '\\n');`),
      );
      await writeJson(join(sandbox.home, '.cursor', 'hooks.json'), {
        version: 1,
        hooks: { afterFileEdit: [{ command: `${node} ./hooks/log-edit.mjs` }] },
      });
      await mkdir(join(sandbox.project, 'victim'));
      await writeFile(join(sandbox.project, '.env'), 'SECRET=1\n');

      const outcome = await runScripted(sandbox, [
        callTool('c0', 'shell', { command: 'rm -rf victim' }),
        callTool('c1', 'read_file', { path: '.env' }),
        callTool('c2', 'shell', { command: 'echo raw > out.txt' }),
        callTool('c3', 'write_file', { path: 'notes.txt', content: 'hello\n' }),
        say('done'),
        say('tests pass'),
      ]);

      const { requests, stderr } = outcome;
      // The context injector reached the model's first request.
      expect(JSON.stringify(requests[0]?.['contents'])).toContain(
        'Cursor rule: answer briefly (sessionStart)',
      );
      // The shell guard kept the directory, and the model read its agent_message.
      expect(existsSync(join(sandbox.project, 'victim'))).toBe(true);
      expect(JSON.stringify(requests[1]?.['contents'])).toContain(
        `cursor guard: no rm -rf in ${sandbox.project}`,
      );
      // The read guard saw the content and kept the secret from the model.
      expect(JSON.stringify(requests[2]?.['contents'])).toContain('holds a secret');
      expect(JSON.stringify(requests[2]?.['contents'])).not.toContain('SECRET=1');
      // The rewrite ran instead of the original command.
      expect(await readFile(join(sandbox.project, 'out.txt'), 'utf8')).toBe('rewritten\n');
      // The logger ran from ~/.cursor with the edit.
      const edits = await readLog(join(sandbox.home, '.cursor', 'edits.jsonl'));
      expect(edits).toMatchObject([
        {
          hook_event_name: 'afterFileEdit',
          file_path: join(sandbox.project, 'notes.txt'),
          edits: [{ old_string: '', new_string: 'hello\n' }],
          workspace_roots: [sandbox.project],
        },
      ]);
      // The stop check continued the turn once, then saw loop_count 1.
      expect(JSON.stringify(requests.at(-1)?.['contents'])).toContain(
        'cursor stop check: run the tests',
      );
      const stops = await readLog(join(sandbox.project, 'stop-log.jsonl'));
      expect(stops.map((entry) => entry['loop_count'])).toEqual([0, 1]);
      expect(stderr).toContain('hooks.preToolUse[0].notAField');
      expect(stderr).toContain(`Cursor's event "afterTabFileEdit" is not supported`);
    },
  );

  it(
    'hooks list shows each Copilot, Cursor and Windsurf hook with its dialect, event name and file; "dialects" and --no-dialects cover them',
    { timeout: 90_000 },
    async () => {
      const sandbox = await createSandbox();
      const cursor = await writeJson(join(sandbox.project, '.cursor', 'hooks.json'), {
        version: 1,
        hooks: { beforeShellExecution: [{ command: './cursor-guard.sh' }] },
      });
      const copilot = await writeJson(join(sandbox.project, '.github', 'hooks', 'a.json'), {
        version: 1,
        hooks: { preToolUse: [{ type: 'command', bash: './copilot-guard.sh', matcher: 'bash' }] },
      });
      const windsurf = await writeJson(join(sandbox.home, '.codeium', 'windsurf', 'hooks.json'), {
        hooks: { pre_write_code: [{ command: './windsurf-guard.sh' }] },
      });
      const list = await runCli(['hooks', 'list', '--cwd', sandbox.project], { env: sandbox.env });
      expect(list.code).toBe(0);
      expect(list.stdout).toMatch(
        /PreToolUse \(beforeShellExecution\)\s+shell\s+\S+\s+project\/cursor/,
      );
      expect(list.stdout).toMatch(
        /PreToolUse \(preToolUse\)\s+bash\s+\S+\s+project\/copilot\s+30s\s+fail-closed/,
      );
      expect(list.stdout).toMatch(
        /PreToolUse \(pre_write_code\)\s+write_file\|edit_file\s+\S+\s+user\/windsurf/,
      );
      for (const file of [cursor, copilot, windsurf]) expect(list.stdout).toContain(file);
      // Files inside the project need trust, like hookwire's own; the user's do not.
      const untrusted = await runCli(['hooks', 'list', '--cwd', sandbox.project], {
        env: { ...sandbox.env, HOOKWIRE_TRUST_PROJECT: '' },
      });
      expect(untrusted.stdout).toMatch(/project\/cursor .*ignored\s+untrusted/);
      expect(untrusted.stdout).toMatch(/project\/copilot .*ignored\s+untrusted/);
      expect(untrusted.stdout).not.toMatch(/user\/windsurf .*untrusted/);

      const none = await runCli(['hooks', 'list', '--no-dialects', '--cwd', sandbox.project], {
        env: sandbox.env,
      });
      expect(none.stdout).toContain('No hooks configured.');
      expect(none.stderr).toContain('--no-dialects');

      await writeJson(join(sandbox.home, '.hookwire', 'settings.json'), { dialects: ['cursor'] });
      const only = await runCli(['hooks', 'list', '--cwd', sandbox.project], { env: sandbox.env });
      expect(only.stdout).toContain('project/cursor');
      expect(only.stdout).not.toContain('project/copilot');
      expect(only.stdout).not.toContain('user/windsurf');
      expect(only.stderr).toContain(`not loading the hooks of ${windsurf}, ${copilot}`);
    },
  );
});
