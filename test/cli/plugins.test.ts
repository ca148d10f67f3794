/**
 * Claude Code plugins end to end: a plugin directory written the way Claude Code's plugin
 * reference describes it (`.claude-plugin/plugin.json`, `hooks/hooks.json` whose commands use
 * `${CLAUDE_PLUGIN_ROOT}`, `agents/reviewer.md`, `.mcp.json` starting a real stdio MCP server),
 * loaded with `--plugin-dir` and driven by `hookwire run` on the scripted model. Every effect is
 * asserted: the directory the guard kept, the secret file never written, the command the rewrite
 * ran instead, the context in the model's request, the Stop check's continuation, the logger's
 * lines, the agent type `house-rules:reviewer`'s prompt in the subagent's request and the MCP
 * tool `mcp__plugin_house-rules_notes__echo`'s answer; the same handler in two settings files
 * runs once while the plugin's copy runs apart; one unknown field never disables another hook.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  LOGGER_HOOK,
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

const STDIO_SERVER = join(import.meta.dirname, '..', 'fixtures', 'mcp', 'stdio-server.ts');

/** Shell guard (exit 2), protected-file guard (deny), rewrite (updatedInput), in one script. */
const PRE_TOOL_USE = `
import { readFileSync } from 'node:fs';
const input = JSON.parse(readFileSync(0, 'utf8'));
const tool = input.tool_input;
if (input.tool_name === 'Bash' && /\\brm\\s+-rf\\b/.test(tool.command)) {
  process.stderr.write('house rule: no rm -rf');
  process.exit(2);
}
if ((input.tool_name === 'Write' || input.tool_name === 'Edit') && String(tool.file_path).endsWith('.env')) {
  console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'secrets stay out of ' + tool.file_path } }));
  process.exit(0);
}
if (input.tool_name === 'Bash' && tool.command.startsWith('echo original')) {
  console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { command: 'echo rewritten > out.txt' } } }));
}
`;

/** Context injector: reads a file of the plugin through CLAUDE_PLUGIN_ROOT. */
const CONTEXT = `
import { readFileSync } from 'node:fs';
readFileSync(0, 'utf8');
const rule = readFileSync(process.env.CLAUDE_PLUGIN_ROOT + '/rules.txt', 'utf8').trim();
console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: rule } }));
`;

/** Stop check: blocks until check.txt exists in the project. */
const STOP_CHECK = `
import { existsSync, readFileSync } from 'node:fs';
readFileSync(0, 'utf8');
if (!existsSync(process.env.CLAUDE_PROJECT_DIR + '/check.txt'))
  console.log(JSON.stringify({ decision: 'block', reason: 'write check.txt before you stop' }));
`;

const REVIEWER = `---
name: reviewer
description: Reviews the project against the house rules.
tools: Read, Grep
---
You are the house-rules reviewer. Answer with one line.
`;

/** Writes the plugin `house-rules` under `directory`; `log` is the logger's file. */
async function writeHouseRules(directory: string, log: string): Promise<string> {
  const node = JSON.stringify(process.execPath);
  const script = (name: string) => `${node} "\${CLAUDE_PLUGIN_ROOT}/scripts/${name}"`;
  await writeJson(join(directory, '.claude-plugin', 'plugin.json'), {
    name: 'house-rules',
    version: '1.2.0',
    description: 'Guards, context and a notes server',
    author: { name: 'Test' },
  });
  await mkdir(join(directory, 'scripts'), { recursive: true });
  await writeFile(join(directory, 'scripts', 'pre.mjs'), PRE_TOOL_USE);
  await writeFile(join(directory, 'scripts', 'context.mjs'), CONTEXT);
  await writeFile(join(directory, 'scripts', 'stop.mjs'), STOP_CHECK);
  await writeFile(join(directory, 'scripts', 'log.mjs'), LOGGER_HOOK);
  await writeFile(join(directory, 'rules.txt'), 'House rule: tabs, never spaces.\n');
  await writeJson(join(directory, 'hooks', 'hooks.json'), {
    description: 'house rules',
    hooks: {
      PreToolUse: [
        // An unknown field on a group and on a hook: ignored with a warning, the hook still runs.
        {
          matcher: 'Bash|Write|Edit',
          futureGroupField: true,
          hooks: [{ type: 'command', command: script('pre.mjs'), futureHookField: 1 }],
        },
      ],
      UserPromptSubmit: [{ hooks: [{ type: 'command', command: script('context.mjs') }] }],
      Stop: [{ hooks: [{ type: 'command', command: script('stop.mjs') }] }],
      PostToolUse: [
        { matcher: '*', hooks: [{ type: 'command', command: `${script('log.mjs')} ${log}` }] },
      ],
    },
  });
  await mkdir(join(directory, 'agents'), { recursive: true });
  await writeFile(join(directory, 'agents', 'reviewer.md'), REVIEWER);
  await writeJson(join(directory, '.mcp.json'), {
    mcpServers: {
      notes: {
        command: process.execPath,
        args: [STDIO_SERVER, 'notes'],
        env: { HOOKWIRE_TEST_MCP_PID_FILE: '${CLAUDE_PLUGIN_ROOT}/server.pid' },
      },
    },
  });
  return directory;
}

async function run(sandbox: Sandbox, turns: readonly unknown[], extra: readonly string[]) {
  const outcome = await runScripted(sandbox, turns, {
    extra: ['--output-format', 'stream-json', ...extra],
  });
  const results = jsonLines(outcome.stdout)
    .filter((event) => event.type === 'tool-result')
    .map((event) => [event.toolCallId, event.error ?? event.result]);
  return { ...outcome, results };
}

describe('Claude Code plugins (--plugin-dir)', () => {
  it("runs the plugin's hooks with CLAUDE_PLUGIN_ROOT, its agent as house-rules:reviewer and its MCP server's tools as mcp__plugin_house-rules_notes__*", async () => {
    const sandbox = await createSandbox();
    const log = join(sandbox.root, 'log.jsonl');
    const plugin = await writeHouseRules(join(sandbox.root, 'plugins', 'house-rules'), log);
    await mkdir(join(sandbox.project, 'keep'));
    const outcome = await run(
      sandbox,
      [
        callTool('t1', 'shell', { command: 'rm -rf keep' }),
        callTool('t2', 'write_file', { path: '.env', content: 'TOKEN=1' }),
        callTool('t3', 'shell', { command: 'echo original > out.txt' }),
        callTool('t4', 'mcp__plugin_house-rules_notes__echo', { text: 'hi' }),
        callTool('t5', 'agent', {
          description: 'review',
          prompt: 'Review the project.',
          agent_type: 'house-rules:reviewer',
        }),
        say('Reviewed: fine.'),
        say('All done.'),
        callTool('t6', 'shell', { command: 'echo ok > check.txt' }),
        say('All done, checked.'),
      ],
      ['--plugin-dir', plugin],
    );
    expect(outcome.code).toBe(0);
    // The guard kept the directory; the secret file was never written; the rewrite ran instead.
    expect(existsSync(join(sandbox.project, 'keep'))).toBe(true);
    expect(String(outcome.results[0]?.[1])).toContain('house rule: no rm -rf');
    expect(existsSync(join(sandbox.project, '.env'))).toBe(false);
    expect(String(outcome.results[1]?.[1])).toContain('secrets stay out of');
    expect(await readFile(join(sandbox.project, 'out.txt'), 'utf8')).toBe('rewritten\n');
    expect(existsSync(join(sandbox.project, 'original'))).toBe(false);
    // The plugin's MCP server started with ${CLAUDE_PLUGIN_ROOT} expanded, its tool answered.
    expect(outcome.results[3]).toEqual(['t4', 'echo: hi']);
    expect(existsSync(join(plugin, 'server.pid'))).toBe(true);
    // The agent type ran with the plugin agent's prompt.
    expect(outcome.results[4]).toEqual(['t5', 'Reviewed: fine.']);
    const subagentRequest = JSON.stringify(outcome.requests[5]);
    expect(subagentRequest).toContain('You are the house-rules reviewer.');
    // The context injector read the plugin's file through CLAUDE_PLUGIN_ROOT.
    expect(JSON.stringify(outcome.requests[0])).toContain('House rule: tabs, never spaces.');
    // The Stop check blocked once, the model wrote check.txt, and stopped.
    expect(existsSync(join(sandbox.project, 'check.txt'))).toBe(true);
    expect(JSON.stringify(outcome.requests[7])).toContain('write check.txt before you stop');
    // The logger saw every tool that ran, in Claude Code's names.
    const logged = (await readLog(log)).map((line) => line['tool_name']);
    expect(logged).toEqual(
      expect.arrayContaining(['Bash', 'mcp__plugin_house-rules_notes__echo', 'Agent']),
    );
    // The unknown fields were ignored with warnings; the hook they sit on still ran (above).
    expect(outcome.stderr).toContain('futureGroupField');
    expect(outcome.stderr).toContain('futureHookField');
  });

  it("runs the same handler of several settings files once, and the plugin's copy apart, as Claude Code does", async () => {
    const sandbox = await createSandbox();
    const log = join(sandbox.root, 'log.jsonl');
    const logger = join(sandbox.root, 'log.mjs');
    await writeFile(logger, LOGGER_HOOK);
    const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(logger)} ${log}`;
    const settings = {
      hooks: { PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command }] }] },
    };
    await writeJson(join(sandbox.home, '.claude', 'settings.json'), settings);
    await writeJson(join(sandbox.project, '.claude', 'settings.json'), settings);
    const plugin = join(sandbox.root, 'logger-plugin');
    await writeJson(join(plugin, '.claude-plugin', 'plugin.json'), { name: 'logger' });
    await writeJson(join(plugin, 'hooks', 'hooks.json'), settings);
    const outcome = await run(
      sandbox,
      [callTool('t1', 'shell', { command: 'echo hi' }), say('done')],
      ['--plugin-dir', plugin],
    );
    expect(outcome.code).toBe(0);
    const lines = await readLog(log);
    // Once for the two settings files, once for the plugin.
    expect(lines.map((line) => line['tool_name'])).toEqual(['Bash', 'Bash']);
    const listed = await runCli(
      ['hooks', 'list', '--json', '--cwd', sandbox.project, '--plugin-dir', plugin],
      { env: sandbox.env },
    );
    const rows = JSON.parse(listed.stdout) as { file: string; dialect?: string }[];
    expect(rows.map((row) => [row.file, row.dialect])).toEqual(
      expect.arrayContaining([[join(plugin, 'hooks', 'hooks.json'), 'claude']]),
    );
  });
});
