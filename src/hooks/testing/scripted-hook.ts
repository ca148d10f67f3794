/**
 * A declarative, JSON-expressible hook behaviour ("on PreToolUse rewrite the arguments to X",
 * "deny with reason R", "add context C", …) and its reference in-process implementation. The
 * contract suite builds hooks from these specs through a factory, so any `AgentHook`
 * implementation (plain objects, stacks, command hooks printing the equivalent JSON) can be run
 * through the same cases.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import {
  ContextAction,
  PromptSubmitAction,
  StopAction,
  ToolCallAction,
  ToolResultAction,
} from '../../events/index.ts';
import type { AgentHook } from '../agent-hook.ts';

/** The events the contract covers, by their external (command-hook) names. */
export type ContractEvent =
  'PreToolUse' | 'PostToolUse' | 'UserPromptSubmit' | 'Stop' | 'SessionStart';

/**
 * What a scripted hook answers. Valid per event:
 * - `continue`: every event;
 * - `rewriteArgs` (replace the tool arguments): `PreToolUse`;
 * - `rewriteResult` (replace the model-visible tool result): `PostToolUse`;
 * - `addContext`: `PostToolUse`, `UserPromptSubmit`, `SessionStart`;
 * - `deny`: `PreToolUse` (skip the tool, the reason goes to the model), `UserPromptSubmit`;
 * - `block` (continue the turn with the reason as the next prompt): `Stop`;
 * - `stop` (end the run): every event.
 */
export type ScriptedResponse =
  | { readonly type: 'continue' }
  | { readonly type: 'rewriteArgs'; readonly args: unknown }
  | { readonly type: 'rewriteResult'; readonly presentation: unknown }
  | { readonly type: 'addContext'; readonly context: string }
  | { readonly type: 'deny'; readonly reason: string }
  | { readonly type: 'block'; readonly reason: string }
  | { readonly type: 'stop'; readonly reason: string };

/** One scripted hook: a label for the execution log, the event it handles and its answer. */
export interface ScriptedHookSpec {
  readonly label: string;
  readonly event: ContractEvent;
  readonly respond: ScriptedResponse;
}

/**
 * One line of the execution log: which hook ran, and the chained value it saw — the tool
 * arguments for `PreToolUse`, the presentation for `PostToolUse`, `null` otherwise.
 */
export interface ContractLogEntry {
  readonly label: string;
  readonly seen: unknown;
}

/**
 * The execution log of one contract case: a real file of JSON lines, so an out-of-process hook
 * can append to it (`echo '{"label":"a","seen":…}' >> "$LOG"`) exactly as an in-process one does.
 */
export class ContractLog {
  readonly path: string;

  constructor(path: string) {
    this.path = path;
  }

  append(entry: ContractLogEntry): void {
    appendFileSync(this.path, `${JSON.stringify(entry)}\n`);
  }

  entries(): ContractLogEntry[] {
    let content: string;
    try {
      content = readFileSync(this.path, 'utf8');
    } catch {
      return [];
    }
    return content
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as ContractLogEntry);
  }

  /** Labels in execution order. */
  labels(): string[] {
    return this.entries().map((entry) => entry.label);
  }
}

function unsupported(spec: ScriptedHookSpec): never {
  throw new TypeError(
    `scripted hook "${spec.label}": ${spec.respond.type} is not an answer to ${spec.event}`,
  );
}

/**
 * The reference in-process implementation of a spec: a plain object implementing the one method
 * of its event, answering synchronously (or with a promise when `asynchronous` is true).
 */
export function scriptedHook(
  spec: ScriptedHookSpec,
  log: ContractLog,
  asynchronous = false,
): AgentHook {
  const answer = <Action>(action: Action): Action | Promise<Action> =>
    asynchronous ? Promise.resolve(action) : action;
  const { respond } = spec;
  // One builder per contract event (a table, so an event left out does not compile).
  const builders: { readonly [Event in ContractEvent]: () => AgentHook } = {
    PreToolUse: () => ({
      name: spec.label,
      onToolCall(_context, event) {
        log.append({ label: spec.label, seen: event.args });
        switch (respond.type) {
          case 'continue':
            return answer(ToolCallAction.run());
          case 'rewriteArgs':
            return answer(ToolCallAction.rewrite(respond.args));
          case 'deny':
            return answer(ToolCallAction.skip(respond.reason));
          case 'stop':
            return answer(ToolCallAction.stop(respond.reason));
          default:
            return unsupported(spec);
        }
      },
    }),
    PostToolUse: () => ({
      name: spec.label,
      onToolResult(_context, event) {
        log.append({ label: spec.label, seen: event.presentation });
        switch (respond.type) {
          case 'continue':
            return answer(ToolResultAction.keep());
          case 'rewriteResult':
            return answer(ToolResultAction.rewrite(respond.presentation));
          case 'addContext':
            return answer(ToolResultAction.keep(respond.context));
          case 'stop':
            return answer(ToolResultAction.stop(respond.reason));
          default:
            return unsupported(spec);
        }
      },
    }),
    UserPromptSubmit: () => ({
      name: spec.label,
      onPromptSubmit() {
        log.append({ label: spec.label, seen: null });
        switch (respond.type) {
          case 'continue':
            return answer(PromptSubmitAction.continue());
          case 'addContext':
            return answer(PromptSubmitAction.continue(respond.context));
          case 'deny':
            return answer(PromptSubmitAction.deny(respond.reason));
          case 'stop':
            return answer(PromptSubmitAction.stop(respond.reason));
          default:
            return unsupported(spec);
        }
      },
    }),
    Stop: () => ({
      name: spec.label,
      onStop() {
        log.append({ label: spec.label, seen: null });
        switch (respond.type) {
          case 'continue':
            return answer(StopAction.continue());
          case 'block':
            return answer(StopAction.block(respond.reason));
          case 'stop':
            return answer(StopAction.stop(respond.reason));
          default:
            return unsupported(spec);
        }
      },
    }),
    SessionStart: () => ({
      name: spec.label,
      onSessionStart() {
        log.append({ label: spec.label, seen: null });
        switch (respond.type) {
          case 'continue':
            return answer(ContextAction.continue());
          case 'addContext':
            return answer(ContextAction.continue(respond.context));
          case 'stop':
            return answer(ContextAction.stop(respond.reason));
          default:
            return unsupported(spec);
        }
      },
    }),
  };
  return builders[spec.event]();
}
