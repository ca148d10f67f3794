/**
 * The Restate virtual object `hookwire-session`, keyed by session id: one session's turns,
 * one at a time (an exclusive `run`), its history in the object's state, every model call, tool
 * call and hook run a journaled step (`journal-runner.ts`). `cancel()` and `state()` are shared
 * handlers, so they answer while a turn runs.
 *
 * A turn that its worker did not finish is retried by Restate on a live worker (behind the same
 * deployment): the handler runs again from the top, the history read from state, and every step
 * the journal holds is replayed instead of run, up to the one that was running.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as restate from '@restatedev/restate-sdk';
import type { Message } from '../../content/index.ts';
import { createAgent, type AgentOptions, type RunResult } from '../../loop/index.ts';
import { toResultObject, type ResultObject } from '../../loop/result-object.ts';
import { JournalRunner } from './journal-runner.ts';
import { recoveryPolicies, type RecoveryPolicy } from './recovery.ts';

/** The object's name in Restate. */
export const SESSION_OBJECT_NAME = 'hookwire-session';

/** The input of `run`. */
export interface DurableRunInput {
  readonly prompt: string;
}

/**
 * What `run` answers: the result object `hookwire run --output-format json` prints (sessionId,
 * status, result, modelCalls, transcriptPath, reason, error, unprocessedPrompts). Its
 * `transcriptPath` is the session's transcript on the worker that ran the turn,
 * `<sessionsDir>/<id>.jsonl`, in the format of a local session (what `hookwire trace` and
 * `hooks stats` read).
 */
export type DurableResult = ResultObject;

/** What `state()` answers. */
export interface DurableSessionState {
  readonly status: 'idle' | 'running';
  /** Turns the session completed (its history holds them). */
  readonly turns: number;
  /** Messages in the history. */
  readonly messages: number;
  /** The last turn's result, if any. */
  readonly last: DurableResult | null;
}

/** Options of `sessionObject`. */
export interface SessionObjectOptions {
  /**
   * The agent of one turn of session `sessionId` (model, tools, hooks, cwd, …), built for each
   * invocation attempt; the step runner is the object's own.
   */
  readonly agent: (sessionId: string) => Omit<AgentOptions, 'stepRunner'>;
  /** Per-tool recovery overrides (the settings key `recovery`). */
  readonly recovery?: Readonly<Record<string, RecoveryPolicy>>;
  /** Where each attempt's transcript goes. Default `<cwd>/.hookwire/sessions/restate`. */
  readonly transcriptsDir?: string;
}

/** Writes `text` to `path` whole or not at all (a temporary file renamed over it). */
function writeWhole(path: string, text: string): void {
  const temporary = `${path}.${randomUUID()}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, path);
}

/**
 * Publishes a completed turn as a local session's transcript: the attempt that completed it wrote
 * `attemptPath` (its first `preamble` messages are the history it started from; every hook run of
 * the turn is in it, replayed ones included); its records after that become
 * `<dir>/<id>/turn-N.jsonl`, and `<sessionsDir>/<id>.jsonl` is rebuilt from the turn files, as a
 * resumed local transcript reads (each turn opens with its `session-start`). Both are written
 * whole, so a retried turn writes them again instead of appending twice. Returns the session
 * transcript's path.
 *
 * Synchronous, as the loop's transcript writes are: a handful of small files, where a promise
 * per open, read, write and close (each a trip through libuv's thread pool) cost a durable step
 * ~3 ms on a quiet machine and more under load.
 */
function publishTurn(options: {
  readonly attemptPath: string;
  readonly turnsDir: string;
  readonly turn: number;
  readonly preamble: number;
  readonly sessionPath: string;
}): string {
  const turnPath = join(options.turnsDir, `turn-${options.turn}.jsonl`);
  let text: string;
  if (options.preamble === 0) {
    // Nothing to strip: the attempt's file is the turn's, renamed over it whole.
    text = readFileSync(options.attemptPath, 'utf8');
    renameSync(options.attemptPath, turnPath);
  } else {
    const lines = readFileSync(options.attemptPath, 'utf8').split('\n').filter(Boolean);
    let skip = options.preamble;
    const kept = lines.filter((line) => {
      if (skip === 0) return true;
      const record = JSON.parse(line) as { readonly type?: unknown };
      if (record.type !== 'message') return true;
      skip--;
      return false;
    });
    text = `${kept.join('\n')}\n`;
    writeWhole(turnPath, text);
    rmSync(options.attemptPath, { force: true });
  }
  const turns = readdirSync(options.turnsDir)
    .map((name) => /^turn-(\d+)\.jsonl$/.exec(name)?.[1])
    .filter((number) => number !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
  const texts = turns.map((number) =>
    number === options.turn
      ? text
      : readFileSync(join(options.turnsDir, `turn-${number}.jsonl`), 'utf8'),
  );
  writeWhole(options.sessionPath, texts.join(''));
  return options.sessionPath;
}

/** The keys of the object's state. */
const STATE = {
  history: 'history',
  turns: 'turns',
  status: 'status',
  last: 'last',
  invocation: 'invocation',
} as const;

/**
 * The `hookwire-session` virtual object, to bind into a Restate endpoint:
 *
 * ```ts
 * import * as restate from '@restatedev/restate-sdk';
 * import { sessionObject } from 'hookwire/restate';
 * await restate.serve({ services: [sessionObject({ agent: () => ({ model, tools, hooks, cwd }) })] });
 * ```
 */
export function sessionObject(options: SessionObjectOptions) {
  const recovery = recoveryPolicies(options.recovery);
  return restate.object({
    name: SESSION_OBJECT_NAME,
    handlers: {
      run: async (ctx: restate.ObjectContext, input: DurableRunInput): Promise<DurableResult> => {
        const prompt = (input as DurableRunInput | null)?.prompt;
        if (typeof prompt !== 'string' || prompt.trim() === '')
          throw new restate.TerminalError('run needs { "prompt": "…" } with a non-empty prompt');
        const sessionId = ctx.key;
        const attempt = randomUUID();
        const history = (await ctx.get<Message[]>(STATE.history)) ?? [];
        const turns = (await ctx.get<number>(STATE.turns)) ?? 0;
        ctx.set(STATE.status, 'running');
        ctx.set(STATE.invocation, ctx.request().id);
        // Restate's cancellation reaches the runner first (a step's promise rejects); the run
        // may not have started yet then.
        const cancellation: { requested: boolean; cancel: (() => void) | undefined } = {
          requested: false,
          cancel: undefined,
        };
        const runner = new JournalRunner({
          ctx,
          attempt,
          recovery,
          onCancel: () => {
            cancellation.requested = true;
            cancellation.cancel?.();
          },
        });
        const agentOptions = options.agent(sessionId);
        const agent = createAgent({ ...agentOptions, stepRunner: runner });
        const dir = options.transcriptsDir ?? join(agent.sessionsDir, 'restate');
        const attemptPath = join(dir, sessionId, `turn-${turns + 1}-${attempt}.jsonl`);
        const session = await agent.openSession({
          sessionId,
          history,
          turns,
          transcriptPath: attemptPath,
        });
        let result: RunResult;
        try {
          const handle = session.run(prompt, { streaming: false });
          cancellation.cancel = () => {
            handle.cancel('cancelled through the session object');
          };
          if (cancellation.requested) cancellation.cancel();
          result = await handle.result;
        } finally {
          await session.close('exit');
        }
        // The turn's last steps are journaled before the state and the output below.
        await runner.finish();
        let transcriptPath = result.transcriptPath;
        try {
          transcriptPath = publishTurn({
            attemptPath,
            turnsDir: join(dir, sessionId),
            turn: turns + 1,
            preamble: history.length,
            sessionPath: join(agent.sessionsDir, `${sessionId}.jsonl`),
          });
        } catch (error) {
          ctx.console.warn(
            `hookwire-session ${sessionId}: the turn's transcript was not published: ${String(error)}`,
          );
        }
        const answer: DurableResult = { ...toResultObject(result), transcriptPath };
        ctx.set(STATE.history, session.history);
        ctx.set(STATE.turns, turns + 1);
        ctx.set(STATE.last, answer);
        ctx.set(STATE.status, 'idle');
        ctx.clear(STATE.invocation);
        return answer;
      },

      cancel: restate.handlers.object.shared(
        async (ctx: restate.ObjectSharedContext): Promise<{ readonly cancelled: boolean }> => {
          const invocation = await ctx.get<string>(STATE.invocation);
          const status = await ctx.get<string>(STATE.status);
          if (invocation === null || status !== 'running') return { cancelled: false };
          ctx.invocation(restate.InvocationIdParser.fromString(invocation)).cancel();
          return { cancelled: true };
        },
      ),

      state: restate.handlers.object.shared(
        async (ctx: restate.ObjectSharedContext): Promise<DurableSessionState> => {
          const history = (await ctx.get<Message[]>(STATE.history)) ?? [];
          return {
            status: (await ctx.get<string>(STATE.status)) === 'running' ? 'running' : 'idle',
            turns: (await ctx.get<number>(STATE.turns)) ?? 0,
            messages: history.length,
            last: (await ctx.get<DurableResult>(STATE.last)) ?? null,
          };
        },
      ),
    },
  });
}

/** The type of the object `sessionObject` returns (for typed clients). */
export type HookwireSessionObject = ReturnType<typeof sessionObject>;
