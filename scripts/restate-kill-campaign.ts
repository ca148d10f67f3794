/**
 * The durable kill campaign (issue 33): the real restate-server (`test/support/restate-cluster.ts`,
 * on loopback in its own mount namespace, root only), two `hookwire worker` processes of the built
 * CLI behind one balancer, a loopback model answering from the request, and sessions
 * `session S steps N` run one after another through the session object `hookwire-session`. Each
 * step is a `shell` call appending `S call_K` to an effects file; PreToolUse, PostToolUse and Stop
 * command hooks append `EVENT KEY SESSION WORKER` to a hook log, and each shell call appends
 * `tool CALL SESSION WORKER` to the same log, so the log orders what each worker did.
 *
 * At seeded random points of a session the worker serving it (the one that wrote its latest log
 * line) is SIGKILLed and a fresh worker is started behind the balancer, so two always serve; a
 * session may be killed more than once. Then it counts:
 * - lost sessions: a session whose `run` did not answer a completed result;
 * - duplicated effects: under `report` (the default), an effects line written twice (a `report`
 *   call never runs twice, completed or not); under `rerun`, a call that completed more than once
 *   (a call killed while it ran runs again by design, so its line may be there twice: counted as
 *   rerun calls). A run of a call completed when its worker logged a line of a later step (not
 *   the call's own PostToolUse, which shares its journal entry) before it was killed, or finished
 *   the session;
 * - misanswered calls: a call with an effect but no result, a successful result without its
 *   effect, or an error result other than the "interrupted" one (the `report` policy's answer;
 *   under `rerun` every error counts);
 * - duplicated hook runs: a hook run (event + tool call) logged as completed more than once. A
 *   logged run is completed when the same worker logged a later line of that session before it
 *   was killed (a step starts only once the previous `ctx.run` is journaled), or when its worker
 *   finished the session. A run a killed worker was in the middle of is run again by design.
 *
 * `node scripts/restate-kill-campaign.ts [--kills N] [--seed S] [--policy report|rerun]` (default
 * 20 kills, a random seed, the `shell` tool's recovery policy `report`; the seed is printed, and
 * the same seed draws the same kill points). Needs `npm run build`
 * (the workers are `dist/bin/hookwire.js`). Exit 1 when a count is not 0, 2 when it cannot run.
 * `test/restate/kill-campaign.test.ts` runs it with 20 kills.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { INTERRUPTED_CALL, type RecoveryPolicy } from '../src/adapters/restate/index.ts';
import { historyOf, readTranscript } from '../src/loop/index.ts';
import { startDurableFixture, type DurableFixture } from '../test/support/durable-fixture.ts';
import { restateUnavailable } from '../test/support/restate-cluster.ts';
import { campaignArguments, prng } from './kill-campaign.ts';

/** Tool calls per session before the model answers. */
const STEPS = 4;
/** Seconds each shell call sleeps after its effect: the window a kill leaves a call unanswered. */
const TOOL_PAUSE_SECONDS = 0.3;
/** At most this many kills land in one session. */
const KILLS_PER_SESSION = 3;
/** How long a session may take before it counts as lost. */
const SESSION_TIMEOUT_MS = 120_000;

/** Logs each hook run: `EVENT KEY SESSION WORKER` (KEY: the tool call id, `-` for Stop). */
const HOOK_LOG_COMMAND = `node -e "const p=JSON.parse(require('fs').readFileSync(0,'utf8'));require('fs').appendFileSync(process.env.HOOK_LOG, p.hook_event_name+' '+(p.tool_call_id??'-')+' '+p.session_id+' '+process.env.HOOKWIRE_TEST_WORKER+'\\\\n')"`;

/** The project's settings: hooks that log, and the `shell` tool's recovery policy. */
function settings(policy: RecoveryPolicy) {
  return {
    passEnvironment: ['HOOKWIRE_TEST_WORKER'],
    recovery: { shell: policy },
    hooks: Object.fromEntries(
      ['PreToolUse', 'PostToolUse', 'Stop'].map((event) => [
        event,
        [{ hooks: [{ type: 'command', command: HOOK_LOG_COMMAND }] }],
      ]),
    ),
  };
}

export interface RestateCampaignOptions {
  /** SIGKILLs to deliver (a kill point a session finished before does not count). */
  readonly kills: number;
  readonly seed: number;
  /** The `shell` tool's recovery policy (default `report`). */
  readonly policy?: RecoveryPolicy;
  readonly log?: (line: string) => void;
}

export interface RestateCampaignFigures {
  readonly seed: number;
  readonly policy: RecoveryPolicy;
  readonly sessions: number;
  readonly kills: number;
  /** Workers started in all (two, plus one per kill). */
  readonly workersStarted: number;
  readonly lostSessions: number;
  /** Effects lines written more than once (each extra line counts). */
  readonly duplicatedEffects: number;
  /** Calls answered "interrupted" (their worker died while they ran; `report`). */
  readonly interruptedCalls: number;
  /** Runs of calls started again after their worker died while they ran (`rerun`). */
  readonly rerunCalls: number;
  /** Effects without a result, results without their effect, errors other than "interrupted". */
  readonly misansweredCalls: number;
  /** Hook runs logged in all, and completed ones logged more than once (each extra counts). */
  readonly hookRuns: number;
  readonly duplicatedHookRuns: number;
  /** Hook runs logged again because their worker died while they ran (allowed). */
  readonly rerunHookRuns: number;
  readonly failures: readonly string[];
}

interface LogLine {
  readonly kind: string;
  readonly key: string;
  readonly session: string;
  readonly worker: string;
  /** The line's index in the whole log. */
  readonly index: number;
}

async function logLines(file: string): Promise<LogLine[]> {
  return (await readFile(file, 'utf8').catch(() => ''))
    .split('\n')
    .filter((line) => line !== '')
    .map((line, index) => {
      const [kind = '', key = '', session = '', worker = ''] = line.split(' ');
      return { kind, key, session, worker, index };
    });
}

async function runSession(fixture: DurableFixture, id: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${fixture.restate.ingress}/hookwire-session/${id}/run`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ prompt: `session ${id} steps ${STEPS}` }),
    signal: AbortSignal.timeout(SESSION_TIMEOUT_MS),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`HTTP ${response.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/** Resolves once `done` is true, checking every 20 ms (the log is the execution's record). */
async function until(done: () => Promise<boolean>, settled: { value: boolean }): Promise<boolean> {
  for (;;) {
    if (settled.value) return false;
    if (await done()) return true;
    await new Promise((resolveWait) => setTimeout(resolveWait, 20));
  }
}

/** Runs the campaign in a fresh temporary directory, removed at the end. */
export async function runRestateKillCampaign(
  options: RestateCampaignOptions,
): Promise<RestateCampaignFigures> {
  const log = options.log ?? (() => undefined);
  const policy = options.policy ?? 'report';
  const random = prng(options.seed);
  const root = await mkdtemp(join(tmpdir(), 'hookwire-restate-campaign-'));
  const failures: string[] = [];
  let fixture: DurableFixture | undefined;
  let sessions = 0;
  let kills = 0;
  let lost = 0;
  let duplicatedEffects = 0;
  let interrupted = 0;
  let rerunCalls = 0;
  let misanswered = 0;
  let duplicatedHookRuns = 0;
  let rerunHookRuns = 0;
  try {
    fixture = await startDurableFixture(root, {
      settings: settings(policy),
      sleep: TOOL_PAUSE_SECONDS,
      toolLog: true,
    });
    const current = fixture;

    /** Runs session `id`, killing its worker at up to `planned` seeded points. */
    const session = async (id: string, planned: number) => {
      sessions++;
      const settled = { value: false };
      // Read through a function: the flag changes while this function awaits.
      const finished = (): boolean => settled.value;
      const started = performance.now();
      const pending = runSession(current, id).finally(() => {
        settled.value = true;
      });
      pending.catch(() => undefined);
      /** Kill position in the log of each killed worker (its later lines are orphans'). */
      const killedAt = new Map<string, number>();
      let seen = 0;
      for (let kill = 0; kill < planned && !finished(); kill++) {
        // Armed from the session's first line on a live worker after the previous kill.
        const live = await until(async () => {
          const lines = (await logLines(current.hookLog)).filter(
            (line) => line.session === id && line.index >= seen && !killedAt.has(line.worker),
          );
          return lines.length > 0;
        }, settled);
        if (!live) break;
        const delay = random() * (STEPS * (TOOL_PAUSE_SECONDS * 1000 + 400));
        await new Promise((resolveWait) => setTimeout(resolveWait, delay));
        if (finished()) break;
        const lines = await logLines(current.hookLog);
        const latest = lines.filter((line) => line.session === id).at(-1);
        const victim = current.workers.find(
          (worker) => worker.tag === latest?.worker && worker.process.exitCode === null,
        );
        if (victim === undefined || latest === undefined) break;
        current.balancer.remove(victim.port);
        await victim.kill('SIGKILL');
        const position = (await logLines(current.hookLog)).length;
        killedAt.set(victim.tag, position);
        seen = position;
        kills++;
        log(
          `${id}: SIGKILL ${victim.tag} ${Math.round(delay)} ms after its line "${latest.kind} ${latest.key}"`,
        );
        const fresh = await current.addWorker();
        log(`${id}: started ${fresh.tag}`);
      }
      let result: Record<string, unknown>;
      try {
        result = await pending;
      } catch (error) {
        lost++;
        failures.push(`${id}: lost (${error instanceof Error ? error.message : String(error)})`);
        return;
      }
      if (result.status !== 'completed') {
        lost++;
        failures.push(`${id}: ended ${String(result.status)}: ${JSON.stringify(result)}`);
        return;
      }
      log(
        `${id}: completed in ${Math.round(performance.now() - started)} ms: ${String(result.result).slice(0, 40)}`,
      );

      // Effects: each call's line once; under `rerun`, each call completed once.
      const lines = (await logLines(current.hookLog)).filter((line) => line.session === id);
      const finisher = lines.filter((line) => !killedAt.has(line.worker)).at(-1)?.worker;
      /** Whether the worker of `line` went on past it (so what it logged was journaled). */
      const wentOn = (line: LogLine, step: (later: LogLine) => boolean = () => true): boolean => {
        const killed = killedAt.get(line.worker);
        if (killed === undefined) return line.worker === finisher;
        if (line.index >= killed) return false;
        return lines.some(
          (later) =>
            later.worker === line.worker &&
            later.index > line.index &&
            later.index < killed &&
            step(later),
        );
      };
      const effects = (await current.effectLines()).filter((line) => line.startsWith(`${id} `));
      const counted = new Map<string, number>();
      for (const line of effects) counted.set(line, (counted.get(line) ?? 0) + 1);
      for (const [line, count] of counted) {
        if (count === 1) continue;
        if (policy === 'report') {
          duplicatedEffects += count - 1;
          failures.push(`${id}: effect "${line}" ${count} times`);
          continue;
        }
        const call = line.slice(id.length + 1);
        const runs = lines.filter((logged) => logged.kind === 'tool' && logged.key === call);
        const completed = runs.filter((run) =>
          wentOn(run, (later) => !(later.kind === 'PostToolUse' && later.key === call)),
        );
        rerunCalls += count - 1;
        if (completed.length > 1) {
          duplicatedEffects += completed.length - 1;
          failures.push(
            `${id}: ${call} completed ${completed.length} times (${completed.map((run) => run.worker).join(', ')})`,
          );
        }
      }

      // Answers: every call with an effect answered, per the `report` policy.
      const transcript = await readTranscript(String(result.transcriptPath));
      const answers = new Map<string, { readonly error?: string; readonly result: unknown }>();
      for (const message of historyOf(transcript.records))
        for (const block of message.blocks)
          if (block.type === 'tool_response') answers.set(block.callId, block);
      for (const line of counted.keys()) {
        const call = line.slice(id.length + 1);
        if (!answers.has(call)) {
          misanswered++;
          failures.push(`${id}: ${call} ran but has no result`);
        }
      }
      for (const [call, answer] of answers) {
        if (answer.error !== undefined) {
          if (policy === 'report' && answer.error.includes(INTERRUPTED_CALL)) interrupted++;
          else {
            misanswered++;
            failures.push(`${id}: ${call} answered with an error: ${answer.error}`);
          }
          continue;
        }
        if (!counted.has(`${id} ${call}`)) {
          misanswered++;
          failures.push(`${id}: ${call} answered as run, but its effect is missing`);
        }
      }

      // Hook runs: each completed one logged once.
      const completed = (line: LogLine): boolean => wentOn(line);
      const runs = new Map<string, LogLine[]>();
      for (const line of lines) {
        if (line.kind === 'tool') continue;
        const key = `${line.kind} ${line.key}`;
        runs.set(key, [...(runs.get(key) ?? []), line]);
      }
      for (const [key, logged] of runs) {
        const done = logged.filter(completed);
        if (done.length > 1) {
          duplicatedHookRuns += done.length - 1;
          failures.push(
            `${id}: hook run "${key}" completed ${done.length} times (${done.map((line) => line.worker).join(', ')})`,
          );
        }
        // A run logged once and not classed completed (the last line of a worker killed right
        // after it) was journaled and replayed, or run again: either way once in the log.
        rerunHookRuns += logged.length - 1;
      }
    };

    // Sessions until the kills are delivered; each plans 1 to KILLS_PER_SESSION kills.
    for (let index = 1; kills < options.kills && index <= options.kills * 4; index++) {
      const planned = Math.min(options.kills - kills, 1 + Math.floor(random() * KILLS_PER_SESSION));
      await session(`s${index}`, planned);
    }
    if (kills < options.kills) failures.push(`only ${kills} of ${options.kills} kills landed`);
    const hookRuns = (await logLines(current.hookLog)).filter((line) => line.kind !== 'tool');
    return {
      seed: options.seed,
      policy,
      sessions,
      kills,
      workersStarted: current.workers.length,
      lostSessions: lost,
      duplicatedEffects,
      interruptedCalls: interrupted,
      rerunCalls,
      misansweredCalls: misanswered,
      hookRuns: hookRuns.length,
      duplicatedHookRuns,
      rerunHookRuns,
      failures,
    };
  } finally {
    await fixture?.stop();
    // A killed worker's shell command may still be finishing its pause.
    await new Promise((resolveWait) => setTimeout(resolveWait, TOOL_PAUSE_SECONDS * 1000 + 200));
    await rm(root, { recursive: true, force: true });
  }
}

/** The figures, as the script prints them. */
export function formatRestateFigures(figures: RestateCampaignFigures): string {
  return [
    `seed ${figures.seed}, shell recovery policy ${figures.policy}`,
    `sessions ${figures.sessions}, kills ${figures.kills} (workers started ${figures.workersStarted})`,
    `lost sessions ${figures.lostSessions}`,
    `duplicated effects ${figures.duplicatedEffects}, calls answered "interrupted" ${figures.interruptedCalls}, calls run again ${figures.rerunCalls}, misanswered calls ${figures.misansweredCalls}`,
    `hook runs ${figures.hookRuns}, duplicated hook runs ${figures.duplicatedHookRuns}, hook runs rerun after a kill ${figures.rerunHookRuns}`,
  ].join('\n');
}

/** True when every failure count is 0. */
export function restateCampaignPassed(figures: RestateCampaignFigures): boolean {
  return (
    figures.failures.length === 0 &&
    figures.lostSessions === 0 &&
    figures.duplicatedEffects === 0 &&
    figures.misansweredCalls === 0 &&
    figures.duplicatedHookRuns === 0
  );
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const argv = [...process.argv];
  const at = argv.indexOf('--policy');
  const policy = at < 0 ? 'report' : argv.splice(at, 2)[1];
  if (policy !== 'report' && policy !== 'rerun') {
    console.error(`restate-kill-campaign: --policy takes report or rerun, got ${String(policy)}`);
    process.exit(2);
  }
  const { kills, seed } = campaignArguments('restate-kill-campaign', argv);
  const unavailable = restateUnavailable();
  if (unavailable !== undefined) {
    console.error(`restate-kill-campaign: cannot run: ${unavailable}`);
    process.exit(2);
  }
  console.log(
    `durable kill campaign: ${kills} kills across two workers, shell ${policy}, seed ${seed}`,
  );
  const figures = await runRestateKillCampaign({
    kills,
    seed,
    policy,
    log: (line) => {
      console.log(`  ${line}`);
    },
  });
  console.log(formatRestateFigures(figures));
  for (const failure of figures.failures) console.log(`FAIL ${failure}`);
  process.exitCode = restateCampaignPassed(figures) ? 0 : 1;
}
