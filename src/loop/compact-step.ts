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
 *    The summary must be text: an answer with a tool call is asked again once, then the
 *    compaction is skipped with a warning saying so;
 * 4. the history becomes the summary (as a user message) and the kept messages. When that is
 *    still over the budget (the kept messages hold a huge tool result), the kept tool results are
 *    cut, oldest first, each with a note, with a warning; a compaction that would not make the
 *    history smaller is not applied (a warning says so). The transcript records a `compaction`
 *    record with the whole new history (a resume continues from it);
 * 5. `PostCompact` fires with the trigger and the summary.
 *
 * An automatic compaction that leaves the next request over the budget all the same (the
 * system prompt, the tools or the prompt alone exceed it) fails the run with
 * `context_budget_exceeded`, naming the figures: the request is not sent over the budget silently.
 */
import { ModelError, textOf, type ModelRequest } from '../content/index.ts';
import type { PreCompactEvent } from '../events/index.ts';
import {
  compactedHistory,
  contextTokens,
  cutToolResults,
  DEFAULT_KEEP_RATIO,
  estimateFramingTokens,
  estimateMessagesTokens,
  planCompaction,
  summarizationRequest,
} from './compaction.ts';
import { LoopError } from './loop-error.ts';
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
  return compactHistory(run, turn, 'auto', undefined, tokens).then((outcome) => {
    if (outcome.kind !== 'compacted') return compactionEnd(run, outcome, budget);
    const after = nextRequestTokens(run);
    if (after <= budget) return undefined;
    const framing = estimateFramingTokens(run.config.tools?.declarations(), run.config.settings);
    const error = new LoopError(
      'context_budget_exceeded',
      `the history was compacted (${tokens} → ${after} estimated tokens), but the next request is still over the context budget of ${budget} tokens: the system prompt and tool declarations take ${framing} and the messages kept after the summary ${after - framing}; raise the budget (--max-context-tokens, the maxContextTokens setting) or shorten the prompt, the system prompt or the instructions`,
    );
    return { status: 'failed', reason: error.message, error, endsRun: true };
  });
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

function compactionEnd(
  run: RunState,
  outcome: CompactionOutcome,
  budget?: number,
): TurnEnd | undefined {
  if (outcome.kind === 'stopped')
    return { status: 'stopped', reason: outcome.reason, endsRun: true };
  if (outcome.kind === 'skipped') {
    const tokens = nextRequestTokens(run);
    run.report({
      level: 'warning',
      text: `the history was not compacted: ${outcome.reason}${budget !== undefined && tokens > budget ? `; the next request (${tokens} estimated tokens) goes out over the context budget of ${budget}` : ''}`,
    });
  }
  return undefined;
}

/** The instruction added when a summary request was answered with a tool call. */
const TEXT_ONLY = 'Answer with the summary as plain text. Do not call any tool.';

/**
 * Asks the model for the summary: its text, or why there is none (the run's model-call budget
 * is spent, an empty answer, or a tool call twice — the second request says to answer in text).
 */
async function summaryOf(
  run: RunState,
  request: ModelRequest,
): Promise<{ readonly summary: string } | { readonly kind: 'skipped'; readonly reason: string }> {
  let asked = request;
  for (let attempt = 1; ; attempt++) {
    if (!run.budget.take())
      return {
        kind: 'skipped',
        reason: `the summary needs a model call: ${run.budget.exhaustedReason()}`,
      };
    const response = await run.settle(run.config.model.generate(asked, { signal: run.signal }));
    const calls = response.content.blocks.flatMap((block) =>
      block.type === 'tool_call' ? [block.name] : [],
    );
    if (calls.length === 0) {
      const summary = textOf(response.content).trim();
      if (summary === '') return { kind: 'skipped', reason: 'the model wrote an empty summary' };
      return { summary };
    }
    const what = `the model answered the summary request with a tool call (${calls.join(', ')}) instead of text`;
    if (attempt >= 2) return { kind: 'skipped', reason: `${what}, twice; a summary must be text` };
    run.report({ level: 'warning', text: `${what}; asking once more for text` });
    const [first, ...rest] = asked.contents;
    asked = {
      ...asked,
      contents: [
        first === undefined
          ? { speaker: 'human', blocks: [{ type: 'text', text: TEXT_ONLY }] }
          : { ...first, blocks: [...first.blocks, { type: 'text', text: `\n${TEXT_ONLY}` }] },
        ...rest,
      ],
    };
  }
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

  const answer = await summaryOf(
    run,
    summarizationRequest(config.model.modelId, plan.summarized, instructions),
  );
  if ('kind' in answer) return answer;
  const { summary } = answer;

  // The new history, estimated as the old one is: never larger, and under the budget when the
  // kept messages allow it (their oldest tool results cut, with a note, when they alone do not).
  const framing = estimateFramingTokens(config.tools?.declarations(), config.settings);
  const estimateBefore = framing + estimateMessagesTokens(session.history);
  let kept = plan.kept;
  let estimateAfter = framing + estimateMessagesTokens(compactedHistory(summary, kept));
  if (budget !== undefined && estimateAfter > budget) {
    // Down to 90 % of the budget, so the next answer does not compact again at once.
    const cut = cutToolResults(kept, estimateAfter - Math.floor(budget * 0.9), budget);
    if (cut.cut > 0) {
      kept = cut.messages;
      estimateAfter = framing + estimateMessagesTokens(compactedHistory(summary, kept));
      run.report({
        level: 'warning',
        text: `compaction cut ${cut.cut} tool result${cut.cut === 1 ? '' : 's'} of the recent messages (about ${cut.savedTokens} tokens), each with a note, to fit the context budget of ${budget} tokens`,
      });
    }
  }
  if (estimateAfter >= estimateBefore)
    return {
      kind: 'skipped',
      reason: `the summary would not make the history smaller (${estimateBefore} → ${estimateAfter} estimated tokens)`,
    };

  const history = compactedHistory(summary, kept);
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
