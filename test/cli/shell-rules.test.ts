/**
 * Shell-aware rules through the built `hookwire` (dist/bin/hookwire.js) on a scripted model: with
 * `allow: ["shell"]` and `deny: ["shell(rm *)"]`, every spelling of `rm` the security review tried
 * is refused and its victim file survives (the same spellings delete it when no rule stands in
 * the way, so none of them is a command that would have failed anyway); a hook with
 * `"if": "shell(rm *)"`, and a Claude Code hook with `"if": "Bash(rm *)"`, is started for each;
 * a deny on `read_file(.env)` binds `grep` and `glob`, one on `write_file(locked/**)` binds
 * `edit_file`. Without a build the suite is skipped and says so.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  LOGGER_HOOK,
  REPOSITORY,
  callTool,
  createSandbox,
  jsonLines,
  readLog,
  runCli,
  say,
  scriptedRunArgs,
  writeHookScript,
  writeJson,
  writeScript,
  type Sandbox,
  type ToolResult,
} from './support.ts';

const BIN = join(REPOSITORY, 'dist', 'bin', 'hookwire.js');
const built = existsSync(BIN);
if (!built) console.warn(`shell-rules.test.ts skipped: ${BIN} is not built (run npm run build)`);

/** The spellings of the review, each deleting its own victim file `V`. */
const SPELLINGS: readonly string[] = [
  '\\rm -f V',
  '/bin/rm -f V',
  "'rm' -f V",
  'command rm -f V',
  'env rm -f V',
  '(rm -f V)',
  '{ rm -f V; }',
  'if true; then rm -f V; fi',
  'echo $(rm -f V)',
  'echo `rm -f V`',
  '$(echo rm) -f V',
  'sh -c "rm -f V"',
  "bash -c 'rm -f V'",
  'echo V | xargs rm -f',
  'find . -name V -exec rm -f {} \\;',
  'find . -name V -delete',
  'eval "rm -f V"',
  'nice rm -f V',
  'timeout 5 rm -f V',
  'echo rm -f V | sh',
];

// Twenty and more tool calls, and for one test forty hook processes, on a loaded machine.
const RUN_TIMEOUT_MS = 180_000;

const victim = (index: number) => `victim-${index}.txt`;
const commandOf = (spelling: string, index: number) => spelling.replaceAll('V', victim(index));

/** Runs `calls` on the built CLI and returns the tool results the model saw. */
async function runBuilt(
  sandbox: Sandbox,
  calls: readonly [string, unknown][],
): Promise<{ results: ToolResult[]; stderr: string }> {
  const script = await writeScript(join(sandbox.root, 'model.jsonl'), [
    ...calls.map(([name, args], index) => callTool(`c${index}`, name, args)),
    say('done'),
  ]);
  const outcome = await runCli(
    scriptedRunArgs(script, sandbox.project, ['--output-format', 'stream-json']),
    { env: sandbox.env, main: BIN },
  );
  const results = jsonLines(outcome.stdout)
    .filter((line) => line['type'] === 'tool-result')
    .map((line) => line as unknown as ToolResult);
  return { results, stderr: outcome.stderr };
}

async function writeVictims(sandbox: Sandbox): Promise<void> {
  await Promise.all(
    SPELLINGS.map((_, index) => writeFile(join(sandbox.project, victim(index)), 'keep\n')),
  );
}

const survivors = (sandbox: Sandbox) =>
  SPELLINGS.map((_, index) => existsSync(join(sandbox.project, victim(index))));

const rmCalls = (): [string, unknown][] =>
  SPELLINGS.map((spelling, index) => ['shell', { command: commandOf(spelling, index) }]);

describe.skipIf(!built)('shell-aware rules (built CLI)', () => {
  it(
    'each spelling deletes its victim when no rule stands in the way',
    async () => {
      const sandbox = await createSandbox();
      await writeVictims(sandbox);
      await writeJson(join(sandbox.project, '.hookwire', 'settings.json'), {
        permissions: { allow: ['shell'] },
      });
      const { results, stderr } = await runBuilt(sandbox, rmCalls());
      expect(results, stderr).toHaveLength(SPELLINGS.length);
      expect(survivors(sandbox)).toEqual(SPELLINGS.map(() => false));
    },
    RUN_TIMEOUT_MS,
  );

  it(
    'deny shell(rm *) holds for every spelling: each victim survives',
    async () => {
      const sandbox = await createSandbox();
      await writeVictims(sandbox);
      await writeJson(join(sandbox.project, '.hookwire', 'settings.json'), {
        permissions: { allow: ['shell'], deny: ['shell(rm *)'] },
      });
      const { results, stderr } = await runBuilt(sandbox, [
        ...rmCalls(),
        ['shell', { command: 'echo fine > fine.txt' }],
      ]);
      expect(survivors(sandbox), stderr).toEqual(SPELLINGS.map(() => true));
      expect(results.slice(0, SPELLINGS.length).map((result) => result.error)).toEqual(
        SPELLINGS.map((): unknown => expect.stringContaining('Permission denied')),
      );
      // Other commands still run.
      expect(await readFile(join(sandbox.project, 'fine.txt'), 'utf8')).toBe('fine\n');
    },
    RUN_TIMEOUT_MS,
  );

  it(
    'a hook with "if": "shell(rm *)" and a Claude Code hook with "if": "Bash(rm *)" start for every spelling',
    async () => {
      const sandbox = await createSandbox();
      await writeVictims(sandbox);
      const hookwireLog = join(sandbox.root, 'hookwire-if.jsonl');
      const claudeLog = join(sandbox.root, 'claude-if.jsonl');
      // Each logs what it is started for; the deny rule keeps the victims.
      const hookwireHook = await writeHookScript(sandbox.root, 'hookwire-if.mjs', LOGGER_HOOK, [
        hookwireLog,
      ]);
      const claudeHook = await writeHookScript(sandbox.root, 'claude-if.mjs', LOGGER_HOOK, [
        claudeLog,
      ]);
      await writeJson(join(sandbox.project, '.hookwire', 'settings.json'), {
        permissions: { allow: ['shell'], deny: ['shell(rm *)'] },
        hooks: {
          PreToolUse: [
            {
              matcher: 'shell',
              hooks: [{ type: 'command', if: 'shell(rm *)', command: hookwireHook }],
            },
          ],
        },
      });
      await writeJson(join(sandbox.project, '.claude', 'settings.json'), {
        hooks: {
          PreToolUse: [
            {
              matcher: 'Bash',
              hooks: [{ type: 'command', if: 'Bash(rm *)', command: claudeHook }],
            },
          ],
        },
      });
      const { results, stderr } = await runBuilt(sandbox, [
        ...rmCalls(),
        ['shell', { command: 'echo fine > fine.txt' }],
      ]);
      const commands = SPELLINGS.map(commandOf);
      const logged = (lines: Record<string, unknown>[]) =>
        lines.map((line) => (line['tool_input'] as { command: string }).command);
      expect(logged(await readLog(hookwireLog)), stderr).toEqual(commands);
      expect(logged(await readLog(claudeLog))).toEqual(commands);
      expect(survivors(sandbox)).toEqual(SPELLINGS.map(() => true));
      expect(results.at(-1)?.error).toBeUndefined();
      expect(await readFile(join(sandbox.project, 'fine.txt'), 'utf8')).toBe('fine\n');
    },
    RUN_TIMEOUT_MS,
  );

  it(
    'deny read_file(.env) binds grep and glob: neither a grep of .env nor of its directory returns the secret',
    async () => {
      const sandbox = await createSandbox();
      await writeFile(join(sandbox.project, '.env'), 'API_KEY=sk_live_secret\n');
      await mkdir(join(sandbox.project, 'config'));
      await writeFile(join(sandbox.project, 'config', '.env'), 'API_KEY=sk_live_nested\n');
      await writeFile(join(sandbox.project, 'notes.txt'), 'API_KEY goes in .env\n');
      await mkdir(join(sandbox.project, 'certs'));
      await writeFile(join(sandbox.project, 'certs', 'server.pem'), 'API_KEY=sk_live_pem\n');
      await writeFile(join(sandbox.project, 'certs', 'server.crt'), 'public\n');
      await writeJson(join(sandbox.project, '.hookwire', 'settings.json'), {
        permissions: { deny: ['read_file(.env)', 'read_file(*.pem)'] },
      });
      const { results, stderr } = await runBuilt(sandbox, [
        ['grep', { pattern: 'API_KEY', path: '.env' }],
        ['grep', { pattern: 'API_KEY' }],
        ['grep', { pattern: 'API_KEY', path: 'config' }],
        ['glob', { pattern: 'certs/*' }],
        ['read_file', { path: 'config/.env' }],
        ['grep', { pattern: 'API_KEY', path: 'certs' }],
      ]);
      expect(results, stderr).toHaveLength(6);
      expect(results[0]?.error).toContain('read_file(.env)');
      for (const result of results) expect(JSON.stringify(result)).not.toContain('sk_live');
      expect(JSON.stringify(results[1]?.result)).toContain('notes.txt');
      expect(results[3]?.result).toBe('certs/server.crt');
      expect(results[4]?.error).toContain('read_file(.env)');
      expect(results[5]?.result).toContain('No matches');
    },
    RUN_TIMEOUT_MS,
  );

  it(
    'deny write_file(locked/**) binds edit_file: the locked file is unchanged',
    async () => {
      const sandbox = await createSandbox();
      await mkdir(join(sandbox.project, 'locked'));
      await writeFile(join(sandbox.project, 'locked', 'a.txt'), 'original\n');
      await writeFile(join(sandbox.project, 'open.txt'), 'original\n');
      await writeJson(join(sandbox.project, '.hookwire', 'settings.json'), {
        permissions: { allow: ['edit_file', 'write_file'], deny: ['write_file(locked/**)'] },
      });
      const { results, stderr } = await runBuilt(sandbox, [
        ['edit_file', { path: 'locked/a.txt', old_string: 'original', new_string: 'changed' }],
        ['edit_file', { path: 'open.txt', old_string: 'original', new_string: 'changed' }],
      ]);
      expect(results[0]?.error, stderr).toContain('write_file(locked/**)');
      expect(await readFile(join(sandbox.project, 'locked', 'a.txt'), 'utf8')).toBe('original\n');
      expect(await readFile(join(sandbox.project, 'open.txt'), 'utf8')).toBe('changed\n');
    },
    RUN_TIMEOUT_MS,
  );
});
