/**
 * The three plugin layouts (`PLUGIN_LAYOUTS`): Claude Code's `.claude-plugin`, Codex's
 * `.codex-plugin` and Cursor's `.cursor-plugin`, which differ only in the manifest folder, the
 * dialect of `hooks/hooks.json`, the variable naming the plugin's directory and the MCP file.
 * One scenario, a row per layout: a plugin written the way that tool's plugins are (its guard in
 * its own hook format, calling its script through the tool's `${…_PLUGIN_ROOT}`; an MCP server in
 * its own file), loaded with `--plugin-dir` and driven by `hookwire run` on the scripted model:
 * the guard keeps the directory (and read the plugin's directory from its variable), and the
 * server's tool answers under `mcp__plugin_<name>_notes__echo`.
 */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSandbox, runToolCalls, writeJson } from './support.ts';

const STDIO_SERVER = join(import.meta.dirname, '..', 'fixtures', 'mcp', 'stdio-server.ts');
const node = JSON.stringify(process.execPath);

interface Layout {
  readonly folder: string;
  /** The variable the tool's plugins read their directory from. */
  readonly rootVariable: string;
  /** Its MCP server file. */
  readonly mcpFile: string;
  /** `hooks/hooks.json` in the tool's format, running `command` before each shell call. */
  hooks(command: string): unknown;
  /** The guard's answer (JavaScript) to a shell command of `rm -rf`, saying `message`. */
  readonly deny: string;
  /** The shell command of the hook's payload (JavaScript expression over `input`). */
  readonly command: string;
}

/** Claude Code's and Codex's hooks format: events → groups, the payload's `tool_input`, exit 2. */
const CLAUDE_SHAPED = {
  hooks: (command: string) => ({
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command }] }] },
  }),
  deny: `process.stderr.write(message); process.exit(2);`,
  command: 'input.tool_input.command',
};

const LAYOUTS: readonly Layout[] = [
  {
    folder: '.claude-plugin',
    rootVariable: 'CLAUDE_PLUGIN_ROOT',
    mcpFile: '.mcp.json',
    ...CLAUDE_SHAPED,
  },
  {
    folder: '.codex-plugin',
    rootVariable: 'CODEX_PLUGIN_ROOT',
    mcpFile: '.mcp.json',
    ...CLAUDE_SHAPED,
  },
  {
    folder: '.cursor-plugin',
    rootVariable: 'CURSOR_PLUGIN_ROOT',
    mcpFile: 'mcp.json',
    hooks: (command) => ({ version: 1, hooks: { beforeShellExecution: [{ command }] } }),
    deny: `console.log(JSON.stringify({ permission: 'deny', agent_message: message }));`,
    command: 'input.command',
  },
];

describe('plugin layouts: .claude-plugin, .codex-plugin and .cursor-plugin through one loader', () => {
  for (const layout of LAYOUTS)
    it(
      `${layout.folder}: its hooks run in its dialect with ${layout.rootVariable}, its ${layout.mcpFile} server starts`,
      {
        timeout: 90_000,
      },
      async () => {
        const sandbox = await createSandbox();
        const name = `guard-${layout.folder.slice(1, -'-plugin'.length)}`;
        const plugin = join(sandbox.root, 'plugins', name);
        await writeJson(join(plugin, layout.folder, 'plugin.json'), { name, version: '0.1.0' });
        await mkdir(join(plugin, 'scripts'), { recursive: true });
        await writeFile(
          join(plugin, 'scripts', 'guard.mjs'),
          `import { readFileSync } from 'node:fs';
const input = JSON.parse(readFileSync(0, 'utf8'));
if (/rm -rf/.test(${layout.command})) {
  const message = 'plugin guard in ' + process.env.${layout.rootVariable};
  ${layout.deny}
}
`,
        );
        await writeJson(
          join(plugin, 'hooks', 'hooks.json'),
          layout.hooks(`${node} "\${${layout.rootVariable}}/scripts/guard.mjs"`),
        );
        await writeJson(join(plugin, layout.mcpFile), {
          mcpServers: {
            notes: {
              command: process.execPath,
              args: [STDIO_SERVER, 'notes'],
              env: { HOOKWIRE_TEST_MCP_PID_FILE: `\${${layout.rootVariable}}/server.pid` },
            },
          },
        });
        await mkdir(join(sandbox.project, 'victim'));

        const { results, code, stderr } = await runToolCalls(
          sandbox,
          [
            ['shell', { command: 'rm -rf victim' }],
            [`mcp__plugin_${name}_notes__echo`, { text: 'hi' }],
          ],
          ['--plugin-dir', plugin],
        );
        expect(code, stderr).toBe(0);
        // The guard ran in the layout's dialect, found by its variable, and kept the directory.
        expect(existsSync(join(sandbox.project, 'victim'))).toBe(true);
        expect(results[0]?.error).toContain(`plugin guard in ${plugin}`);
        // The server of the layout's MCP file started with the variable expanded, and answered.
        expect(results[1]?.result).toBe('echo: hi');
        expect(existsSync(join(plugin, 'server.pid'))).toBe(true);
        expect(stderr).not.toContain('whose hooks hookwire does not read');
      },
    );
});
