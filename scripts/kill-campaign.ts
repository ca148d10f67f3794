/**
 * The `kill -9` campaign (issue 11): runs the real CLI (`node src/cli/main.ts run --model
 * openai-compatible:… --base-url <loopback>`) on a multi-step task whose every step calls the
 * `shell` tool with an observable effect (it appends its call id to `effects.log`), kills it with
 * SIGKILL at a random point (three in four during the tool steps, counted from the run's first
 * model request; the rest from the spawn), checks what it left, and resumes the session — again
 * and again. The
 * loopback server enforces the providers' tool-call / tool-result pairing (a 400 as OpenAI sends
 * for an assistant tool call not followed by its results), so a resume that sends a broken
 * history fails.
 *
 * After every run it counts: unreadable transcripts, resume failures (a run that was not killed
 * and did not complete, or a request the server rejected), and tool effects without a record of
 * their call. At the end, after one last uninterrupted resume, every effect must have a result in
 * the history (the tool's own, or "interrupted: may or may not have run"), and no successful
 * result may lack its effect.
 *
 * `node scripts/kill-campaign.ts [--kills N] [--seed S]` (default 20 kills, a random seed; the
 * seed is printed, and the same seed draws the same kill points). Exit 1 when a count is not 0.
 * `test/e2e/kill-campaign.test.ts` runs it with fewer kills.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { historyOf, readTranscript } from '../src/loop/index.ts';
import type { RecordedRequest, ScriptedReply } from '../test/support/loopback-server.ts';
import { startLoopbackServer } from '../test/support/loopback-server.ts';

const REPOSITORY = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MAIN = join(REPOSITORY, 'src', 'cli', 'main.ts');
/** Tool steps per run before the model answers. */
const STEPS_PER_RUN = 3;
/** The shell command's pause after its effect: the window a crash leaves an effect unanswered. */
const TOOL_PAUSE_SECONDS = 0.15;

export interface CampaignOptions {
  /** SIGKILLs to deliver (runs that end before their kill point do not count). */
  readonly kills: number;
  readonly seed: number;
  /** Progress lines; default: none. */
  readonly log?: (line: string) => void;
}

export interface CampaignFigures {
  readonly seed: number;
  readonly kills: number;
  /** CLI runs started, the calibration and the final resume included. */
  readonly runs: number;
  /** Runs that were resumes of the session. */
  readonly resumes: number;
  /** Transcripts read back after a run (one per run once the session exists). */
  readonly transcriptsRead: number;
  readonly unreadableTranscripts: number;
  /** Lines skipped when reading back (a line cut by a crash). */
  readonly skippedLines: number;
  /** Runs not killed that did not complete, and requests the server rejected for pairing. */
  readonly resumeFailures: number;
  readonly pairingViolations: number;
  /** Effects observed (lines of effects.log) at the end. */
  readonly effects: number;
  /** Tool calls on record (AI messages) at the end. */
  readonly recordedCalls: number;
  /** Worst count, over all checks, of effects whose call was not on record. */
  readonly effectsWithoutRecord: number;
  /** At the end: effects whose call has no result in the history. */
  readonly effectsWithoutResult: number;
  /** At the end: calls answered "interrupted" (the crash window). */
  readonly interruptedResults: number;
  /** At the end: successful shell results whose effect is missing. */
  readonly resultsWithoutEffect: number;
  readonly failures: readonly string[];
}

/** mulberry32: a small seeded PRNG, so a seed reproduces the kill points. */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

interface ChatMessage {
  readonly role?: string;
}

/** The scripted "model": STEPS_PER_RUN shell steps after each user prompt, then an answer. */
function answer(request: RecordedRequest, counter: { value: number }): ScriptedReply {
  const body = request.body as { messages?: readonly ChatMessage[]; stream?: boolean };
  const messages = body.messages ?? [];
  let lastUser = -1;
  messages.forEach((message, index) => {
    if (message.role === 'user') lastUser = index;
  });
  const steps = messages.slice(lastUser + 1).filter((message) => message.role === 'assistant');
  const stream = body.stream === true;
  const request_ = ++counter.value;
  if (steps.length >= STEPS_PER_RUN) {
    return stream
      ? {
          type: 'sse',
          events: [
            chunk({ role: 'assistant', content: 'All steps done.' }),
            chunk({}, 'stop'),
            DONE,
          ],
        }
      : { type: 'json', body: completion({ content: 'All steps done.' }, 'stop') };
  }
  // Every other step calls the tool twice at once (the calls run concurrently).
  const calls = Array.from({ length: request_ % 2 === 0 ? 2 : 1 }, (_, index) => {
    const id = `call_${request_}_${index}`;
    return {
      id,
      type: 'function',
      function: {
        name: 'shell',
        arguments: JSON.stringify({
          command: `echo ${id} >> effects.log && sleep ${TOOL_PAUSE_SECONDS}`,
        }),
      },
    };
  });
  if (!stream)
    return { type: 'json', body: completion({ content: null, tool_calls: calls }, 'tool_calls') };
  return {
    type: 'sse',
    events: [
      chunk({ role: 'assistant', content: null }),
      ...calls.map((call, index) => chunk({ tool_calls: [{ index, ...call }] })),
      chunk({}, 'tool_calls'),
      DONE,
    ],
  };
}

const DONE = { data: '[DONE]' };
function chunk(delta: Record<string, unknown>, finishReason: string | null = null) {
  return {
    data: {
      id: 'chatcmpl-campaign',
      object: 'chat.completion.chunk',
      created: 1_700_000_000,
      model: 'campaign',
      choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }],
    },
  };
}
function completion(message: Record<string, unknown>, finishReason: string) {
  return {
    id: 'chatcmpl-campaign',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'campaign',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', refusal: null, ...message },
        finish_reason: finishReason,
        logprobs: null,
      },
    ],
  };
}

interface RunOutcome {
  readonly killed: boolean;
  /** Milliseconds from the spawn to the run's first model request (undefined: none came). */
  readonly firstRequestMs: number | undefined;
  readonly code: number | null;
  readonly stderr: string;
  readonly durationMs: number;
}

/** When to kill: `afterMs` after the spawn, or after the run's first model request. */
interface KillPoint {
  readonly afterMs: number;
  readonly from: 'spawn' | 'first request';
}

/** Runs the CLI; SIGKILLs it at `kill` when it is still running then. */
function runCli(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  kill: KillPoint | undefined,
  firstRequest: Promise<void>,
): Promise<RunOutcome> {
  return new Promise((resolvePromise, reject) => {
    const started = performance.now();
    let firstRequestMs: number | undefined;
    void firstRequest.then(() => {
      firstRequestMs = performance.now() - started;
    });
    const child = spawn(process.execPath, [MAIN, ...args], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let killed = false;
    child.stdout.resume();
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text: string) => (stderr += text));
    let timer: NodeJS.Timeout | undefined;
    let closed = false;
    const arm = (): void => {
      if (kill === undefined || closed) return;
      timer = setTimeout(() => {
        if (child.exitCode === null && child.signalCode === null) {
          killed = true;
          child.kill('SIGKILL');
        }
      }, kill.afterMs);
    };
    if (kill?.from === 'spawn') arm();
    else void firstRequest.then(arm);
    child.on('error', reject);
    child.on('close', (code) => {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      resolvePromise({
        killed,
        firstRequestMs,
        code,
        stderr,
        durationMs: performance.now() - started,
      });
    });
  });
}

/** Runs the campaign in a fresh temporary project, removed at the end. */
export async function runKillCampaign(options: CampaignOptions): Promise<CampaignFigures> {
  const log = options.log ?? (() => undefined);
  const random = prng(options.seed);
  const root = await mkdtemp(join(tmpdir(), 'hookwire-kill-campaign-'));
  const project = join(root, 'project');
  const home = join(root, 'home');
  await mkdir(project, { recursive: true });
  await mkdir(home, { recursive: true });
  const env: NodeJS.ProcessEnv = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !/^(OPENAI|ANTHROPIC|GEMINI|GOOGLE)_/.test(name),
    ),
  );
  env['HOOKWIRE_HOME'] = home;
  env['HOOKWIRE_MANAGED_SETTINGS'] = join(root, 'managed', 'managed-settings.json');
  const sessionsDir = join(project, '.hookwire', 'sessions');
  const effectsFile = join(project, 'effects.log');
  const server = await startLoopbackServer();
  const counter = { value: 0 };
  let requestWaiters: (() => void)[] = [];
  const nextRequest = (): Promise<void> =>
    new Promise((resolveWait) => requestWaiters.push(resolveWait));
  server.enforceToolPairing().replyWith((request) => {
    const waiters = requestWaiters;
    requestWaiters = [];
    for (const wake of waiters) wake();
    return answer(request, counter);
  });

  const failures: string[] = [];
  let runs = 0;
  let resumes = 0;
  let kills = 0;
  let transcriptsRead = 0;
  let unreadable = 0;
  let skippedLines = 0;
  let notCompleted = 0;
  let effectsWithoutRecord = 0;
  let sessionId: string | undefined;

  const findSession = async (): Promise<string | undefined> => {
    const files = await readdir(sessionsDir).catch(() => [] as string[]);
    const transcripts = files.filter((file) => file.endsWith('.jsonl'));
    if (transcripts.length > 1)
      failures.push(`more than one transcript: ${transcripts.join(', ')}`);
    return transcripts[0]?.slice(0, -'.jsonl'.length);
  };
  const effects = async (): Promise<string[]> =>
    (await readFile(effectsFile, 'utf8').catch(() => ''))
      .split('\n')
      .filter((line) => line.trim() !== '');

  /** Reads the transcript and checks every effect against the calls on record. */
  const check = async (label: string) => {
    if (sessionId === undefined) return undefined;
    const path = join(sessionsDir, `${sessionId}.jsonl`);
    transcriptsRead++;
    let contents;
    try {
      contents = await readTranscript(path);
    } catch (error) {
      unreadable++;
      failures.push(`${label}: the transcript cannot be read: ${String(error)}`);
      return undefined;
    }
    if (contents.records.length === 0) {
      unreadable++;
      failures.push(`${label}: the transcript holds no record`);
    }
    skippedLines += contents.warnings.length;
    const calls = new Set<string>();
    for (const record of contents.records)
      if (record.type === 'message')
        for (const block of record.message.blocks)
          if (block.type === 'tool_call') calls.add(block.id);
    const missing = (await effects()).filter((id) => !calls.has(id));
    effectsWithoutRecord = Math.max(effectsWithoutRecord, missing.length);
    if (missing.length > 0)
      failures.push(`${label}: effects without a call on record: ${missing.join(', ')}`);
    return { records: contents.records, calls };
  };

  const run = async (kill: KillPoint | undefined, label: string): Promise<RunOutcome> => {
    runs++;
    if (sessionId !== undefined) resumes++;
    const streaming = random() < 0.5 ? 'on' : 'off';
    const outcome = await runCli(
      [
        'run',
        sessionId === undefined ? 'Append your call ids, step by step.' : 'Continue.',
        '--model',
        'openai-compatible:campaign',
        '--base-url',
        server.baseURL,
        '--cwd',
        project,
        '--output-format',
        'json',
        '--streaming',
        streaming,
        ...(sessionId === undefined ? [] : ['--resume', sessionId]),
      ],
      env,
      kill,
      nextRequest(),
    );
    if (outcome.killed) kills++;
    else if (outcome.code !== 0) {
      notCompleted++;
      failures.push(`${label}: not killed, exit ${String(outcome.code)}: ${outcome.stderr.trim()}`);
    }
    sessionId ??= await findSession();
    log(
      `${label}: ${outcome.killed ? `killed ${Math.round(kill?.afterMs ?? 0)} ms after its ${kill?.from ?? 'spawn'}` : `exit ${String(outcome.code)} in ${Math.round(outcome.durationMs)} ms`} (streaming ${streaming})`,
    );
    await check(label);
    return outcome;
  };

  try {
    // Calibration: one whole run, whose duration bounds the kill points.
    const calibration = await run(undefined, 'calibration');
    const span = Math.max(500, calibration.durationMs);
    // Most kill points fall in the steps (after the first model request), where tools run; the
    // rest anywhere from the spawn (startup, lock, resume). Up to 10% past the end, so some runs
    // finish before their kill point.
    const steps = Math.max(300, span - (calibration.firstRequestMs ?? 0));
    for (let attempt = 1; kills < options.kills && attempt <= options.kills * 4; attempt++) {
      const kill: KillPoint =
        random() < 0.25
          ? { afterMs: random() * span * 1.1, from: 'spawn' }
          : { afterMs: random() * steps * 1.1, from: 'first request' };
      await run(kill, `run ${attempt}`);
    }
    if (kills < options.kills) failures.push(`only ${kills} of ${options.kills} kills landed`);
    await run(undefined, 'final resume');
    const final = await check('final');
    const seen = await effects();
    let effectsWithoutResult = 0;
    let interrupted = 0;
    let resultsWithoutEffect = 0;
    if (final !== undefined) {
      const answered = new Map<string, { error?: string; result: unknown }>();
      for (const message of historyOf(final.records))
        for (const block of message.blocks)
          if (block.type === 'tool_response') answered.set(block.callId, block);
      for (const id of seen) if (!answered.has(id)) effectsWithoutResult++;
      const effectSet = new Set(seen);
      for (const [id, block] of answered) {
        if (block.error !== undefined) {
          if (/interrupted|may or may not have run/.test(block.error)) interrupted++;
          continue;
        }
        const exitCode = (block.result as { exitCode?: unknown } | null)?.exitCode;
        if (exitCode === 0 && !effectSet.has(id)) resultsWithoutEffect++;
      }
      if (effectsWithoutResult > 0)
        failures.push(`${effectsWithoutResult} effect(s) without a result`);
      if (resultsWithoutEffect > 0)
        failures.push(`${resultsWithoutEffect} result(s) without an effect`);
    }
    return {
      seed: options.seed,
      kills,
      runs,
      resumes,
      transcriptsRead,
      unreadableTranscripts: unreadable,
      skippedLines,
      resumeFailures: notCompleted + server.pairingViolations.length,
      pairingViolations: server.pairingViolations.length,
      effects: seen.length,
      recordedCalls: final?.calls.size ?? 0,
      effectsWithoutRecord,
      effectsWithoutResult,
      interruptedResults: interrupted,
      resultsWithoutEffect,
      failures: [...failures, ...server.pairingViolations.map((problem) => `400: ${problem}`)],
    };
  } finally {
    await server.close();
    // A killed run's shell command may still be finishing its pause.
    await new Promise((resolveWait) => setTimeout(resolveWait, TOOL_PAUSE_SECONDS * 1000 + 100));
    await rm(root, { recursive: true, force: true });
  }
}

/** One line per figure, as the script prints them. */
export function formatFigures(figures: CampaignFigures): string {
  return [
    `seed ${figures.seed}`,
    `kills ${figures.kills} (runs ${figures.runs}, resumes ${figures.resumes})`,
    `transcripts read ${figures.transcriptsRead}, unreadable ${figures.unreadableTranscripts}, skipped lines ${figures.skippedLines}`,
    `resume failures ${figures.resumeFailures} (pairing 400s ${figures.pairingViolations})`,
    `effects ${figures.effects}, calls on record ${figures.recordedCalls}, effects without a record ${figures.effectsWithoutRecord}, effects without a result ${figures.effectsWithoutResult}, results answered "interrupted" ${figures.interruptedResults}, results without an effect ${figures.resultsWithoutEffect}`,
  ].join('\n');
}

/** True when every failure count is 0. */
export function campaignPassed(figures: CampaignFigures): boolean {
  return (
    figures.failures.length === 0 &&
    figures.unreadableTranscripts === 0 &&
    figures.resumeFailures === 0 &&
    figures.effectsWithoutRecord === 0 &&
    figures.effectsWithoutResult === 0 &&
    figures.resultsWithoutEffect === 0
  );
}

/**
 * `--kills N --seed S` of a campaign script's command line (default 20 kills, a random seed); a
 * bad option prints why, naming `script`, and exits 2.
 */
export function campaignArguments(
  script: string,
  argv: readonly string[] = process.argv,
): { kills: number; seed: number } {
  let kills = 20;
  let seed = Math.floor(Math.random() * 2 ** 32);
  for (let index = 2; index < argv.length; index++) {
    const flag = argv[index];
    const value = Number(argv[++index]);
    if (!Number.isSafeInteger(value) || value < 0) {
      console.error(`${script}: ${String(flag)} needs a whole number`);
      process.exit(2);
    }
    if (flag === '--kills') kills = value;
    else if (flag === '--seed') seed = value;
    else {
      console.error(`${script}: unknown option ${String(flag)}; use --kills N --seed S`);
      process.exit(2);
    }
  }
  return { kills, seed };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { kills, seed } = campaignArguments('kill-campaign');
  console.log(`kill -9 campaign: ${kills} kills, seed ${seed}`);
  const figures = await runKillCampaign({
    kills,
    seed,
    log: (line) => {
      console.log(`  ${line}`);
    },
  });
  console.log(formatFigures(figures));
  for (const failure of figures.failures) console.log(`FAIL ${failure}`);
  process.exitCode = campaignPassed(figures) ? 0 : 1;
}
