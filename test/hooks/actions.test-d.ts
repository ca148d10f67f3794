/**
 * Type tests for the action unions: one action type per event, so an unsupported combination is a
 * compile error, and every union is a closed discriminated union a `switch` covers exhaustively.
 */
import { assertType, describe, expectTypeOf, it } from 'vitest';
import type {
  ContextAction,
  HookStack,
  ModelOutputAction,
  PromptSubmitAction,
  StopAction,
  ToolSelectionAction,
} from '../../src/hooks/index.ts';
import {
  CompletionCallAction,
  InvalidToolCallAction,
  ModelSelectionAction,
  ModelTurnAction,
  ObservationAction,
  ToolCallAction,
  ToolResultAction,
  type AgentHook,
  type Awaitable,
  type ToolCallResolution,
} from '../../src/hooks/index.ts';

function unreachable(value: never): never {
  throw new Error(`unhandled ${String(value)}`);
}

describe('action unions', () => {
  it('keeps action types event specific [rig: action_types_are_event_specific]', () => {
    assertType<ModelSelectionAction>(ModelSelectionAction.continue());
    assertType<CompletionCallAction>(CompletionCallAction.continue());
    assertType<ModelTurnAction>(ModelTurnAction.retryWithFeedback('try again'));
    assertType<ToolCallAction>(ToolCallAction.run());
    assertType<ToolResultAction>(ToolResultAction.keep());
    assertType<InvalidToolCallAction>(InvalidToolCallAction.fail());
    assertType<ObservationAction>(ObservationAction.continue());
    expectTypeOf(ToolCallAction.rewrite({})).not.toEqualTypeOf<ObservationAction>();
  });

  it('rejects a rewrite from an observer and other cross-event answers', () => {
    const textObserver: AgentHook = {
      // @ts-expect-error a text-delta observer cannot rewrite tool arguments
      onTextDelta: () => ToolCallAction.rewrite({ path: 'x' }),
    };
    const stopHook: AgentHook = {
      // @ts-expect-error Stop hooks block or stop; they cannot skip a tool
      onStop: () => ToolCallAction.skip('no'),
    };
    const toolHook: AgentHook = {
      // @ts-expect-error a tool-call hook cannot answer with a model-turn retry
      onToolCall: () => ModelTurnAction.retryWithFeedback('again'),
    };
    const selection: AgentHook = {
      // @ts-expect-error model selection is synchronous: a promise is rejected
      onModelSelection: async () => ModelSelectionAction.continue(),
    };
    assertType<AgentHook[]>([textObserver, stopHook, toolHook, selection]);
  });

  it('covers every union with an exhaustive switch', () => {
    const describeToolCall = (action: ToolCallAction): string => {
      switch (action.kind) {
        case 'run':
          return 'run';
        case 'rewrite':
          return 'rewrite';
        case 'skip':
          return action.reason;
        case 'stop':
          return action.reason;
        case 'result':
          return JSON.stringify(action.result);
        default:
          return unreachable(action);
      }
    };
    const kinds = {
      observation: (action: ObservationAction) => {
        switch (action.kind) {
          case 'continue':
          case 'stop':
            return action.kind;
          default:
            return unreachable(action);
        }
      },
      selection: (action: ModelSelectionAction) => {
        switch (action.kind) {
          case 'continue':
          case 'select':
          case 'stop':
            return action.kind;
          default:
            return unreachable(action);
        }
      },
      completion: (action: CompletionCallAction) => {
        switch (action.kind) {
          case 'continue':
          case 'patch':
          case 'respond':
          case 'deny':
          case 'stop':
            return action.kind;
          default:
            return unreachable(action);
        }
      },
      toolSelection: (action: ToolSelectionAction) => {
        switch (action.kind) {
          case 'continue':
          case 'choose':
            return action.kind;
          default:
            return unreachable(action);
        }
      },
      output: (action: ModelOutputAction) => {
        switch (action.kind) {
          case 'continue':
          case 'replace':
          case 'deny':
          case 'stop':
            return action.kind;
          default:
            return unreachable(action);
        }
      },
      turn: (action: ModelTurnAction) => {
        switch (action.kind) {
          case 'continue':
          case 'repeat':
          case 'retry':
          case 'stop':
            return action.kind;
          default:
            return unreachable(action);
        }
      },
      invalid: (action: InvalidToolCallAction) => {
        switch (action.kind) {
          case 'fail':
          case 'retry':
          case 'repair':
          case 'skip':
          case 'stop':
            return action.kind;
          default:
            return unreachable(action);
        }
      },
      result: (action: ToolResultAction) => {
        switch (action.kind) {
          case 'keep':
          case 'rewrite':
          case 'stop':
            return action.kind;
          default:
            return unreachable(action);
        }
      },
      context: (action: ContextAction) => {
        switch (action.kind) {
          case 'continue':
          case 'stop':
            return action.kind;
          default:
            return unreachable(action);
        }
      },
      prompt: (action: PromptSubmitAction) => {
        switch (action.kind) {
          case 'continue':
          case 'deny':
          case 'stop':
            return action.kind;
          default:
            return unreachable(action);
        }
      },
      stop: (action: StopAction) => {
        switch (action.kind) {
          case 'continue':
          case 'block':
          case 'stop':
            return action.kind;
          default:
            return unreachable(action);
        }
      },
    };
    // A switch missing a case leaves the value un-narrowed, so `unreachable` rejects it.
    const incomplete = (action: StopAction) => {
      switch (action.kind) {
        case 'continue':
        case 'block':
          return action.kind;
        default:
          // @ts-expect-error `stop` is not handled, so `action` is not `never` here
          return unreachable(action);
      }
    };
    assertType<unknown>([describeToolCall, kinds, incomplete]);
  });
});

describe('HookStack', () => {
  it('is an AgentHook and exposes resolveToolCall', () => {
    expectTypeOf<HookStack>().toExtend<AgentHook>();
    expectTypeOf<HookStack['resolveToolCall']>().returns.toEqualTypeOf<
      Awaitable<ToolCallResolution>
    >();
    expectTypeOf<HookStack['onModelSelection']>().returns.toEqualTypeOf<ModelSelectionAction>();
  });
});
