/**
 * `hookwire hooks stats` over real sessions (the known session, run twice through the CLI), the
 * latency figures' definitions, and transcripts from before hook runs were recorded.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { median, percentile, type HookStatsReport } from '../../src/cli/telemetry/hook-stats.ts';
import { createAgent } from '../../src/loop/index.ts';
import { createScriptedModel } from '../../src/testing.ts';
import { createSandbox, runCli, type Sandbox } from '../cli/support.ts';
import { runKnownSession } from './known-session.ts';

let sandbox: Sandbox;
const sessions: string[] = [];
beforeAll(async () => {
  sandbox = await createSandbox({ removeAfterTest: false });
  for (let count = 0; count < 2; count++) {
    const { outcome, sessionId } = await runKnownSession(sandbox);
    expect(outcome.code).toBe(0);
    sessions.push(sessionId);
  }
}, 60_000);
afterAll(async () => {
  await rm(sandbox.root, { recursive: true, force: true });
});

async function stats(...args: string[]): Promise<HookStatsReport> {
  const outcome = await runCli(['hooks', 'stats', '--cwd', sandbox.project, '--json', ...args], {
    env: sandbox.env,
  });
  expect(outcome.stderr).toBe('');
  expect(outcome.code).toBe(0);
  return JSON.parse(outcome.stdout) as HookStatsReport;
}

const row = (report: HookStatsReport, event: string, hook: string) =>
  report.hooks.find((entry) => entry.event === event && entry.hook === hook);

describe('hookwire hooks stats', () => {
  it('counts runs, decisions, failures and timeouts per hook across the recent sessions', async () => {
    const report = await stats();
    expect([...report.sessions].sort()).toEqual([...sessions].sort());
    expect(report.hooks.map((entry) => `${entry.event} ${entry.hook}`)).toEqual([
      'PostToolUse context',
      'PostToolUse crashy',
      'PreToolUse audit',
      'PreToolUse guard',
      'PreToolUse redirect',
      'Stop slow-guard',
    ]);
    expect(row(report, 'PreToolUse', 'audit')).toMatchObject({ runs: 4, decisions: { allow: 4 } });
    expect(row(report, 'PreToolUse', 'guard')).toMatchObject({
      runs: 2,
      decisions: { deny: 2, allow: 0 },
      failures: 0,
    });
    expect(row(report, 'PreToolUse', 'redirect')).toMatchObject({ decisions: { rewrite: 2 } });
    expect(row(report, 'PostToolUse', 'context')).toMatchObject({ decisions: { context: 4 } });
    expect(row(report, 'PostToolUse', 'crashy')).toMatchObject({
      runs: 4,
      failures: 4,
      timeouts: 0,
    });
    expect(row(report, 'Stop', 'slow-guard')).toMatchObject({
      runs: 4,
      decisions: { deny: 4 },
      failures: 0,
      timeouts: 4,
      failedClosed: 4,
    });
    const slow = row(report, 'Stop', 'slow-guard')!;
    // Its deadline is 300 ms: every run lasted at least that, and the figures are ordered.
    expect(slow.medianMs).toBeGreaterThanOrEqual(300);
    expect(slow.medianMs).toBeLessThanOrEqual(slow.p95Ms);
    expect(slow.p95Ms).toBeLessThanOrEqual(slow.maxMs);
  });

  it('reads only the sessions named, and names the folder for an unknown one', async () => {
    const one = await stats(sessions[0]!);
    expect(one.sessions).toEqual([sessions[0]]);
    expect(row(one, 'PreToolUse', 'audit')?.runs).toBe(2);
    const missing = await runCli(['hooks', 'stats', '--cwd', sandbox.project, 'no-such-session'], {
      env: sandbox.env,
    });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(
      /^hookwire: No transcript for session "no-such-session" in .*\.hookwire\/sessions; the most recent are /,
    );
  });

  it('prints a table with one row per hook', async () => {
    const outcome = await runCli(['hooks', 'stats', '--cwd', sandbox.project], {
      env: sandbox.env,
    });
    const lines = outcome.stdout.split('\n');
    expect(lines[0]).toMatch(
      /^EVENT\s+HOOK\s+KIND\s+RUNS\s+ALLOW\s+DENY\s+STOP\s+REWRITE\s+CONTEXT\s+FAILED\s+TIMEOUT\s+MEDIAN\s+P95\s+MAX$/,
    );
    expect(lines.find((line) => line.startsWith('Stop'))).toMatch(
      /^Stop\s+slow-guard\s+command\s+4\s+0\s+4\s+0\s+0\s+0\s+0 \(4 closed\)\s+4\s+\d/,
    );
  });
});

describe('latency figures', () => {
  it('the median is the middle value, or the mean of the middle two', () => {
    expect(median([1, 2, 9])).toBe(2);
    expect(median([1, 2, 4, 9])).toBe(3);
    expect(median([])).toBe(0);
  });

  it('p95 is the nearest rank', () => {
    const values = Array.from({ length: 20 }, (_, index) => index + 1);
    expect(percentile(values, 95)).toBe(19);
    expect(percentile([5], 95)).toBe(5);
    expect(percentile([1, 2], 95)).toBe(2);
  });
});

describe('transcripts from before version 2', () => {
  it('a version 1 transcript still resumes, and stats and trace read it with a note', async () => {
    const sessionsDir = join(sandbox.project, '.hookwire', 'sessions');
    await mkdir(sessionsDir, { recursive: true });
    const time = '2026-01-01T00:00:00.000Z';
    const lines = [
      {
        type: 'session-start',
        version: 1,
        sessionId: 'old',
        cwd: sandbox.project,
        source: 'startup',
        time,
      },
      { type: 'turn-start', turn: 1, prompt: 'hello', time },
      {
        type: 'message',
        turn: 1,
        message: { speaker: 'human', blocks: [{ type: 'text', text: 'hello' }] },
        time,
      },
      {
        type: 'message',
        turn: 1,
        message: { speaker: 'ai', blocks: [{ type: 'text', text: 'hi there' }] },
        time,
      },
      { type: 'turn-end', turn: 1, status: 'completed', time },
      { type: 'session-end', reason: 'exit', time },
    ];
    await writeFile(
      join(sessionsDir, 'old.jsonl'),
      lines.map((line) => JSON.stringify(line)).join('\n') + '\n',
    );

    const report = await stats('old');
    expect(report).toEqual({ sessions: ['old'], sessionsWithoutRuns: ['old'], hooks: [] });

    const out = join(sandbox.root, 'old.html');
    const traced = await runCli(['trace', 'old', '--cwd', sandbox.project, '--out', out], {
      env: sandbox.env,
    });
    expect(traced.code).toBe(0);
    expect(traced.stdout).toContain('0 model calls, 0 hook runs');

    const agent = createAgent({
      model: createScriptedModel([{ blocks: [{ type: 'text', text: 'again' }] }]),
      cwd: sandbox.project,
    });
    const session = await agent.openSession({ sessionId: 'old', resume: true });
    expect(session.history.map((message) => message.speaker)).toEqual(['human', 'ai']);
    await session.close('exit');
  });

  it('resuming a version 2 transcript rebuilds the history from its messages alone', async () => {
    const [id] = sessions;
    const agent = createAgent({
      model: createScriptedModel([{ blocks: [{ type: 'text', text: 'ok' }] }]),
      cwd: sandbox.project,
    });
    const session = await agent.openSession({ sessionId: id!, resume: true });
    // The prompt, two tool steps (answer + tool message each), the answer, the Stop
    // continuation and the second answer: the hook-run, model-call and tool-call records add none.
    expect(session.history.map((message) => message.speaker)).toEqual([
      'human',
      'ai',
      'tool',
      'ai',
      'tool',
      'ai',
      'human',
      'ai',
    ]);
    await session.close('exit');
  });
});
