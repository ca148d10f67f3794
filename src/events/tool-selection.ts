/**
 * `toolSelection` (external `BeforeToolSelection`): before each model call, on the tool list.
 */
import type { ModelRequest, ToolChoice, ToolDeclaration } from '../content/index.ts';
import {
  aggregateToolChoice,
  hookToolSelectionRequestInputSchema,
  toHookLLMRequest,
  toolChoiceSchema,
  type HookLLMRequest,
} from '../wire/index.ts';
import { NEXT, type EventDefinition, type ExternalSide } from './define-event.ts';
import { CONTINUE } from './shared.ts';

/** Fires before each model call on the tool list (external `BeforeToolSelection`). */
export interface ToolSelectionEvent {
  readonly request: ModelRequest;
  readonly tools: readonly ToolDeclaration[];
  /** The tool choice in force before hooks (from settings or an earlier patch). */
  readonly toolChoice: ToolChoice | undefined;
}

/**
 * Before each model call, on the tool list. Choices combine across hooks: `none` > `required` >
 * `auto`; explicit allowlists intersect (names compared case-insensitively, the result sorted and
 * spelled as the tools are declared); an omitted list is unrestricted.
 */
export type ToolSelectionAction =
  { readonly kind: 'continue' } | { readonly kind: 'choose'; readonly toolChoice: ToolChoice };
export const ToolSelectionAction = {
  continue: (): ToolSelectionAction => CONTINUE,
  choose: (toolChoice: ToolChoice): ToolSelectionAction => ({ kind: 'choose', toolChoice }),
} as const;

/** The payload fields of `BeforeToolSelection`. */
export interface BeforeToolSelectionInput {
  readonly llm_request: HookLLMRequest & { readonly tools: readonly ToolDeclaration[] };
}

/** The `hookSpecificOutput` of `BeforeToolSelection`. */
export interface BeforeToolSelectionOutput {
  readonly toolChoice?: ToolChoice;
}

/** One dispatch's choices, and the tools the request declares (their names are the spelling). */
interface SelectionState {
  readonly choices: ToolChoice[];
  readonly tools: readonly ToolDeclaration[];
}

type External = ExternalSide<
  'BeforeToolSelection',
  ToolSelectionEvent,
  ToolSelectionAction,
  BeforeToolSelectionInput,
  BeforeToolSelectionOutput
>;

/**
 * Choices aggregate (`aggregateToolChoice`): `none` > `required` > `auto`; allowlists intersect
 * case-insensitively and come back sorted, in the declared tools' spelling (`["Read_File"]` and
 * `["read_file"]` allow the declared `read_file`); omitted = unrestricted.
 */
export const toolSelection: EventDefinition<
  'toolSelection',
  'onToolSelection',
  ToolSelectionEvent,
  ToolSelectionAction,
  External
> = {
  kind: 'toolSelection',
  method: 'onToolSelection',
  actionKinds: ['continue', 'choose'],
  compose: {
    proceed: CONTINUE,
    start: (event): SelectionState => ({ choices: [], tools: event.tools }),
    accept(state: SelectionState, action) {
      if (action.kind === 'choose') state.choices.push(action.toolChoice);
      return NEXT;
    },
    eventFor: (_state, event) => event,
    finish(state: SelectionState) {
      const combined = aggregateToolChoice(
        state.choices,
        state.tools.map((tool) => tool.name),
      );
      return combined === undefined
        ? ToolSelectionAction.continue()
        : ToolSelectionAction.choose(combined);
    },
  },
  external: {
    name: 'BeforeToolSelection',
    aliases: [],
    matcher: undefined,
    can: { deny: false, stop: false, textIsContext: false, failClosed: 'no-tools' },
    input: () => ({ llm_request: hookToolSelectionRequestInputSchema() }),
    output: () => ({
      toolChoice: toolChoiceSchema()
        .optional()
        .describe('none > required > auto; allowlists intersect.'),
    }),
    toPayload: (event) => ({
      llm_request: { ...toHookLLMRequest(event.request), tools: event.tools },
    }),
    fromPayload(payload) {
      const request = payload.llm_request as unknown as ModelRequest & {
        readonly tools: readonly ToolDeclaration[];
      };
      return { request, tools: request.tools, toolChoice: request.settings?.toolChoice };
    },
    toAction: (outcome) =>
      outcome.toolChoice === undefined
        ? ToolSelectionAction.continue()
        : ToolSelectionAction.choose(outcome.toolChoice),
    describeAction: (action) => (action.kind === 'choose' ? { toolChoice: action.toolChoice } : {}),
  },
};
