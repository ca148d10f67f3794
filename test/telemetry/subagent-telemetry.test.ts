/**
 * `hookwire hooks stats` and `hookwire trace` follow a session's subagent transcripts (each
 * child writes its own, linked from the parent's `subagent-start` record): the children's hook
 * runs count, labelled with their agent type (stats) and agent id and type (trace). One real
 * session through `hookwire run` (scripted model, a real command hook) with a typed subagent.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HookStatsReport } from '../../src/cli/telemetry/hook-stats.ts';
import { readSessions } from '../../src/cli/telemetry/read-sessions.ts';
import { traceModel } from '../../src/cli/telemetry/trace-model.ts';
import {
  callTool,
  createSandbox,
  runCli,
  say,
  writeHookScript,
  writeJson,
  writeScript,
  type Sandbox,
  scriptedRunArgs,
} from '../cli/support.ts';

/** Denies shell commands that remove files. */
const GUARD = `
import { readFileSync } from 'node:fs';
const payload = JSON.parse(readFileSync(0, 'utf8'));
if (/\\brm\\b/.test(payload.tool_input.command)) {
  process.stderr.write('no deleting');
  process.exit(2);
}
`;

async function sessionWithSubagent(): Promise<{ sandbox: Sandbox; sessionId: string }> {
  const sandbox = await createSandbox();
  const guard = await writeHookScript(sandbox.root, 'guard.mjs', GUARD);
  await writeJson(join(sandbox.project, '.hookwire', 'settings.json'), {
    hooks: {
      PreToolUse: [
        { matcher: 'shell', hooks: [{ type: 'command', command: guard, name: 'guard' }] },
      ],
    },
  });
  await mkdir(join(sandbox.project, '.hookwire', 'agents'));
  await writeFile(
    join(sandbox.project, '.hookwire', 'agents', 'worker.md'),
    '---\ndescription: Runs commands\ntools: shell\n---\nYou work.\n',
  );
  const script = await writeScript(join(sandbox.root, 'model.jsonl'), [
    callTool('p1', 'shell', { command: 'echo parent' }),
    callTool('a1', 'agent', { description: 'work', prompt: 'Work.', agent_type: 'worker' }),
    callTool('w1', 'shell', { command: 'echo child' }),
    callTool('w2', 'shell', { command: 'rm -rf build' }),
    say('worker: one refused'),
    say('done'),
  ]);
  const run = await runCli(scriptedRunArgs(script, sandbox.project, ['--output-format', 'json']), {
    env: sandbox.env,
  });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return { sandbox, sessionId: (JSON.parse(run.stdout) as { sessionId: string }).sessionId };
}

describe("telemetry follows subagents' transcripts", () => {
  it("hooks stats counts the subagents' hook runs apart, by agent type", async () => {
    const { sandbox, sessionId } = await sessionWithSubagent();
    const json = await runCli(['hooks', 'stats', sessionId, '--cwd', sandbox.project, '--json'], {
      env: sandbox.env,
    });
    expect(json.stderr).toBe('');
    const report = JSON.parse(json.stdout) as HookStatsReport;
    expect(
      report.hooks.map((row) => ({
        event: row.event,
        hook: row.hook,
        agentType: row.agentType,
        agents: row.agents,
        runs: row.runs,
        allow: row.decisions.allow,
        deny: row.decisions.deny,
      })),
    ).toEqual([
      { event: 'PreToolUse', hook: 'guard', runs: 1, allow: 1, deny: 0 },
      {
        event: 'PreToolUse',
        hook: 'guard',
        agentType: 'worker',
        agents: 1,
        runs: 2,
        allow: 1,
        deny: 1,
      },
    ]);

    const text = await runCli(['hooks', 'stats', sessionId, '--cwd', sandbox.project], {
      env: sandbox.env,
    });
    const lines = text.stdout.split('\n');
    expect(lines[0]).toMatch(/^EVENT +HOOK +KIND +AGENT +RUNS /);
    expect(lines[1]).toMatch(/^PreToolUse +guard +command +main +1 /);
    expect(lines[2]).toMatch(/^PreToolUse +guard +command +worker \(1 subagent\) +2 /);

    // A subagent transcript that is gone is a warning; the parent's runs still count.
    const [session] = await readSessions(sandbox.project, [sessionId], 1);
    await rm(session!.agents[0]!.transcriptPath);
    const missing = await runCli(
      ['hooks', 'stats', sessionId, '--cwd', sandbox.project, '--json'],
      {
        env: sandbox.env,
      },
    );
    expect(missing.code).toBe(0);
    expect(missing.stderr).toMatch(
      /^hookwire: the transcript of subagent agent-[\w-]+ \(worker\) cannot be read: .*ENOENT.*; its hook runs are not counted\n$/,
    );
    expect((JSON.parse(missing.stdout) as HookStatsReport).hooks).toHaveLength(1);
  });

  it("trace places each subagent hook run under the agent call that ran it, labelled with the agent's id and type", async () => {
    const { sandbox, sessionId } = await sessionWithSubagent();
    const out = join(sandbox.root, 'trace.html');
    const traced = await runCli(['trace', sessionId, '--cwd', sandbox.project, '--out', out], {
      env: sandbox.env,
    });
    expect(traced.stderr).toBe('');
    expect(traced.stdout).toContain('3 hook runs (1 denials or stops, 0 failures)');
    const html = await readFile(out, 'utf8');
    expect(html).toContain('"agentType":"worker"');

    const [session] = await readSessions(sandbox.project, [sessionId], 1);
    expect(session?.agents.map((agent) => [agent.agentType, agent.toolCallId])).toEqual([
      ['worker', 'a1'],
    ]);
    const agentId = session!.agents[0]!.agentId;
    const model = traceModel(session!.sessionId, session!.records, session!.agents);
    expect(model.hookRunCount).toBe(3);
    const step = model.steps.find((candidate) =>
      candidate.toolCalls.some((tool) => tool.toolCallId === 'a1'),
    );
    expect(
      step?.hookRuns.map((run) => [
        run.agentType,
        run.agentId,
        run.agentToolCallId,
        run.toolCallId,
        run.decision,
      ]),
    ).toEqual([
      ['worker', agentId, 'a1', 'w1', 'allow'],
      ['worker', agentId, 'a1', 'w2', 'deny'],
    ]);
    expect(model.problems.map((run) => [run.agentType, run.reason])).toEqual([
      ['worker', expect.stringContaining('no deleting')],
    ]);
    // The main agent's own run carries no agent.
    const own = model.steps
      .flatMap((candidate) => candidate.hookRuns)
      .find((run) => run.toolCallId === 'p1');
    expect(own).toBeDefined();
    expect(own).not.toHaveProperty('agentId');
  });
});
