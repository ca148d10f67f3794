/**
 * The disk-full campaign (issue 27): runs the built CLI (`dist/bin/hookwire.js run --model
 * scripted:…`) on a project whose sessions live on a small tmpfs, filled (a filler file) so that
 * a seeded random amount of space is left when the run starts; every step calls the `shell` tool,
 * which appends its call id to an effects file OUTSIDE the tmpfs and prints a few KB (so the
 * transcript grows by a few KB per step). The filesystem runs full at a random step.
 *
 * After every run it counts: effects without a record of their call in the transcript (must be
 * 0: a transcript write that fails fails the step before any tool runs), runs reported
 * `completed` (exit 0) that lost records (their transcript lacks the final answer or the turn's
 * end), failed runs whose stderr does not say "disk full", and — after the filler is removed —
 * resumes of a failed session that do not complete or send a broken tool-call pairing.
 *
 * Needs root (it mounts a tmpfs) and a build (`npm run build`).
 * `node scripts/disk-full-campaign.ts [--runs N] [--seed S]` (default 20 runs, a random seed; the
 * seed is printed, and the same seed draws the same fill points). Exit 1 when a count is not 0,
 * 2 when the campaign cannot run here. `test/e2e/disk-full-campaign.test.ts` runs a few.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, statfs, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Message } from '../src/content/index.ts';
import { historyOf, readTranscript, type TranscriptRecord } from '../src/loop/index.ts';

const REPOSITORY = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** The command users run (the bundle). */
export const BUILT_CLI = join(REPOSITORY, 'dist', 'bin', 'hookwire.js');

/** Tool steps per run before the model answers. */
const STEPS_PER_RUN = 24;
/** Bytes each shell call prints (what makes the transcript grow). */
const OUTPUT_BYTES = 3000;
/** The tmpfs size. */
const FILESYSTEM_KIB = 256;

/** A mounted tmpfs (see `mountTmpfs`). */
export interface Tmpfs {
  readonly path: string;
  /** Changes its size (`mount -o remount,size=…`). */
  resize(kib: number): void;
  /** Unmounts it (idempotent). */
  unmount(): void;
}

/**
 * Mounts a tmpfs of `kib` KiB at `path` (created), or returns why it cannot (not root, no
 * `mount`, no permission): a caller SKIPs with that reason.
 */
export function mountTmpfs(path: string, kib: number): Tmpfs | string {
  if (process.getuid?.() !== 0) return 'not root: mounting a tmpfs needs root';
  try {
    execFileSync('mkdir', ['-p', path]);
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${kib}k`, 'tmpfs', path], {
      stdio: 'pipe',
    });
  } catch (error) {
    return `mount -t tmpfs failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
  }
  let mounted = true;
  return {
    path,
    resize(size) {
      execFileSync('mount', ['-o', `remount,size=${size}k`, path], { stdio: 'pipe' });
    },
    unmount() {
      if (!mounted) return;
      mounted = false;
      execFileSync('umount', ['-l', path], { stdio: 'pipe' });
    },
  };
}

/** Free bytes on the filesystem holding `path`. */
export async function freeBytes(path: string): Promise<number> {
  const info = await statfs(path);
  return info.bavail * info.bsize;
}

/** Fills the filesystem of `directory` with `file` until `leave` bytes (rounded to pages) are free. */
export async function fillLeaving(directory: string, file: string, leave: number): Promise<void> {
  const free = await freeBytes(directory);
  const size = Math.max(0, free - leave);
  await writeFile(file, Buffer.alloc(size));
}

/** mulberry32: a small seeded PRNG, so a seed reproduces the fill points. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

/** A scripted model: `steps` shell calls, each appending its id to `effects`, then "All done.". */
export function shellScript(
  effects: string,
  steps: number,
  outputBytes: number,
  tag = 'c',
): string {
  const lines: string[] = [];
  for (let step = 1; step <= steps; step++) {
    const id = `${tag}${step}`;
    lines.push(
      JSON.stringify({
        blocks: [
          { type: 'text', text: `Step ${step}.` },
          {
            type: 'tool_call',
            id,
            name: 'shell',
            parameters: {
              command: `echo ${id} >> ${JSON.stringify(effects)} && head -c ${outputBytes} /dev/zero | tr '\\0' x`,
            },
          },
        ],
        finishReason: 'tool_calls',
      }),
    );
  }
  lines.push(
    JSON.stringify({ blocks: [{ type: 'text', text: 'All done.' }], finishReason: 'stop' }),
  );
  return `${lines.join('\n')}\n`;
}

export interface CliOutcome {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `node BUILT_CLI …args` and resolves when it exits. */
export function runBuiltCli(args: readonly string[], env: NodeJS.ProcessEnv): Promise<CliOutcome> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [BUILT_CLI, ...args], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (text: string) => (stdout += text));
    child.stderr.on('data', (text: string) => (stderr += text));
    child.on('error', reject);
    child.on('close', (code) => {
      resolvePromise({ code, stdout, stderr });
    });
  });
}

/** The ids of the tool calls a transcript records (AI messages and their write-aheads). */
export function recordedCalls(records: readonly TranscriptRecord[]): Set<string> {
  const calls = new Set<string>();
  for (const record of records)
    if (record.type === 'message' || record.type === 'pending-message')
      for (const block of record.message.blocks)
        if (block.type === 'tool_call') calls.add(block.id);
  return calls;
}

/** The providers' pairing rule broken in `history` (a call with no result right after, or the reverse). */
export function pairingProblems(history: readonly Message[]): string[] {
  const problems: string[] = [];
  history.forEach((message, index) => {
    const previous = history[index - 1];
    const next = history[index + 1];
    if (message.speaker === 'tool') {
      const calls = new Set(
        previous?.speaker === 'ai'
          ? previous.blocks.flatMap((block) => (block.type === 'tool_call' ? [block.id] : []))
          : [],
      );
      for (const block of message.blocks)
        if (block.type === 'tool_response' && !calls.has(block.callId))
          problems.push(`message ${index}: a result for ${block.callId} answers no call`);
    }
    if (message.speaker === 'ai') {
      const answered = new Set(
        next?.speaker === 'tool'
          ? next.blocks.flatMap((block) => (block.type === 'tool_response' ? [block.callId] : []))
          : [],
      );
      for (const block of message.blocks)
        if (block.type === 'tool_call' && !answered.has(block.id))
          problems.push(`message ${index}: call ${block.id} has no result after it`);
    }
  });
  return problems;
}

export interface DiskFullCampaignOptions {
  readonly runs: number;
  readonly seed: number;
  readonly log?: (line: string) => void;
}

export interface DiskFullFigures {
  readonly seed: number;
  readonly runs: number;
  /** Runs that failed with "disk full" (the filesystem ran full during them). */
  readonly diskFullRuns: number;
  /** Runs that completed (the space left was enough). */
  readonly completedRuns: number;
  /** Tool effects observed over all runs, and tool calls on record. */
  readonly effects: number;
  readonly recordedCalls: number;
  /** Effects whose call is not in the transcript (must be 0). */
  readonly effectsWithoutRecord: number;
  /** Runs that exited 0 `completed` but whose transcript lacks the end of the run (must be 0). */
  readonly completedRunsThatLostRecords: number;
  /** Runs that failed without saying "disk full", or ended otherwise (must be 0). */
  readonly unexplainedFailures: number;
  /** Resumes (after freeing space) of a failed session that failed or sent a broken history. */
  readonly resumeFailures: number;
  readonly failures: readonly string[];
}

/** Runs the campaign; the tmpfs and every file are removed at the end. */
export async function runDiskFullCampaign(
  options: DiskFullCampaignOptions,
): Promise<DiskFullFigures | string> {
  const log = options.log ?? (() => undefined);
  if (!existsSync(BUILT_CLI)) return `${BUILT_CLI} is missing: run npm run build first`;
  const random = prng(options.seed);
  const root = await mkdtemp(join(tmpdir(), 'hookwire-disk-full-'));
  const fs = mountTmpfs(join(root, 'fs'), FILESYSTEM_KIB);
  if (typeof fs === 'string') {
    await rm(root, { recursive: true, force: true });
    return fs;
  }
  const home = join(root, 'home');
  await mkdir(home, { recursive: true });
  const env: NodeJS.ProcessEnv = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !/^(OPENAI|ANTHROPIC|GEMINI|GOOGLE)_/.test(name),
    ),
  );
  env['HOOKWIRE_HOME'] = home;
  env['HOOKWIRE_MANAGED_SETTINGS'] = join(root, 'managed', 'managed-settings.json');
  const failures: string[] = [];
  let diskFullRuns = 0;
  let completedRuns = 0;
  let totalEffects = 0;
  let totalCalls = 0;
  let effectsWithoutRecord = 0;
  let completedLost = 0;
  let unexplained = 0;
  let resumeFailures = 0;
  const filler = join(fs.path, 'filler');
  try {
    const resumeScript = join(root, 'resume.jsonl');
    await writeFile(
      resumeScript,
      `${JSON.stringify({ blocks: [{ type: 'text', text: 'Resumed.' }], finishReason: 'stop' })}\n`,
    );
    for (let index = 1; index <= options.runs; index++) {
      const label = `run ${index}`;
      const project = join(fs.path, `project-${index}`);
      await mkdir(project, { recursive: true });
      const effectsFile = join(root, `effects-${index}.log`);
      const script = join(root, `model-${index}.jsonl`);
      await writeFile(script, shellScript(effectsFile, STEPS_PER_RUN, OUTPUT_BYTES, `r${index}c`));
      // Space left: anywhere from none to a little more than the whole run needs.
      const leave = Math.floor(random() * STEPS_PER_RUN * (OUTPUT_BYTES + 2500) * 1.15);
      await fillLeaving(fs.path, filler, leave);
      const outcome = await runBuiltCli(
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
      const sessions = join(project, '.hookwire', 'sessions');
      const transcripts = (await readdir(sessions).catch(() => [] as string[])).filter((name) =>
        name.endsWith('.jsonl'),
      );
      const effects = (await readFile(effectsFile, 'utf8').catch(() => ''))
        .split('\n')
        .filter((line) => line !== '');
      totalEffects += effects.length;
      const diskFull = outcome.code === 1 && /disk full/.test(outcome.stderr);
      let records: readonly TranscriptRecord[] = [];
      const transcript = transcripts[0];
      if (transcript !== undefined)
        records = (await readTranscript(join(sessions, transcript))).records;
      const calls = recordedCalls(records);
      totalCalls += calls.size;
      const missing = effects.filter((id) => !calls.has(id));
      effectsWithoutRecord += missing.length;
      if (missing.length > 0)
        failures.push(`${label}: effects without a call on record: ${missing.join(', ')}`);
      log(
        `${label}: ${Math.round(leave / 1024)} KiB left, exit ${String(outcome.code)}${diskFull ? ' (disk full)' : ''}, ${effects.length} effects, ${calls.size} calls on record`,
      );
      if (outcome.code === 0) {
        completedRuns++;
        const ended = records.some(
          (record) => record.type === 'turn-end' && record.status === 'completed',
        );
        const answered = records.some(
          (record) =>
            record.type === 'message' &&
            record.message.blocks.some(
              (block) => block.type === 'text' && block.text === 'All done.',
            ),
        );
        if (!ended || !answered || effects.length !== STEPS_PER_RUN) {
          completedLost++;
          failures.push(`${label}: reported completed, but its transcript lost records`);
        }
      } else if (diskFull) {
        diskFullRuns++;
        // Free the space and resume: the session continues from what was written.
        await rm(filler, { force: true });
        if (transcript === undefined) {
          // The filesystem was full before the session could start: nothing to resume.
          if (effects.length > 0) {
            unexplained++;
            failures.push(`${label}: effects, but no transcript`);
          }
          continue;
        }
        const requests = join(root, `requests-${index}.jsonl`);
        const resumed = await runBuiltCli(
          [
            'run',
            'Continue.',
            '--model',
            `scripted:${resumeScript}`,
            '--cwd',
            project,
            '--resume',
            transcript.slice(0, -'.jsonl'.length),
            '--record-requests',
            requests,
          ],
          env,
        );
        const sent = (await readFile(requests, 'utf8').catch(() => ''))
          .split('\n')
          .filter((line) => line !== '')
          .map((line) => JSON.parse(line) as { contents: Message[] });
        const problems = sent.flatMap((request) => pairingProblems(request.contents));
        if (resumed.code !== 0 || sent.length !== 1 || problems.length > 0) {
          resumeFailures++;
          failures.push(
            `${label}: the resume after freeing space failed (exit ${String(resumed.code)}): ${resumed.stderr.trim()} ${problems.join('; ')}`,
          );
        } else {
          const history = historyOf((await readTranscript(join(sessions, transcript))).records);
          const calls = history.flatMap((message) =>
            message.blocks.flatMap((block) => (block.type === 'tool_call' ? [block.id] : [])),
          );
          const unrecorded = effects.filter((id) => !calls.includes(id));
          if (unrecorded.length > 0) {
            effectsWithoutRecord += unrecorded.length;
            failures.push(
              `${label}: after the resume, effects not in the history: ${unrecorded.join(', ')}`,
            );
          }
        }
      } else {
        unexplained++;
        failures.push(
          `${label}: exit ${String(outcome.code)} without "disk full": ${outcome.stderr.trim()}`,
        );
      }
      await rm(filler, { force: true });
      await rm(project, { recursive: true, force: true });
    }
    return {
      seed: options.seed,
      runs: options.runs,
      diskFullRuns,
      completedRuns,
      effects: totalEffects,
      recordedCalls: totalCalls,
      effectsWithoutRecord,
      completedRunsThatLostRecords: completedLost,
      unexplainedFailures: unexplained,
      resumeFailures,
      failures,
    };
  } finally {
    fs.unmount();
    await rm(root, { recursive: true, force: true });
  }
}

/** One line per figure, as the script prints them. */
export function formatDiskFullFigures(figures: DiskFullFigures): string {
  return [
    `seed ${figures.seed}`,
    `runs ${figures.runs}: disk full ${figures.diskFullRuns}, completed ${figures.completedRuns}`,
    `effects ${figures.effects}, calls on record ${figures.recordedCalls}`,
    `effects without record ${figures.effectsWithoutRecord}`,
    `runs reported completed that lost records ${figures.completedRunsThatLostRecords}`,
    `failures not reported as disk full ${figures.unexplainedFailures}`,
    `resume failures after freeing space ${figures.resumeFailures}`,
  ].join('\n');
}

/** True when every failure count is 0. */
export function diskFullCampaignPassed(figures: DiskFullFigures): boolean {
  return (
    figures.failures.length === 0 &&
    figures.effectsWithoutRecord === 0 &&
    figures.completedRunsThatLostRecords === 0 &&
    figures.unexplainedFailures === 0 &&
    figures.resumeFailures === 0
  );
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  let runs = 20;
  let seed = Math.floor(Math.random() * 2 ** 32);
  for (let index = 2; index < process.argv.length; index++) {
    const flag = process.argv[index];
    const value = Number(process.argv[++index]);
    if (!Number.isSafeInteger(value) || value < 0) {
      console.error(`disk-full-campaign: ${String(flag)} needs a whole number`);
      process.exit(2);
    }
    if (flag === '--runs') runs = value;
    else if (flag === '--seed') seed = value;
    else {
      console.error(`disk-full-campaign: unknown option ${String(flag)}; use --runs N --seed S`);
      process.exit(2);
    }
  }
  console.log(`disk-full campaign: ${runs} runs, seed ${seed}`);
  const figures = await runDiskFullCampaign({
    runs,
    seed,
    log: (line) => {
      console.log(`  ${line}`);
    },
  });
  if (typeof figures === 'string') {
    console.log(`SKIP: ${figures}`);
    process.exitCode = 2;
  } else {
    console.log(formatDiskFullFigures(figures));
    for (const failure of figures.failures) console.log(`FAIL ${failure}`);
    process.exitCode = diskFullCampaignPassed(figures) ? 0 : 1;
  }
}
