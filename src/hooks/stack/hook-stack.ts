/**
 * `HookStack`: an ordered composition of `AgentHook`s that is itself an `AgentHook`, so stacks
 * nest and a nested stack composes exactly as if its members were spliced into the parent.
 *
 * One driver serves every event: it calls the members interested in the event in registration
 * order, synchronously as long as they answer synchronously, and turns asynchronous at the first
 * member that returns a promise, continuing from there. How answers combine is each event's
 * `Composition` (`src/events/<event>.ts`); the stack's methods are installed from the catalogue,
 * so a stack (and a stack nested in it) handles every event the catalogue lists. See `DESIGN.md`.
 */
import {
  NEXT,
  ObservationAction,
  isPromiseLike,
  ToolCallAction,
  toolCallResolution,
  type AnsweringMember,
  type Awaitable,
  type EventMap,
  type HookContext,
  type HookEventKind,
  type ReasoningDeltaEvent,
  type TextDeltaEvent,
  type ToolCallDeltaEvent,
  type ToolCallEvent,
  type ToolCallResolution,
} from '../../events/index.ts';
import { GUARDS_TOOL_CALLS, REPORTS_OWN_RUNS, type AgentHook } from '../agent-hook.ts';
import { HookError } from '../hook-error.ts';
import { describeReturned, inProcessRun, kindOf } from './in-process-run.ts';
import {
  DISPATCHERS,
  dispatcherOf,
  memberLists,
  type Dispatcher,
  type MemberLists,
} from './dispatchers.ts';

export { JOIN_SEPARATOR } from '../../events/index.ts';
export type { ToolCallResolution } from '../../events/index.ts';

/** What a stack does when a member throws, rejects or returns a value that is not an action. */
export type HookErrorPolicy = 'fail' | 'record';

export interface HookStackOptions {
  /** Diagnostics name of the stack (`HookError.hookName` when a parent stack names it). Default `HookStack`. */
  readonly name?: string;
  /**
   * `fail` (default): the member's `HookError` is thrown and fails the run. `record`: the error is
   * reported as a warning through `context.report`, kept in `stack.errors`, passed to
   * `onRecordedError`, and the member counts as having continued (`run`, `keep`, no decision, …).
   */
  readonly onHookError?: HookErrorPolicy;
  /** Called with each error recorded under `onHookError: 'record'`. */
  readonly onRecordedError?: (error: HookError) => void;
}

/** Every method of the catalogue, required: a stack handles every event. */
export type HookStackMethods = {
  [Kind in HookEventKind as EventMap[Kind]['method']]: (
    context: HookContext,
    event: EventMap[Kind]['event'],
  ) => EventMap[Kind]['answer'];
};

// Bumped on every change of any stack: a parent's per-kind member lists depend on its nested
// stacks' `observes`, so a push into a nested stack must invalidate the parent too.
let generation = 0;

// A member whose failure was recorded: composition treats it as having continued.
const RECORDED: unique symbol = Symbol('recorded hook failure');
// No member has acted yet: the event's composition state does not exist.
const NO_STATE: unique symbol = Symbol('no composition state');

type State = unknown;

/** A member known (from the per-event lists) to implement method `Method`. */
type Implementing<Method extends keyof AgentHook> = AgentHook & Required<Pick<AgentHook, Method>>;

// The shared singletons of the hot answers, and the dispatchers of the fast paths.
const CONTINUED = ObservationAction.continue();
const RAN = ToolCallAction.run();
const TEXT_DELTA = dispatcherOf('textDelta');
const REASONING_DELTA = dispatcherOf('reasoningDelta');
const TOOL_CALL_DELTA = dispatcherOf('toolCallDelta');
const TOOL_CALL = dispatcherOf('toolCall');

/**
 * The arguments each tool-call guard (`GUARDS_TOOL_CALLS`) was last asked about, per call: keyed
 * by the call's `originalArgs` (one object per call, shared by every event derived from it, in
 * nested stacks too), so the entries go when the call does.
 */
const GUARD_SAW = new WeakMap<object, Map<AgentHook, unknown>>();

function noteGuard(hook: AgentHook, event: ToolCallEvent): void {
  const call = event.originalArgs;
  if (typeof call !== 'object' || call === null) return;
  let seen = GUARD_SAW.get(call);
  if (seen === undefined) GUARD_SAW.set(call, (seen = new Map<AgentHook, unknown>()));
  seen.set(hook, event.args);
}

function ignore(): void {
  // See the caller: the failure is reported through the HookError instead.
}

/**
 * An ordered stack of hooks, itself an `AgentHook` (stacks nest; a nested stack behaves exactly
 * like its members registered flat in its place).
 *
 * Composition, per event, in registration order: the rule stated in the event's module and on
 * its action type. In short: rewrites and replacements chain into later members; patches,
 * contexts and Stop block reasons accumulate; tool choices aggregate; the first terminal answer
 * (`stop`, `deny`, `skip`, `respond`, a decision) short-circuits the remaining members.
 *
 * A member that throws, rejects or answers with a value that is not an action of its event becomes
 * a `HookError` naming the member, the event kind and the cause; see `HookStackOptions.onHookError`.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- methods installed from the catalogue, typed by the interface below
export class HookStack implements AgentHook {
  readonly name: string;
  readonly #hooks: AgentHook[] = [];
  readonly #errors: HookError[] = [];
  readonly #policy: HookErrorPolicy;
  readonly #onRecordedError: ((error: HookError) => void) | undefined;
  /** Per event kind, the members interested in it. */
  #members: MemberLists = memberLists(() => []);
  #generation = -1;

  constructor(hooks: readonly AgentHook[] = [], options: HookStackOptions = {}) {
    this.name = options.name ?? 'HookStack';
    this.#policy = options.onHookError ?? 'fail';
    this.#onRecordedError = options.onRecordedError;
    for (const hook of hooks) this.push(hook);
  }

  /**
   * Appends a hook at the end of the registration order. Its interest (`observes`, or the methods
   * it implements) is read now and whenever any stack changes; keep `observes` stable.
   */
  push(hook: AgentHook): this {
    if ((hook as unknown) === this)
      throw new TypeError(`HookStack "${this.name}" cannot contain itself`);
    this.#hooks.push(hook);
    generation++;
    return this;
  }

  /** Number of members (a nested stack counts as one). */
  get size(): number {
    return this.#hooks.length;
  }

  /** The members, in registration order. */
  get hooks(): readonly AgentHook[] {
    return this.#hooks;
  }

  /** Errors recorded under `onHookError: 'record'`, oldest first. */
  get errors(): readonly HookError[] {
    return this.#errors;
  }

  /**
   * True when some member observes `kind`: the OR of the members. A member without `observes`
   * observes exactly the kinds whose method it implements. The loop checks this before building
   * an event, so an unobserved event (above all a stream delta) costs nothing.
   */
  observes(kind: HookEventKind): boolean {
    return this.#lists()[kind].length > 0;
  }

  /** The diagnostics name of a member: its `name`, else its class name, else `hook #i` (one-based). */
  nameOf(hook: AgentHook): string {
    if (typeof hook.name === 'string' && hook.name !== '') return hook.name;
    const prototype = Object.getPrototypeOf(hook) as {
      readonly constructor?: { readonly name?: unknown };
    } | null;
    const constructorName = prototype?.constructor?.name;
    return typeof constructorName === 'string' &&
      constructorName !== '' &&
      constructorName !== 'Object'
      ? constructorName
      : `hook #${this.#hooks.indexOf(hook) + 1}`;
  }

  /**
   * Resolves a tool call like `onToolCall`, returning the final action together with the
   * effective arguments (what the tool runs with, or what a skip/stop happened with).
   */
  resolveToolCall(context: HookContext, event: ToolCallEvent): Awaitable<ToolCallResolution> {
    const action = this.onToolCall(context, event);
    return isPromiseLike(action)
      ? Promise.resolve(action).then((settled) => toolCallResolution(settled, event))
      : toolCallResolution(action, event);
  }

  // --- fast paths -------------------------------------------------------------------------------
  // The events that fire per token or per tool call run their members through a direct, named
  // call site (a monomorphic property load) for as long as each answers with the shared "no
  // opinion" singleton, and hand over to the driver at the first other answer. The dispatch
  // benchmark shows these pay (see DESIGN.md); every other event goes straight to the driver.

  /** The first stop short-circuits. */
  onTextDelta(context: HookContext, event: TextDeltaEvent): Awaitable<ObservationAction> {
    const members = this.#lists().textDelta as readonly Implementing<'onTextDelta'>[];
    for (let position = 0; position < members.length; position++) {
      const hook = members[position] as Implementing<'onTextDelta'>;
      let result: unknown;
      try {
        result = hook.onTextDelta(context, event);
      } catch (error) {
        this.#failed(error, hook, 'textDelta', context);
        continue;
      }
      if (result !== CONTINUED)
        return this.#dispatchFrom(TEXT_DELTA, context, event, members, position, result) as never;
    }
    return CONTINUED;
  }

  /** The first stop short-circuits. */
  onReasoningDelta(context: HookContext, event: ReasoningDeltaEvent): Awaitable<ObservationAction> {
    const members = this.#lists().reasoningDelta as readonly Implementing<'onReasoningDelta'>[];
    for (let position = 0; position < members.length; position++) {
      const hook = members[position] as Implementing<'onReasoningDelta'>;
      let result: unknown;
      try {
        result = hook.onReasoningDelta(context, event);
      } catch (error) {
        this.#failed(error, hook, 'reasoningDelta', context);
        continue;
      }
      if (result !== CONTINUED)
        return this.#dispatchFrom(
          REASONING_DELTA,
          context,
          event,
          members,
          position,
          result,
        ) as never;
    }
    return CONTINUED;
  }

  /** The first stop short-circuits. */
  onToolCallDelta(context: HookContext, event: ToolCallDeltaEvent): Awaitable<ObservationAction> {
    const members = this.#lists().toolCallDelta as readonly Implementing<'onToolCallDelta'>[];
    for (let position = 0; position < members.length; position++) {
      const hook = members[position] as Implementing<'onToolCallDelta'>;
      let result: unknown;
      try {
        result = hook.onToolCallDelta(context, event);
      } catch (error) {
        this.#failed(error, hook, 'toolCallDelta', context);
        continue;
      }
      if (result !== CONTINUED)
        return this.#dispatchFrom(
          TOOL_CALL_DELTA,
          context,
          event,
          members,
          position,
          result,
        ) as never;
    }
    return CONTINUED;
  }

  /**
   * Rewrites chain; the first skip/stop short-circuits. Returns `rewrite(args)` when some member
   * rewrote and all proceeded, `run` when none rewrote, and the terminal skip/stop carrying the
   * effective `args` when a rewrite preceded it (so a parent stack keeps the rewrite).
   */
  onToolCall(context: HookContext, event: ToolCallEvent): Awaitable<ToolCallAction> {
    // A context that records hook runs: the driver, which times each in-process member.
    if (context.recordsHookRuns === true)
      return this.#guarded(context, event, this.#dispatch(TOOL_CALL, context, event));
    const members = this.#lists().toolCall as readonly Implementing<'onToolCall'>[];
    for (let position = 0; position < members.length; position++) {
      const hook = members[position] as Implementing<'onToolCall'>;
      let result: unknown;
      try {
        if (hook[GUARDS_TOOL_CALLS] === true) noteGuard(hook, event);
        result = hook.onToolCall(context, event);
      } catch (error) {
        this.#failed(error, hook, 'toolCall', context);
        continue;
      }
      if (result !== RAN)
        return this.#guarded(
          context,
          event,
          this.#dispatchFrom(TOOL_CALL, context, event, members, position, result),
        );
    }
    return RAN;
  }

  /**
   * The tool-call guards of this stack (`GUARDS_TOOL_CALLS`), those of nested stacks included, in
   * registration order.
   */
  toolCallGuards(): AgentHook[] {
    const guards: AgentHook[] = [];
    for (const hook of this.#lists().toolCall)
      if (hook instanceof HookStack) guards.push(...hook.toolCallGuards());
      else if (hook[GUARDS_TOOL_CALLS] === true) guards.push(hook);
    return guards;
  }

  /**
   * A rewrite does not walk past a guard: when the composed answer rewrites the arguments, every
   * guard that was asked about other arguments runs once more on the final ones; the first `skip`
   * or `stop` among them is the answer (with the final arguments). A rewrite they answer then is
   * ignored, with a warning: one more pass, bounded.
   */
  #guarded(context: HookContext, event: ToolCallEvent, answer: unknown): Awaitable<ToolCallAction> {
    if (isPromiseLike(answer))
      return Promise.resolve(answer).then((settled) => this.#guarded(context, event, settled));
    const action = answer as ToolCallAction;
    if (action.kind !== 'rewrite') return action;
    const call = event.originalArgs;
    const seen = typeof call === 'object' && call !== null ? GUARD_SAW.get(call) : undefined;
    const stale = this.toolCallGuards().filter(
      (guard) => seen === undefined || seen.get(guard) !== action.args,
    );
    if (stale.length === 0) return action;
    return this.#recheck(context, { ...event, args: action.args }, stale, action);
  }

  async #recheck(
    context: HookContext,
    event: ToolCallEvent,
    guards: readonly AgentHook[],
    rewrite: ToolCallAction,
  ): Promise<ToolCallAction> {
    for (const guard of guards) {
      noteGuard(guard, event);
      let answer: ToolCallAction;
      try {
        answer = await (guard.onToolCall?.(context, event) ?? RAN);
      } catch (error) {
        this.#failed(error, guard, 'toolCall', context);
        continue;
      }
      if (answer.kind === 'skip') return ToolCallAction.skip(answer.reason, event.args);
      if (answer.kind === 'stop') return ToolCallAction.stop(answer.reason, event.args);
      if (answer.kind === 'result') return ToolCallAction.result(answer.result, event.args);
      if (answer.kind === 'rewrite')
        context.report({
          level: 'warning',
          text: `${this.nameOf(guard)} rewrote the arguments again when re-checking them after a later hook's rewrite; its second rewrite is ignored`,
          hookName: this.nameOf(guard),
          event: 'toolCall',
        });
    }
    return rewrite;
  }

  // Every other method of the catalogue: a call into the one driver. (`this` is the class here:
  // tsc compiles `HookStack` inside a static block to an alias assigned only after the class.)
  static {
    const prototype = this.prototype;
    for (const dispatcher of DISPATCHERS) {
      if (Object.hasOwn(prototype, dispatcher.method)) continue; // a fast path above
      Object.defineProperty(prototype, dispatcher.method, {
        configurable: true,
        writable: true,
        value: function (this: HookStack, context: HookContext, event: unknown): unknown {
          return this.#dispatch(dispatcher, context, event);
        },
      });
    }
  }

  // --- the driver --------------------------------------------------------------------------------

  #lists(): MemberLists {
    if (this.#generation !== generation) this.#rebuild();
    return this.#members;
  }

  #rebuild(): void {
    const hooks = this.#hooks;
    this.#members = memberLists(({ kind, method }) =>
      hooks.filter(
        (hook) =>
          typeof hook[method] === 'function' &&
          (hook.observes === undefined || hook.observes(kind)),
      ),
    );
    this.#generation = generation;
  }

  /** Dispatches one event, synchronously until the first member that answers with a promise. */
  #dispatch(dispatcher: Dispatcher, context: HookContext, event: unknown): unknown {
    const members = this.#lists()[dispatcher.kind];
    if (members.length === 0) return dispatcher.proceed;
    const first = this.#call(dispatcher, members[0] as AgentHook, context, event);
    return this.#dispatchFrom(dispatcher, context, event, members, 0, first);
  }

  /**
   * Continues a dispatch from member `position`, whose answer is `result`: synchronously while the
   * members answer synchronously; at a promise, it resumes (`#resume`) once the promise settles.
   * A member answering exactly the event's `proceed` value is passed over at the cost of one
   * comparison; the state of the event's composition exists from the first answer that is not.
   */
  #dispatchFrom(
    dispatcher: Dispatcher,
    context: HookContext,
    event: unknown,
    members: readonly AgentHook[],
    position: number,
    result: unknown,
    state: State = NO_STATE,
  ): unknown {
    const { compose, proceed } = dispatcher;
    for (;;) {
      if (result !== proceed && result !== RECORDED) {
        const hook = members[position] as AgentHook;
        if (isPromiseLike(result)) {
          if (!dispatcher.synchronous)
            return this.#resume(dispatcher, context, event, members, position, result, state);
          // Swallow the orphaned promise's eventual rejection: the error below already reports it.
          Promise.resolve(result).catch(ignore);
          this.#failed(
            new TypeError(
              `${dispatcher.method} must return its action synchronously, not a promise`,
            ),
            hook,
            dispatcher.kind,
            context,
          );
        } else if (this.#valid(dispatcher, result, hook, context)) {
          if (state === NO_STATE) state = compose.start(event);
          const outcome = compose.accept(state, result, this.#member(dispatcher, hook, context));
          if (outcome !== NEXT) return outcome;
        }
      }
      position++;
      if (position >= members.length) break;
      const current = state === NO_STATE ? event : compose.eventFor(state, event);
      result = this.#call(dispatcher, members[position] as AgentHook, context, current);
    }
    return state === NO_STATE ? proceed : compose.finish(state);
  }

  /** Awaits member `position`'s pending answer (a rejection is its failure), then goes on. */
  async #resume(
    dispatcher: Dispatcher,
    context: HookContext,
    event: unknown,
    members: readonly AgentHook[],
    position: number,
    pending: PromiseLike<unknown>,
    state: State,
  ): Promise<unknown> {
    let result: unknown;
    try {
      result = await pending;
    } catch (error) {
      this.#failed(error, members[position] as AgentHook, dispatcher.kind, context);
      result = RECORDED;
    }
    return this.#dispatchFrom(dispatcher, context, event, members, position, result, state);
  }

  /** Calls one member; a synchronous throw becomes a `HookError` (thrown or recorded → `RECORDED`). */
  #call(dispatcher: Dispatcher, hook: AgentHook, context: HookContext, event: unknown): unknown {
    if (dispatcher === TOOL_CALL && hook[GUARDS_TOOL_CALLS] === true)
      noteGuard(hook, event as ToolCallEvent);
    if (
      dispatcher.recorded &&
      context.recordsHookRuns === true &&
      hook[REPORTS_OWN_RUNS] !== true &&
      !(hook instanceof HookStack)
    )
      return this.#callRecorded(dispatcher, hook, context, event);
    try {
      return dispatcher.invoke(hook, context, event);
    } catch (error) {
      this.#failed(error, hook, dispatcher.kind, context);
      return RECORDED;
    }
  }

  /**
   * Calls one in-process member and reports its run through `context.recordHookRun` when it
   * settles (kind `in-process`: decision, status, reason, timing, its answer). The answer, and a
   * failure, reach the driver unchanged.
   */
  #callRecorded(
    dispatcher: Dispatcher,
    hook: AgentHook,
    context: HookContext,
    event: unknown,
  ): unknown {
    const startTime = Date.now();
    const start = performance.now();
    const record = (result: unknown, error: unknown): void => {
      const name = this.nameOf(hook);
      context.recordHookRun?.(
        inProcessRun(dispatcher, name, event, startTime, start, result, error),
      );
    };
    let result: unknown;
    try {
      result = dispatcher.invoke(hook, context, event);
    } catch (error) {
      record(undefined, error);
      this.#failed(error, hook, dispatcher.kind, context);
      return RECORDED;
    }
    if (!isPromiseLike(result)) {
      record(result, undefined);
      return result;
    }
    return Promise.resolve(result).then(
      (settled) => (record(settled, undefined), settled),
      (error: unknown) => {
        record(undefined, error);
        throw error;
      },
    );
  }

  /** True for an action of the event; anything else is reported as the member's failure. */
  #valid(dispatcher: Dispatcher, result: unknown, hook: AgentHook, context: HookContext): boolean {
    if (dispatcher.allowed.has(kindOf(result))) return true;
    const expected = [...dispatcher.allowed].map((value) => JSON.stringify(value)).join(', ');
    this.#failed(
      new TypeError(
        `${dispatcher.method} returned ${describeReturned(result)}; return an action of kind ${expected}${
          dispatcher.proceed === undefined ? ' (or undefined to defer)' : ''
        }, e.g. built with its action constructor`,
      ),
      hook,
      dispatcher.kind,
      context,
    );
    return false;
  }

  #member(dispatcher: Dispatcher, hook: AgentHook, context: HookContext): AnsweringMember {
    return {
      name: () => this.nameOf(hook),
      warn: (text) => {
        context.report({
          level: 'warning',
          text,
          hookName: this.nameOf(hook),
          event: dispatcher.kind,
        });
      },
    };
  }

  #failed(error: unknown, hook: AgentHook, kind: HookEventKind, context: HookContext): void {
    // Wrap once: a nested stack's HookError already names the member that failed.
    const wrapped = HookError.isHookError(error)
      ? error
      : new HookError({ hookName: this.nameOf(hook), event: kind, cause: error });
    if (this.#policy === 'fail') throw wrapped;
    this.#errors.push(wrapped);
    context.report({
      level: 'warning',
      text: `${wrapped.message} (recorded; the run continues as if the hook had not acted)`,
      hookName: wrapped.hookName,
      event: wrapped.event,
    });
    this.#onRecordedError?.(wrapped);
  }
}

// The methods installed by the static block, for the type checker: one per catalogue event.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type -- see the class
export interface HookStack extends HookStackMethods {}
