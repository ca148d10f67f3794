/**
 * `type: "prompt"` hooks: a model judges the event.
 *
 * - The hook's `prompt` is sent as the user message, with every `$ARGUMENTS` replaced by the
 *   payload JSON (exactly what a command hook reads on stdin); a prompt without `$ARGUMENTS` gets
 *   the payload appended. A system instruction asks for one JSON object
 *   `{ "ok": boolean, "reason"?: string }` and nothing else.
 * - `ok: true` is no opinion; `ok: false` is a denial with `reason` — on `Stop` it blocks the stop
 *   (the turn continues with the reason), on events that cannot be denied it is a warning — by the
 *   same interpretation as a command hook printing `{"decision":"deny","reason":…}`.
 * - An answer that is not that object, a model error and the deadline (the hook's `timeout`) are
 *   a failed hook: a warning, or a denial when the hook is `failClosed`.
 * - The judge is the run's model unless the hook names `model`: a bare model id is sent through
 *   the run's provider (`request.model`); `PROVIDER:MODEL` is resolved by the host's
 *   `resolveModel` (the CLI's model specs), once per spec.
 *
 * The kind receives its models from the host; it never imports a provider adapter.
 */
import type { LanguageModel, ModelRequest, ModelResponse } from '../../content/index.ts';
import type { PromptHookConfig, PromptHookRunner } from './prompt-kind.ts';
import { formatDuration } from '../duration.ts';
import type { HookAnswer, HookExecution, HookRunContext } from '../hook-kind.ts';

export interface PromptHookRunnerOptions {
  /**
   * The run's model: the judge of hooks that name no `model` (or a function giving it, asked for
   * when the first hook runs — a host may open its hooks before it resolves its model).
   */
  readonly model: LanguageModel | (() => Promise<LanguageModel>);
  /**
   * Resolves a hook `model` of the form `PROVIDER:MODEL`. Without it, such a hook answers a
   * failure; a bare model id never needs it.
   */
  readonly resolveModel?: (spec: string) => Promise<LanguageModel>;
  /** `maxOutputTokens` of a judging call. Default 512. */
  readonly maxOutputTokens?: number;
}

/** The system instruction of every judging call. */
export const PROMPT_HOOK_SYSTEM_INSTRUCTION = [
  'You are a hook of an AI agent: you judge one event of its run (the JSON the user message gives) against the instruction in the user message.',
  'Answer with one JSON object and nothing else: {"ok": true} when the event may proceed, or {"ok": false, "reason": "…"} when it must not, with a short reason the agent will be shown.',
].join('\n');

/** The user message of a judging call: `$ARGUMENTS` replaced, or the payload appended. */
export function promptHookMessage(prompt: string, payloadJson: string): string {
  return prompt.includes('$ARGUMENTS')
    ? prompt.replaceAll('$ARGUMENTS', payloadJson)
    : `${prompt}\n\nARGUMENTS: ${payloadJson}`;
}

/** A verdict decoded from a judge's text, or why it is not one. */
export type PromptVerdict =
  | { readonly ok: true; readonly verdict: { readonly ok: boolean; readonly reason?: string } }
  | { readonly ok: false; readonly problem: string };

/**
 * Reads `{ "ok": boolean, "reason"?: string }` from a model's text: the whole text, or the first
 * `{…}` in it (models wrap JSON in prose or code fences).
 */
export function decodePromptVerdict(text: string): PromptVerdict {
  const trimmed = text.trim();
  const candidates = [trimmed];
  const start = trimmed.indexOf('{');
  const end = trimmed.lastIndexOf('}');
  if (start !== -1 && end > start) candidates.push(trimmed.slice(start, end + 1));
  for (const candidate of candidates) {
    let value: unknown;
    try {
      value = JSON.parse(candidate);
    } catch {
      continue;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) continue;
    const { ok, reason } = value as { ok?: unknown; reason?: unknown };
    if (typeof ok !== 'boolean') return { ok: false, problem: 'its answer has no boolean "ok"' };
    if (reason !== undefined && typeof reason !== 'string')
      return { ok: false, problem: 'its answer\'s "reason" is not a string' };
    return { ok: true, verdict: reason === undefined ? { ok } : { ok, reason } };
  }
  const shown = trimmed.length > 120 ? `${trimmed.slice(0, 120)}…` : trimmed;
  return {
    ok: false,
    problem: `its answer is not a JSON object {"ok": boolean, "reason"?: string}: ${JSON.stringify(shown)}`,
  };
}

function textOf(response: ModelResponse): string {
  return response.content.blocks.map((block) => (block.type === 'text' ? block.text : '')).join('');
}

/** Creates the runner of `type: "prompt"` hooks. */
export function createPromptHookRunner(options: PromptHookRunnerOptions): PromptHookRunner {
  const resolved = new Map<string, Promise<LanguageModel>>();
  const given = options.model;
  let runModel: Promise<LanguageModel> | undefined;
  const theRunModel = (): Promise<LanguageModel> =>
    (runModel ??= typeof given === 'function' ? given() : Promise.resolve(given));

  function judgeOf(hook: PromptHookConfig): {
    model: LanguageModel | Promise<LanguageModel>;
    id: string;
  } {
    const spec = hook.model;
    if (spec === undefined) return { model: theRunModel(), id: '' };
    if (!spec.includes(':')) return { model: theRunModel(), id: spec };
    const resolve = options.resolveModel;
    if (resolve === undefined)
      return {
        model: Promise.reject(new Error(`this host cannot resolve the model "${spec}"`)),
        id: '',
      };
    let model = resolved.get(spec);
    if (model === undefined) {
      model = resolve(spec);
      resolved.set(spec, model);
    }
    return { model, id: '' };
  }

  return {
    async run(hook: PromptHookConfig, context: HookRunContext): Promise<HookExecution> {
      const started = performance.now();
      const done = (answer: HookAnswer): HookExecution => ({
        answer,
        durationMs: performance.now() - started,
      });
      const deadline = AbortSignal.timeout(hook.timeoutMs);
      const signal =
        context.signal === undefined ? deadline : AbortSignal.any([deadline, context.signal]);
      let text: string;
      try {
        const judge = judgeOf(hook);
        const model = await judge.model;
        const request: ModelRequest = {
          model: judge.id === '' ? model.modelId : judge.id,
          contents: [
            {
              speaker: 'human',
              blocks: [{ type: 'text', text: promptHookMessage(hook.prompt, context.input) }],
            },
          ],
          settings: {
            systemInstruction: PROMPT_HOOK_SYSTEM_INSTRUCTION,
            maxOutputTokens: options.maxOutputTokens ?? 512,
          },
        };
        text = textOf(await model.generate(request, { signal }));
      } catch (error) {
        if (deadline.aborted)
          return done({
            kind: 'failure',
            status: 'timeout',
            what: `timed out after ${formatDuration(hook.timeoutMs)}`,
          });
        if (context.signal?.aborted === true)
          return done({
            kind: 'failure',
            status: 'error',
            what: 'was cancelled before it answered',
          });
        const message = error instanceof Error ? error.message : String(error);
        return done({
          kind: 'failure',
          status: 'error',
          what: `could not ask its model: ${message}`,
        });
      }
      const decoded = decodePromptVerdict(text);
      if (!decoded.ok) return done({ kind: 'failure', status: 'warning', what: decoded.problem });
      const { verdict } = decoded;
      if (verdict.ok) return done({ kind: 'json', value: null });
      return done({
        kind: 'json',
        value: {
          decision: 'deny',
          reason:
            verdict.reason ?? `the prompt hook "${hook.name}" judged it not ok (no reason given)`,
        },
      });
    },
  };
}
