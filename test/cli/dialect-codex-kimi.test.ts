/**
 * Codex (`.codex/hooks.json`, `config.toml` `[hooks]`) and Kimi Code (`~/.kimi-code/config.toml`
 * `[[hooks]]`) dialects end to end: hooks written as those tools' references describe them
 * (Claude-style tool names, Codex's legacy `decision: "block"`, Kimi's exit 2), driven by
 * `hookwire run` on the scripted model; the effects are asserted.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  LOGGER_HOOK,
  createSandbox,
  readLog,
  runToolCalls,
  writeHookScript,
  writeJson,
} from './support.ts';

const LEGACY_BLOCK = `
import { readFileSync } from 'node:fs';
const input = JSON.parse(readFileSync(0, 'utf8'));
if (input.tool_name === 'Bash' && input.tool_input.command.includes('git push'))
  console.log(JSON.stringify({ decision: 'block', reason: 'codex guard: no pushes' }));
else console.log(JSON.stringify({ decision: 'approve' }));
`;

describe('Codex and Kimi Code dialects', () => {
  it('Codex .codex/hooks.json: a legacy block decision stops the push, approve lets the rest run; config.toml [hooks] loads too', async () => {
    const sandbox = await createSandbox();
    const guard = await writeHookScript(sandbox.root, 'guard.mjs', LEGACY_BLOCK);
    const log = join(sandbox.root, 'log.jsonl');
    const logger = await writeHookScript(sandbox.root, 'logger.mjs', LOGGER_HOOK, [log]);
    await writeJson(join(sandbox.project, '.codex', 'hooks.json'), {
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'command', command: guard, timeout: 10 }] },
        ],
      },
    });
    await writeFile(
      join(sandbox.project, '.codex', 'config.toml'),
      `model = "o4"\n\n[[hooks.PostToolUse]]\nmatcher = "Bash"\n\n[[hooks.PostToolUse.hooks]]\ntype = "command"\ncommand = ${JSON.stringify(logger)}\n`,
    );

    const { results } = await runToolCalls(sandbox, [
      ['shell', { command: 'git push origin main && touch pushed' }],
      ['shell', { command: 'touch built' }],
    ]);

    expect(existsSync(join(sandbox.project, 'pushed'))).toBe(false);
    expect(results[0]?.error).toContain('codex guard: no pushes');
    expect(existsSync(join(sandbox.project, 'built'))).toBe(true);
    // The config.toml logger ran, in Claude's names, after the command that ran.
    const logged = await readLog(log);
    expect(logged.at(-1)).toMatchObject({
      hook_event_name: 'PostToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'touch built' },
    });
  });

  it('Kimi Code ~/.kimi-code/config.toml [[hooks]]: exit 2 blocks a Bash rm, a Write guard keeps the file, one bad table skips only itself', async () => {
    const sandbox = await createSandbox();
    const guard = await writeHookScript(
      sandbox.root,
      'guard.mjs',
      `import { readFileSync } from 'node:fs';
const input = JSON.parse(readFileSync(0, 'utf8'));
process.stderr.write('kimi guard: ' + input.tool_name + ' ' + (input.tool_input.command ?? input.tool_input.file_path));
process.exit(2);`,
    );
    const config = join(sandbox.home, '.kimi-code', 'config.toml');
    await mkdir(join(sandbox.home, '.kimi-code'), { recursive: true });
    await writeFile(
      config,
      [
        'default_model = "kimi-k2"',
        '',
        '[[hooks]]',
        'event = "PreToolUse"',
        'matcher = "Bash"',
        `command = ${JSON.stringify(guard)}`,
        'timeout = 5',
        '',
        '[[hooks]]',
        'event = "TaskCompleted"',
        'command = "true"',
        '',
        '[[hooks]]',
        'event = "PreToolUse"',
        'matcher = "Write"',
        `command = ${JSON.stringify(guard)}`,
        '',
      ].join('\n'),
    );
    await writeFile(join(sandbox.project, 'keep.txt'), 'keep\n');

    const { results, stderr } = await runToolCalls(sandbox, [
      ['shell', { command: 'rm keep.txt' }],
      ['write_file', { path: 'keep.txt', content: 'overwritten\n' }],
      ['read_file', { path: 'keep.txt' }],
    ]);

    expect(await readFile(join(sandbox.project, 'keep.txt'), 'utf8')).toBe('keep\n');
    expect(results[0]?.error).toContain('kimi guard: Bash rm keep.txt');
    expect(results[1]?.error).toContain(`kimi guard: Write ${join(sandbox.project, 'keep.txt')}`);
    expect(JSON.stringify(results[2]?.result)).toContain('keep');
    expect(stderr).toContain(
      `${config} at hooks[1].event: Kimi Code's event "TaskCompleted" is not supported`,
    );
  });
});
