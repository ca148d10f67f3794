/**
 * End to end through `hookwire run` and `hookwire compact` (real processes, real command hooks,
 * the scripted model): one PreToolUse guard holds on the main agent's shell calls and on a
 * subagent's; a compacted session resumes from its summary.
 */
import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  callTool,
  createSandbox,
  jsonLines,
  LOGGER_HOOK,
  readLog,
  runCli,
  say,
  settingsWith,
  writeHookScript,
  writeJson,
  writeScript,
} from './support.ts';

/** Denies shell commands that remove files, logging every payload it sees. */
const GUARD = `
import { appendFileSync, readFileSync } from 'node:fs';
const payload = JSON.parse(readFileSync(0, 'utf8'));
appendFileSync(process.argv[2], JSON.stringify(payload) + '\\n');
if (/\\brm\\b/.test(payload.tool_input.command)) {
  console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no deleting' } }));
}
`;

/** Adds compaction instructions. */
const INSTRUCT = `
import { readFileSync } from 'node:fs';
JSON.parse(readFileSync(0, 'utf8'));
console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreCompact', additionalContext: 'Keep the name of the build directory.' } }));
`;

describe('subagents through hookwire run', () => {
  it("holds one PreToolUse guard on the main agent's shell calls and on a subagent's", async () => {
    const sandbox = await createSandbox();
    const guardLog = join(sandbox.root, 'guard.jsonl');
    const agentLog = join(sandbox.root, 'agents.jsonl');
    const guard = await writeHookScript(sandbox.root, 'guard.mjs', GUARD, [guardLog]);
    const logger = await writeHookScript(sandbox.root, 'logger.mjs', LOGGER_HOOK, [agentLog]);
    await writeJson(
      join(sandbox.project, '.hookwire', 'settings.json'),
      settingsWith(
        { PreToolUse: [guard], SubagentStart: [logger], SubagentStop: [logger] },
        { PreToolUse: { matcher: 'shell' } },
      ),
    );
    await mkdir(join(sandbox.project, '.hookwire', 'agents'), { recursive: true });
    await writeFile(
      join(sandbox.project, '.hookwire', 'agents', 'cleaner.md'),
      '---\nname: cleaner\ndescription: Removes build output\ntools: shell\n---\nYou clean the project.\n',
    );
    await mkdir(join(sandbox.project, 'build'));
    const script = await writeScript(join(sandbox.root, 'model.jsonl'), [
      callTool('p1', 'shell', { command: 'rm -rf build' }),
      callTool('a1', 'agent', {
        description: 'clean up',
        prompt: 'Remove the build directory.',
        agent_type: 'cleaner',
      }),
      callTool('c1', 'shell', { command: 'rm -rf build' }),
      say('I could not remove build: the command was denied.'),
      say('The build directory stays.'),
    ]);
    const outcome = await runCli(
      [
        'run',
        'clean up',
        '--model',
        `scripted:${script}`,
        '--cwd',
        sandbox.project,
        '--output-format',
        'stream-json',
      ],
      { env: sandbox.env },
    );
    expect(outcome.stderr).toBe('');
    expect(outcome.code).toBe(0);
    await access(join(sandbox.project, 'build')); // neither rm ran
    const seen = await readLog(guardLog);
    expect(seen).toHaveLength(2);
    expect(seen[0]).not.toHaveProperty('agent_id');
    expect(seen[1]).toMatchObject({
      tool_name: 'shell',
      tool_input: { command: 'rm -rf build' },
      agent_id: expect.stringMatching(/^agent-/) as unknown,
      agent_type: 'cleaner',
    });
    const lifecycle = await readLog(agentLog);
    expect(lifecycle.map((entry) => entry.hook_event_name)).toEqual([
      'SubagentStart',
      'SubagentStop',
    ]);
    expect(lifecycle[0]).toMatchObject({
      agent_type: 'cleaner',
      prompt: 'Remove the build directory.',
    });
    expect(lifecycle[1]).toMatchObject({
      agent_id: seen[1]?.agent_id,
      stop_hook_active: false,
      result: 'I could not remove build: the command was denied.',
    });
    const events = jsonLines(outcome.stdout);
    const results = events.filter((event) => event.type === 'tool-result');
    expect(results.map((event) => [event.toolCallId, event.error ?? event.result])).toEqual([
      ['p1', 'no deleting'],
      ['a1', 'I could not remove build: the command was denied.'],
    ]);
    // The child's denial is in its own transcript.
    const child = await readFile(String(lifecycle[1]?.agent_transcript_path), 'utf8');
    expect(child).toContain('no deleting');
  });
});

describe('hookwire compact', () => {
  it('compacts a session through its PreCompact and PostCompact hooks, and --resume continues from the summary', async () => {
    const sandbox = await createSandbox();
    const postLog = join(sandbox.root, 'post.jsonl');
    const instruct = await writeHookScript(sandbox.root, 'instruct.mjs', INSTRUCT);
    const logger = await writeHookScript(sandbox.root, 'logger.mjs', LOGGER_HOOK, [postLog]);
    await writeJson(
      join(sandbox.project, '.hookwire', 'settings.json'),
      settingsWith({ PreCompact: [instruct], PostCompact: [logger] }),
    );
    // Long enough that its summary is shorter: a compaction never grows the history.
    await writeFile(
      join(sandbox.project, 'notes.txt'),
      `the build directory is out/\n${'(release notes of an older version)\n'.repeat(40)}`,
    );
    const first = await writeScript(join(sandbox.root, 'first.jsonl'), [
      callTool('r1', 'read_file', { path: 'notes.txt' }),
      say('The build directory is out/.'),
    ]);
    const run = await runCli(
      [
        'run',
        'where is the build?',
        '--model',
        `scripted:${first}`,
        '--cwd',
        sandbox.project,
        '--output-format',
        'json',
      ],
      { env: sandbox.env },
    );
    expect(run.code).toBe(0);
    const sessionId = (JSON.parse(run.stdout) as { sessionId: string }).sessionId;

    const summarizer = await writeScript(join(sandbox.root, 'summary.jsonl'), [
      say('The user asked where the build goes; notes.txt says out/.'),
    ]);
    const requests = join(sandbox.root, 'requests.jsonl');
    const compact = await runCli(
      ['compact', sessionId, '--model', `scripted:${summarizer}`, '--cwd', sandbox.project],
      { env: sandbox.env },
    );
    expect(compact.stderr).toContain(`compacted 3 message(s) of session ${sessionId}`);
    expect(compact.code).toBe(0);
    expect(compact.stdout).toBe('The user asked where the build goes; notes.txt says out/.\n');
    const post = await readLog(postLog);
    expect(post).toEqual([
      expect.objectContaining({
        hook_event_name: 'PostCompact',
        trigger: 'manual',
        summary: 'The user asked where the build goes; notes.txt says out/.',
      }),
    ]);

    const next = await writeScript(join(sandbox.root, 'next.jsonl'), [say('Still out/.')]);
    const resumed = await runCli(
      [
        'run',
        'and now?',
        '--model',
        `scripted:${next}`,
        '--cwd',
        sandbox.project,
        '--resume',
        sessionId,
        '--record-requests',
        requests,
      ],
      { env: sandbox.env },
    );
    expect(resumed.code).toBe(0);
    const [request] = await readLog(requests);
    const contents = (request as { contents: { speaker: string; blocks: { text?: string }[] }[] })
      .contents;
    expect(contents.map((message) => message.speaker)).toEqual(['human', 'ai', 'human']);
    expect(contents[0]?.blocks[0]?.text).toContain('notes.txt says out/.');
    expect(contents[1]?.blocks[0]?.text).toBe('The build directory is out/.');
  });
});
