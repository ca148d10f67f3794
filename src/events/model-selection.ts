/**
 * `modelSelection` (in-process only): which model answers this call. Fires synchronously after
 * completion-call hooks proceed, before the request is prepared.
 */
import type { LanguageModel, Message } from '../content/index.ts';
import { NEXT, type EventDefinition } from './define-event.ts';
import type { RequestPatch } from './request-patch.ts';
import { CONTINUE } from './shared.ts';

/**
 * Fires synchronously after completion-call hooks proceed, before the request is prepared.
 * `selected` is the candidate after every earlier selection hook.
 */
export interface ModelSelectionEvent {
  readonly prompt: Message;
  readonly history: readonly Message[];
  /** The merged patch of this step's completion-call hooks, when any hook patched. */
  readonly requestPatch: RequestPatch | undefined;
  /** The model of the previous issued attempt in this run, if any. */
  readonly previousModel: LanguageModel | undefined;
  readonly defaultModel: LanguageModel;
  readonly selected: LanguageModel;
}

/**
 * Model selection (synchronous). Selections chain: each hook sees the candidate chosen before it;
 * the last selection wins; a stop is terminal.
 */
export type ModelSelectionAction =
  | { readonly kind: 'continue' }
  | { readonly kind: 'select'; readonly model: LanguageModel }
  | { readonly kind: 'stop'; readonly reason: string };
export const ModelSelectionAction = {
  continue: (): ModelSelectionAction => CONTINUE,
  select: (model: LanguageModel): ModelSelectionAction => ({ kind: 'select', model }),
  stop: (reason: string): ModelSelectionAction => ({ kind: 'stop', reason }),
} as const;

interface SelectionState {
  selected: LanguageModel | undefined;
  event: ModelSelectionEvent | undefined;
}

/** Selections chain; the last selection wins; the first stop is terminal. Synchronous only. */
export const modelSelection: EventDefinition<
  'modelSelection',
  'onModelSelection',
  ModelSelectionEvent,
  ModelSelectionAction,
  undefined,
  true
> = {
  kind: 'modelSelection',
  method: 'onModelSelection',
  synchronous: true,
  actionKinds: ['continue', 'select', 'stop'],
  compose: {
    proceed: CONTINUE,
    start: (): SelectionState => ({ selected: undefined, event: undefined }),
    accept(state: SelectionState, action) {
      if (action.kind === 'stop') return action;
      if (action.kind === 'select') {
        state.selected = action.model;
        state.event = undefined;
      }
      return NEXT;
    },
    eventFor(state: SelectionState, event) {
      if (state.selected === undefined) return event;
      return (state.event ??= { ...event, selected: state.selected });
    },
    finish: (state: SelectionState) =>
      state.selected === undefined
        ? ModelSelectionAction.continue()
        : ModelSelectionAction.select(state.selected),
  },
  external: undefined,
};
