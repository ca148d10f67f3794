/**
 * The `prompt` hook kind: a model judges the event (see `prompt-hook-runner.ts`). The judge
 * belongs to the hook session: `open` creates the runner from the host's models (the run's model
 * for hooks that name none, `resolveModel` for `PROVIDER:MODEL`); a host that gives no model
 * makes every prompt hook a failed hook (a warning, or a denial when it fails closed).
 */
import { z } from 'zod';
import { lazy } from '../../wire/lazy.ts';
import type { HookConfigBase, HookKind, HookKindRunner } from '../hook-kind.ts';
import { commonConfigFields, failureAnswer } from '../hook-kind.ts';
import { interpretExecution } from '../hook-run.ts';
import { commonHookFields } from '../common-hook-fields.ts';
import { defaultHookName } from '../default-hook-name.ts';

/** One `type: "prompt"` hook: a model judges the event and answers `{ ok, reason? }`. */
export interface PromptHookConfig extends HookConfigBase {
  readonly type: 'prompt';
  /** The instruction; `$ARGUMENTS` is replaced by the payload JSON (appended when absent). */
  readonly prompt: string;
  /** The judging model (a model id, or PROVIDER:MODEL); the run's model when absent. */
  readonly model?: string;
}

/** The runner of prompt hooks (see `createPromptHookRunner`). */
export type PromptHookRunner = HookKindRunner<PromptHookConfig>;

/** One prompt hook: a model judges the event. */
export const promptHookSchema = lazy(() =>
  z
    .strictObject({
      type: z.literal('prompt').meta({
        description:
          'A model judges the event and answers {"ok": boolean, "reason"?: string}; not ok denies (or blocks a Stop) with the reason.',
      }),
      prompt: z.string().regex(/\S/).meta({
        description:
          'The instruction to the judging model; $ARGUMENTS is replaced by the event payload JSON (appended when absent).',
      }),
      model: z.string().regex(/\S/).optional().meta({
        description:
          "The judging model: a model id on the run's provider, or PROVIDER:MODEL. Default the run's model.",
      }),
      ...commonHookFields('the prompt (first 40 characters)'),
    })
    .meta({ id: 'SettingsPromptHook', description: 'A prompt hook.' }),
);

export const promptKind: HookKind<PromptHookConfig, PromptHookRunner | undefined> = {
  type: 'prompt',
  // Built on first read: a run that validates no settings file builds no schema.
  get schema() {
    return promptHookSchema();
  },
  parse(entry, common) {
    const prompt = typeof entry['prompt'] === 'string' ? entry['prompt'] : '';
    const model = entry['model'];
    return {
      type: 'prompt',
      name: common.name ?? defaultHookName(prompt),
      prompt,
      ...(typeof model === 'string' ? { model } : {}),
      ...commonConfigFields(common),
    };
  },
  target: (hook) => hook.prompt,
  async open(_configs, host) {
    const { promptModel, resolveModel } = host;
    if (promptModel === undefined) return { state: undefined, close: () => Promise.resolve() };
    const { createPromptHookRunner } = await import('./prompt-hook-runner.ts');
    return {
      state: createPromptHookRunner({
        model: promptModel,
        ...(resolveModel === undefined ? {} : { resolveModel }),
      }),
      close: () => Promise.resolve(),
    };
  },
  async run(hook, request) {
    const judge = request.kinds?.get(promptKind);
    const execution =
      judge === undefined
        ? {
            answer: failureAnswer(
              'error',
              'could not run: this host gives prompt hooks no model to judge with',
            ),
            durationMs: 0,
          }
        : await judge.run(hook, request);
    return interpretExecution(request, hook, hook.prompt, execution);
  },
};
