/**
 * Compaction, the loop's half (the pure half is `compaction.ts`): before each model call, when
 * the request would exceed the context budget (`maxContextTokens`), and once after a provider
 * rejects a request as too long (`ModelError` kind `context_length`), the history is compacted:
 *
 * 1. the cut point is chosen (the recent messages kept verbatim take at most 30 % of the budget;
 *    a tool call and its result are never split); nothing to cut: a warning, no compaction;
 * 2. `PreCompact` fires (`trigger` `auto`, or `manual` from `Session.compact`); the instructions
 *    hooks add (`additionalContext`) join the caller's; a `stop` stops the run;
 * 3. the model summarizes the older messages (one call, counted in the run's budget, through no
 *    hooks: it is the loop's own request, not the agent's);
 * 4. the history becomes the summary (as a user message) and the kept messages; the transcript
 *    records a `compaction` record with the whole new history (a resume continues from it);
 * 5. `PostCompact` fires with the trigger and the summary.
 */
import { ModelError, textOf } from '../content/index.ts';
import type { PreCompactEvent } from '../events/index.ts';
import {
  compactedHistory,
  contextTokens,
  DEFAULT_KEEP_RATIO,
  estimateFramingTokens,
  estimateMessagesTokens,
  planCompaction,
  summarizationRequest,
} from './compaction.ts';
import type { AgentConfig, RunState, TurnEnd, TurnState } from './run-state.ts';
import { isoTime } from './timestamp.ts';

/** What a compaction came to. */
export type CompactionOutcome =
  | {
      readonly kind: 'compacted';
      readonly summary: string;
      readonly tokensBefore: number;
      readonly tokensAfter: number;
      readonly summarizedMessages: number;
    }
  | { readonly kind: 'skipped'; readonly reason: string }
  | { readonly kind: 'stopped'; readonly reason: string };

/** The tokens the next request of `run` would take (usage where known, else the estimate). */
export function nextRequestTokens(run: RunState): number {
  const { config, session } = run;
  return contextTokens(
    session.history,
    estimateFramingTokens(config.tools?.declarations(), config.settings),
    session.contextUsage,
  );
}

/**
 * The context budget of a config: its `maxContextTokens`, else its model's window (a subagent's
 * config holds its own model), else none.
 */
export function contextBudget(config: AgentConfig): number | undefined {
  return config.maxContextTokens ?? config.model.contextWindow;
}

/**
 * Compacts when the next request would exceed `maxContextTokens`; `undefined` to go on with the
 * model call, or how the turn ends (a PreCompact `stop`). Within budget it answers `undefined`
 * at once, not a promise (checked before every model call).
 */
export function compactIfNeeded(
  run: RunState,
  turn: TurnState,
): Promise<TurnEnd | undefined> | undefined {
  const budget = contextBudget(run.config);
  if (budget === undefined) return undefined;
  const tokens = nextRequestTokens(run);
  if (tokens <= budget) return undefined;
  return compactHistory(run, turn, 'auto', undefined, tokens).then((outcome) =>
    compactionEnd(run, outcome),
  );
}

/**
 * After a provider rejected a request as too long: compacts (once per turn) and says whether to
 * retry the call; a PreCompact `stop` ends the turn.
 */
export async function compactAfterRejection(
  run: RunState,
  turn: TurnState,
  error: Error | undefined,
): Promise<'retry' | TurnEnd | undefined> {
  if (!(error instanceof ModelError) || error.kind !== 'context_length') return undefined;
  if (turn.compactedAfterRejection) return undefined;
  turn.compactedAfterRejection = true;
  const outcome = await compactHistory(run, turn, 'auto', undefined, nextRequestTokens(run));
  if (outcome.kind === 'compacted') return 'retry';
  return compactionEnd(run, outcome);
}

function compactionEnd(run: RunState, outcome: CompactionOutcome): TurnEnd | undefined {
  if (outcome.kind === 'stopped')
    return { status: 'stopped', reason: outcome.reason, endsRun: true };
  if (outcome.kind === 'skipped')
    run.report({ level: 'warning', text: `the history was not compacted: ${outcome.reason}` });
  return undefined;
}

/**
 * Compacts the history of `run` (see the module comment). `turn` (when a turn is running) has
 * its prompt index moved to the same message in the new history (the summary when the prompt
 * was summarized).
 */
export async function compactHistory(
  run: RunState,
  turn: TurnState | undefined,
  trigger: PreCompactEvent['trigger'],
  customInstructions: string | undefined,
  tokensBefore: number,
): Promise<CompactionOutcome> {
  const { config, session } = run;
  const budget = contextBudget(config);
  const keepTokens =
    budget === undefined
      ? Math.floor(estimateMessagesTokens(session.history) * DEFAULT_KEEP_RATIO)
      : Math.floor(budget * DEFAULT_KEEP_RATIO);
  const plan = planCompaction(session.history, keepTokens);
  if (plan === undefined)
    return { kind: 'skipped', reason: 'there is no earlier turn to summarize yet' };

  const action = await run.fire('preCompact', () => ({ trigger, customInstructions }));
  if (action?.kind === 'stop') return { kind: 'stopped', reason: action.reason };
  const added = action?.kind === 'continue' ? action.additionalContext : undefined;
  const instructions =
    [customInstructions, added].filter((part) => part !== undefined && part !== '').join('\n') ||
    undefined;

  if (!run.budget.take())
    return {
      kind: 'skipped',
      reason: `the summary needs a model call: ${run.budget.exhaustedReason()}`,
    };
  const request = summarizationRequest(config.model.modelId, plan.summarized, instructions);
  const response = await run.settle(config.model.generate(request, { signal: run.signal }));
  const summary = textOf(response.content).trim();
  if (summary === '') return { kind: 'skipped', reason: 'the model wrote an empty summary' };

  const history = compactedHistory(summary, plan.kept);
  session.history.splice(0, session.history.length, ...history);
  session.contextUsage = undefined;
  if (turn !== undefined)
    turn.promptIndex = turn.promptIndex >= plan.index ? turn.promptIndex - plan.index + 1 : 0;
  const tokensAfter = nextRequestTokens(run);
  run.record({
    type: 'compaction',
    turn: run.currentTurn,
    trigger,
    summary,
    summarizedMessages: plan.index,
    tokensBefore,
    tokensAfter,
    history,
    time: isoTime(),
  });
  session.transcript.commit();
  run.emit({
    type: 'compaction',
    trigger,
    summarizedMessages: plan.index,
    tokensBefore,
    tokensAfter,
  });
  await run.fire('postCompact', () => ({ trigger, summary, tokensBefore, tokensAfter }));
  return { kind: 'compacted', summary, tokensBefore, tokensAfter, summarizedMessages: plan.index };
}
