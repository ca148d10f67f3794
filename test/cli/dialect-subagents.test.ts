/**
 * Claude Code's subagent hooks end to end: `SubagentStart`, `SubagentStop` and a `Bash` guard
 * written the way Claude Code's hooks reference describes them, in `.claude/settings.json` of a
 * temporary project, driven by `hookwire run` on the scripted model with the built-in `agent`
 * tool. The effects are asserted: the subagent keeps working after a block (the file it then
 * writes, the answer the parent gets), the context in the subagent's request, the directory its
 * denied shell call did not remove; and `hooks import --from claude` carries the same hooks.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
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
  writeHookScript,
  writeJson,
  type Sandbox,
} from './support.ts';

/**
 * Claude Code's "keep the subagent working until the check passes": blocks the first stop
 * (`stop_hook_active` false) with `decision: "block"` and a reason, logs every payload.
 */
const SUBAGENT_STOP = `
import { appendFileSync, readFileSync } from 'node:fs';
const input = JSON.parse(readFileSync(0, 'utf8'));
appendFileSync(process.argv[2], JSON.stringify(input) + '\\n');
if (!input.stop_hook_active) {
  console.log(JSON.stringify({ decision: 'block', reason: 'Run the check and write checked.txt first.' }));
}
`;

/** Adds context to every subagent (Claude Code's SubagentStart answer). */
const SUBAGENT_START = `
import { appendFileSync, readFileSync } from 'node:fs';
const input = JSON.parse(readFileSync(0, 'utf8'));
appendFileSync(process.argv[2], JSON.stringify(input) + '\\n');
console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: 'SubagentStart', additionalContext: 'House rule: never touch vendor/.' } }));
`;

/** Claude Code's reference Bash guard: exit 2 with the reason on stderr; logs what it saw. */
const BASH_GUARD = `
import { appendFileSync, readFileSync } from 'node:fs';
const input = JSON.parse(readFileSync(0, 'utf8'));
appendFileSync(process.argv[2], JSON.stringify(input) + '\\n');
if (input.tool_name === 'Bash' && /\\brm\\b/.test(input.tool_input.command)) {
  process.stderr.write('no deleting, ' + (input.agent_type ?? 'main agent'));
  process.exit(2);
}
`;

async function run(sandbox: Sandbox, turns: readonly unknown[]) {
  const outcome = await runScripted(sandbox, turns, { extra: ['--output-format', 'stream-json'] });
  const results = jsonLines(outcome.stdout)
    .filter((event) => event.type === 'tool-result')
    .map((event) => [event.toolCallId, event.error ?? event.result]);
  return { ...outcome, results };
}

/** The parent delegates; the child stops once, is blocked, works on, and stops again. */
const DELEGATION = [
  callTool('a1', 'agent', { description: 'check', prompt: 'Check the project.' }),
  say('Looks fine.'),
  callTool('c1', 'shell', { command: 'echo ok > checked.txt' }),
  say('Checked: checked.txt written.'),
  say('The subagent checked the project.'),
];

describe('Claude Code subagent hooks (.claude/settings.json)', () => {
  it('SubagentStop decision:block keeps the subagent working; SubagentStart context reaches it; import --from claude carries both', async () => {
    const sandbox = await createSandbox();
    const log = join(sandbox.root, 'agents.jsonl');
    const stop = await writeHookScript(sandbox.root, 'stop.mjs', SUBAGENT_STOP, [log]);
    const start = await writeHookScript(sandbox.root, 'start.mjs', SUBAGENT_START, [log]);
    await writeJson(join(sandbox.project, '.claude', 'settings.json'), {
      hooks: {
        SubagentStart: [{ hooks: [{ type: 'command', command: start }] }],
        SubagentStop: [{ matcher: 'general-purpose', hooks: [{ type: 'command', command: stop }] }],
      },
    });
    const outcome = await run(sandbox, DELEGATION);

    expect(outcome.stderr).toBe('');
    expect(outcome.code).toBe(0);
    // Blocked once, the subagent ran the check before its final answer, which the parent got.
    expect(await readFile(join(sandbox.project, 'checked.txt'), 'utf8')).toBe('ok\n');
    expect(outcome.results).toEqual([['a1', 'Checked: checked.txt written.']]);
    const payloads = await readLog(log);
    expect(payloads.map((payload) => payload['hook_event_name'])).toEqual([
      'SubagentStart',
      'SubagentStop',
      'SubagentStop',
    ]);
    expect(payloads[0]).toMatchObject({
      agent_id: expect.stringMatching(/^agent-/) as unknown,
      agent_type: 'general-purpose',
    });
    // Claude Code's field names, beside hookwire's.
    expect(payloads[1]).toMatchObject({
      agent_id: payloads[0]?.['agent_id'],
      agent_type: 'general-purpose',
      stop_hook_active: false,
      last_assistant_message: 'Looks fine.',
      agent_transcript_path: expect.stringContaining('.agents') as unknown,
    });
    expect(payloads[2]).toMatchObject({
      stop_hook_active: true,
      last_assistant_message: 'Checked: checked.txt written.',
    });
    // The subagent's first request has the context; its continuation has the block's reason.
    const requests = outcome.requests.map((request) => JSON.stringify(request['contents']));
    expect(requests[1]).toContain('House rule: never touch vendor/.');
    expect(requests[2]).toContain('Run the check and write checked.txt first.');

    // Imported into hookwire's own file (the original removed), the same effects.
    const target = join(sandbox.project, '.hookwire', 'settings.json');
    await mkdir(join(sandbox.project, '.hookwire'), { recursive: true });
    const imported = await runCli(
      ['hooks', 'import', '--from', 'claude', '--write', target, '--cwd', sandbox.project],
      { env: sandbox.env },
    );
    expect(imported.code).toBe(0);
    const written = JSON.parse(await readFile(target, 'utf8')) as {
      hooks: Record<string, unknown[]>;
    };
    expect(written.hooks).toEqual({
      SubagentStart: [
        { dialect: 'claude', hooks: [{ type: 'command', command: start, timeout: '600s' }] },
      ],
      SubagentStop: [
        {
          matcher: 'general-purpose',
          dialect: 'claude',
          hooks: [{ type: 'command', command: stop, timeout: '600s' }],
        },
      ],
    });
    await rm(join(sandbox.project, '.claude'), { recursive: true });
    await rm(join(sandbox.project, 'checked.txt'));
    await rm(log);
    const again = await run(sandbox, DELEGATION);
    expect(again.code).toBe(0);
    expect(again.results).toEqual(outcome.results);
    expect(existsSync(join(sandbox.project, 'checked.txt'))).toBe(true);
    expect((await readLog(log)).map((payload) => payload['last_assistant_message'])).toEqual([
      undefined,
      'Looks fine.',
      'Checked: checked.txt written.',
    ]);
  });

  it("a PreToolUse guard on Bash denies a subagent's shell call: the directory survives and the payload names the agent", async () => {
    const sandbox = await createSandbox();
    const log = join(sandbox.root, 'guard.jsonl');
    const guard = await writeHookScript(sandbox.root, 'guard.mjs', BASH_GUARD, [log]);
    await writeJson(join(sandbox.project, '.claude', 'settings.json'), {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: guard }] }] },
    });
    await mkdir(join(sandbox.project, 'build'));

    const outcome = await run(sandbox, [
      callTool('a1', 'agent', { description: 'clean', prompt: 'Remove build/.' }),
      callTool('c1', 'shell', { command: 'rm -rf build' }),
      say('I could not remove build/: no deleting, general-purpose.'),
      say('build/ stays.'),
    ]);

    expect(outcome.code).toBe(0);
    expect(existsSync(join(sandbox.project, 'build'))).toBe(true);
    expect(outcome.results).toEqual([
      ['a1', 'I could not remove build/: no deleting, general-purpose.'],
    ]);
    const seen = await readLog(log);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'rm -rf build' },
      agent_id: expect.stringMatching(/^agent-/) as unknown,
      agent_type: 'general-purpose',
    });
    // The denial (Claude's exit 2 with stderr) is the subagent's tool error, in its own
    // transcript (<session>.agents/<agent_id>.jsonl; transcript_path is the session's).
    const session = String(seen[0]?.['transcript_path']).replace(/\.jsonl$/, '');
    const child = join(`${session}.agents`, `${String(seen[0]?.['agent_id'])}.jsonl`);
    expect(await readFile(child, 'utf8')).toContain('no deleting, general-purpose');
  });
});

/**
 * A guard on Claude Code's subagent tool, written before it was renamed: matcher `Task`, and a
 * script that reads `tool_input.subagent_type`. It denies `explore` subagents and logs the payload.
 */
const TASK_GUARD = `
import { appendFileSync, readFileSync } from 'node:fs';
const input = JSON.parse(readFileSync(0, 'utf8'));
appendFileSync(process.argv[2], JSON.stringify(input) + '\\n');
if (input.tool_input.subagent_type === 'explore') {
  console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no exploring today' } }));
}
`;

describe("Claude Code's subagent tool (Agent, formerly Task)", () => {
  it.each(['Task', 'Agent'])(
    "a PreToolUse guard with matcher %s sees hookwire's agent tool as Agent with subagent_type, and its deny holds",
    async (matcher) => {
      const sandbox = await createSandbox();
      const log = join(sandbox.root, 'task.jsonl');
      const guard = await writeHookScript(sandbox.root, 'task.mjs', TASK_GUARD, [log]);
      await writeJson(join(sandbox.project, '.claude', 'settings.json'), {
        hooks: { PreToolUse: [{ matcher, hooks: [{ type: 'command', command: guard }] }] },
      });
      await writeJson(join(sandbox.project, '.hookwire', 'settings.json'), {
        agents: { explore: { description: 'Explores.', prompt: 'Explore.' } },
      });
      const outcome = await run(sandbox, [
        callTool('a1', 'agent', {
          description: 'look around',
          prompt: 'Look around.',
          agent_type: 'explore',
        }),
        say('Could not explore.'),
      ]);
      expect(outcome.code).toBe(0);
      const payloads = await readLog(log);
      expect(payloads).toHaveLength(1);
      expect(payloads[0]).toMatchObject({
        tool_name: 'Agent',
        tool_input: {
          description: 'look around',
          prompt: 'Look around.',
          subagent_type: 'explore',
        },
      });
      // Denied: the subagent never ran (it would have taken the script's last answer, and the
      // parent's next call would have found none), and the model got the reason as the error.
      expect(outcome.results).toEqual([['a1', expect.stringContaining('no exploring today')]]);
    },
  );

  it("hooks import --from claude turns a Task matcher into hookwire's agent tool", async () => {
    const sandbox = await createSandbox();
    await writeJson(join(sandbox.project, '.claude', 'settings.json'), {
      hooks: { PreToolUse: [{ matcher: 'Task', hooks: [{ type: 'command', command: 'true' }] }] },
    });
    const imported = await runCli(
      ['hooks', 'import', '--from', 'claude', '--cwd', sandbox.project],
      {
        env: sandbox.env,
      },
    );
    expect(imported.code).toBe(0);
    const settings = JSON.parse(imported.stdout) as {
      hooks: { PreToolUse: { matcher: string }[] };
    };
    expect(settings.hooks.PreToolUse[0]?.matcher).toBe('agent');
  });
});
