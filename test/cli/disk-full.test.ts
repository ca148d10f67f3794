/**
 * Disk full (issue 27): a project whose sessions live on a 200 KiB tmpfs, 40 `shell` steps each
 * appending a line to a file outside the tmpfs and printing 8 KB (so the transcript outgrows the
 * filesystem). The transcript write that fails fails the step before its tool runs: the built CLI
 * exits 1, status `failed`, "disk full" on stderr, and every effect has its call on record. Once
 * space is freed, `--resume` continues the session with a valid history.
 *
 * Root only (it mounts a tmpfs): elsewhere the suite says SKIP and why.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { Message } from '../../src/content/index.ts';
import { historyOf, readTranscript } from '../../src/loop/index.ts';
import {
  BUILT_CLI,
  mountTmpfs,
  pairingProblems,
  recordedCalls,
  runBuiltCli,
  shellScript,
} from '../../scripts/disk-full-campaign.ts';
import { existsSync } from 'node:fs';

/** Why the suite cannot run here, or undefined. */
async function unavailable(): Promise<string | undefined> {
  if (!existsSync(BUILT_CLI)) return `${BUILT_CLI} is missing (npm run build)`;
  const probe = await mkdtemp(join(tmpdir(), 'hookwire-tmpfs-probe-'));
  const mounted = mountTmpfs(join(probe, 'fs'), 64);
  if (typeof mounted !== 'string') mounted.unmount();
  await rm(probe, { recursive: true, force: true });
  return typeof mounted === 'string' ? mounted : undefined;
}

const skip = await unavailable();
if (skip !== undefined) console.log(`SKIP disk-full tests: ${skip}`);

describe.skipIf(skip !== undefined)('hookwire run on a full disk', () => {
  it('fails the step before its tool runs (exit 1, failed, "disk full" on stderr), loses no effect, and resumes once space is freed', async () => {
    const root = await mkdtemp(join(tmpdir(), 'hookwire-disk-full-'));
    const fs = mountTmpfs(join(root, 'fs'), 200);
    if (typeof fs === 'string') throw new Error(fs);
    onTestFinished(async () => {
      fs.unmount();
      await rm(root, { recursive: true, force: true });
    });
    const project = join(fs.path, 'project');
    await mkdir(project);
    const effects = join(root, 'effects.log');
    const script = join(root, 'model.jsonl');
    await writeFile(script, shellScript(effects, 40, 8000));
    const env = {
      ...process.env,
      HOOKWIRE_HOME: join(root, 'home'),
      HOOKWIRE_MANAGED_SETTINGS: join(root, 'managed', 'managed-settings.json'),
    };
    const run = await runBuiltCli(
      [
        'run',
        'Run the steps.',
        '--model',
        `scripted:${script}`,
        '--cwd',
        project,
        '--output-format',
        'json',
      ],
      env,
    );
    expect(run.code, run.stderr).toBe(1);
    const result = JSON.parse(run.stdout) as {
      status: string;
      reason?: string;
      session_id: string;
    };
    expect(result.status).toBe('failed');
    expect(result.reason).toMatch(/^disk full: the session transcript .* could not be written/);
    expect(run.stderr).toMatch(/hookwire: the run ended failed: disk full: .*ENOSPC/);
    expect(run.stderr).not.toMatch(/\n\s+at /); // no stack

    const sessions = join(project, '.hookwire', 'sessions');
    const transcript = (await readdir(sessions)).find((name) => name.endsWith('.jsonl'));
    expect(transcript).toBeDefined();
    const transcriptPath = join(sessions, transcript ?? '');
    const contents = await readTranscript(transcriptPath);
    // The failed write left whole lines only.
    expect(contents.warnings).toEqual([]);
    const calls = recordedCalls(contents.records);
    const lines = (await readFile(effects, 'utf8')).split('\n').filter((line) => line !== '');
    // The disk ran full before the end: some steps ran, not all.
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.length).toBeLessThan(40);
    // As many effects as calls on record, and each effect's call is on record.
    expect(lines.length).toBe(calls.size);
    expect(lines.filter((id) => !calls.has(id))).toEqual([]);

    // Free space: the session resumes, its history valid, every effect's call in it.
    fs.resize(4096);
    const resumeScript = join(root, 'resume.jsonl');
    await writeFile(
      resumeScript,
      `${JSON.stringify({ blocks: [{ type: 'text', text: 'Resumed.' }], finishReason: 'stop' })}\n`,
    );
    const requests = join(root, 'requests.jsonl');
    const resumed = await runBuiltCli(
      [
        'run',
        'Continue.',
        '--model',
        `scripted:${resumeScript}`,
        '--cwd',
        project,
        '--resume',
        transcript?.slice(0, -'.jsonl'.length) ?? '',
        '--record-requests',
        requests,
      ],
      env,
    );
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toBe('Resumed.\n');
    const sent = (await readFile(requests, 'utf8'))
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { contents: Message[] });
    expect(sent).toHaveLength(1);
    expect(pairingProblems(sent[0]?.contents ?? [])).toEqual([]);
    const history = historyOf((await readTranscript(transcriptPath)).records);
    const inHistory = new Set(
      history.flatMap((message) =>
        message.blocks.flatMap((block) => (block.type === 'tool_call' ? [block.id] : [])),
      ),
    );
    expect(lines.filter((id) => !inHistory.has(id))).toEqual([]);
    expect(inHistory.size).toBe(lines.length);
  }, 120_000);
});
