/**
 * "One unknown field anywhere never disables another hook", for each tool of issue 31: one
 * scenario, a row per tool. The tool's own file holds a working guard (`rm -rf` exits 2, which
 * every one of these formats reads as a denial) beside an unknown field at the file's root, in
 * the guard's group (where the format has groups) and on the guard's hook entry, plus an
 * unsupported hook (a `prompt` or `http` hook, an event hookwire does not have). Driven by
 * `hookwire run` on the scripted model: the guard still denies (the directory survives), and a
 * warning on stderr names each skipped entry and each ignored field.
 */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSandbox, runToolCalls, writeJson, type Sandbox } from './support.ts';

interface Row {
  readonly tool: string;
  /** Writes the tool's file around `guard` (a shell command); returns extra `run` flags. */
  place(sandbox: Sandbox, guard: string): Promise<readonly string[]>;
  /** What stderr must name: the ignored fields and the skipped entries. */
  readonly warned: readonly (string | RegExp)[];
}

/** A Claude-shaped file's events: the guard with unknown fields, a prompt hook, an unknown event. */
function claudeShapedEvents(shell: string, guard: string) {
  return {
    PreToolUse: [
      {
        matcher: shell,
        futureGroupField: true,
        hooks: [{ type: 'command', command: guard, futureHookField: 1 }],
      },
      { matcher: shell, hooks: [{ type: 'prompt', prompt: 'Is this command safe?' }] },
    ],
    TeammateIdle: [{ hooks: [{ type: 'command', command: 'true' }] }],
  };
}

const CLAUDE_SHAPED_WARNINGS = [
  'futureGroupField',
  'futureHookField',
  /PreToolUse\[1\]\.hooks\[0\][^\n]*prompt/,
  'TeammateIdle',
];

function profileRow(tool: string, file: readonly string[], shell: string, atRoot = false): Row {
  return {
    tool,
    async place(sandbox, guard) {
      const events = claudeShapedEvents(shell, guard);
      await writeJson(
        join(sandbox.project, ...file),
        atRoot ? events : { futureRootField: { nested: true }, hooks: events },
      );
      return [];
    },
    warned: CLAUDE_SHAPED_WARNINGS,
  };
}

const ROWS: readonly Row[] = [
  {
    tool: 'copilot',
    async place(sandbox, guard) {
      await writeJson(join(sandbox.project, '.github', 'hooks', 'guard.json'), {
        version: 1,
        futureRootField: true,
        hooks: {
          preToolUse: [
            { type: 'command', bash: guard, matcher: 'bash', futureHookField: 1 },
            { type: 'http', url: 'https://hooks.example.invalid/pre' },
          ],
          futureEvent: [{ type: 'command', bash: 'true' }],
        },
      });
      return [];
    },
    warned: ['futureHookField', /preToolUse\[1\][^\n]*http/, 'futureEvent'],
  },
  {
    tool: 'cursor',
    async place(sandbox, guard) {
      await writeJson(join(sandbox.project, '.cursor', 'hooks.json'), {
        version: 1,
        futureRootField: true,
        hooks: {
          beforeShellExecution: [{ command: guard, futureHookField: 1 }],
          afterAgentThought: [{ command: 'true' }],
        },
      });
      return [];
    },
    warned: ['futureHookField', 'afterAgentThought'],
  },
  {
    tool: 'windsurf',
    async place(sandbox, guard) {
      await writeJson(join(sandbox.project, '.windsurf', 'hooks.json'), {
        futureRootField: true,
        hooks: {
          pre_run_command: [{ command: guard, show_output: true, futureHookField: 1 }],
          post_setup_worktree: [{ command: 'true' }],
        },
      });
      return [];
    },
    warned: ['futureHookField', 'post_setup_worktree'],
  },
  profileRow('factory', ['.factory', 'hooks.json'], 'Execute', true),
  profileRow('augment', ['.augment', 'settings.json'], 'launch-process'),
  profileRow('codebuddy', ['.codebuddy', 'settings.json'], 'Bash'),
  profileRow('qwen', ['.qwen', 'settings.json'], 'run_shell_command'),
  {
    tool: 'claude-plugin',
    async place(sandbox, guard) {
      const plugin = join(sandbox.root, 'plugins', 'guard');
      await writeJson(join(plugin, '.claude-plugin', 'plugin.json'), {
        name: 'guard',
        futureManifestField: { any: 'thing' },
      });
      await writeJson(join(plugin, 'hooks', 'hooks.json'), {
        futureRootField: true,
        hooks: claudeShapedEvents('Bash', guard),
      });
      return ['--plugin-dir', plugin];
    },
    warned: CLAUDE_SHAPED_WARNINGS,
  },
];

describe('one unknown field anywhere never disables another hook', () => {
  for (const row of ROWS)
    it(
      `${row.tool}: the guard still denies beside unknown fields and unsupported hooks, each named in a warning`,
      {
        timeout: 90_000,
      },
      async () => {
        const sandbox = await createSandbox();
        // Denies by exit 2 whatever the payload's shape: the command is somewhere in it.
        const guardFile = join(sandbox.root, 'hooks', 'guard.mjs');
        await mkdir(join(sandbox.root, 'hooks'), { recursive: true });
        await writeFile(
          guardFile,
          `import { readFileSync } from 'node:fs';
if (readFileSync(0, 'utf8').includes('rm -rf')) {
  process.stderr.write('${row.tool} guard still denies');
  process.exit(2);
}
`,
        );
        const extra = await row.place(
          sandbox,
          `${JSON.stringify(process.execPath)} ${JSON.stringify(guardFile)}`,
        );
        await mkdir(join(sandbox.project, 'victim'));
        const { results, code, stderr } = await runToolCalls(
          sandbox,
          [
            ['shell', { command: 'rm -rf victim' }],
            ['shell', { command: 'echo fine > fine.txt' }],
          ],
          extra,
        );
        expect(code, stderr).toBe(0);
        expect(existsSync(join(sandbox.project, 'victim'))).toBe(true);
        expect(results[0]?.error).toContain(`${row.tool} guard still denies`);
        // The guard did not stop everything: the harmless call ran.
        expect(existsSync(join(sandbox.project, 'fine.txt'))).toBe(true);
        for (const warning of row.warned)
          if (typeof warning === 'string') expect(stderr).toContain(warning);
          else expect(stderr).toMatch(warning);
      },
    );
});
