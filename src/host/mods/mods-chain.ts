/**
 * The mods' chain: "order is nesting". Every registration of every loaded mod, outermost first
 * — tier (`prepend`, `user`, `append`), then the mod's place in its tier, then the order its
 * `register` called `on` — and beneath the last one, core. `dispatch` runs the first link whose
 * pattern and matcher take the event; its `next(e)` runs the rest of the chain from there.
 *
 * Claude Code's semantics, and hookwire's one addition:
 * - A hook that throws, times out, returns the wrong shape or is wedged, before calling `next`,
 *   is skipped (the rest of the chain runs in its place); after `next` resolved, that result
 *   stands. Its `.catch` handler (1 s) answers first when it has one.
 * - A mod marked `failClosed` (`pluginConfigs`) denies instead, for every failure, on the events
 *   that can deny (`tool.call`, `tool.check`, `prompt.submit`, `classic.PreToolUse`, `$` calls).
 * - `next.to(e, tier)` skips to a tier, allowed only to `prepend` and `append` mods; from the
 *   `user` tier it rejects (the hook may catch it).
 * - Reserved fields (`tool`, `tool_use_id`, `agentId`) cannot be rewritten: `next` puts them back.
 * - A `$` call is an event of its own, which every other mod's hooks see; never its own mod's.
 */
import type { HookContext } from '../../events/index.ts';
import type { DispatchOrigin, RegistrationInfo } from './mod-protocol.ts';
import type { FrameOutcome, ModWorkerHost } from './mod-worker-host.ts';

/** The tiers a hookwire session seats mods in (no `builtin` mods), outermost first. */
export type ModTier = 'prepend' | 'user' | 'append';
const TIER_RANK: Readonly<Record<string, number>> = {
  prepend: 0,
  user: 1,
  append: 2,
  builtin: 3,
  core: 4,
};

/** One loaded mod: a plugin whose modules registered hooks. */
export interface LoadedMod {
  readonly name: string;
  readonly root: string;
  readonly tier: ModTier;
  /** Its place within its tier (the `prependPlugins` / `appendPlugins` order, else discovery order). */
  readonly order: number;
  /** `pluginConfigs["<name>"].failClosed`: every failure denies. */
  readonly failClosed: boolean;
  readonly host: ModWorkerHost;
  readonly registrations: readonly RegistrationInfo[];
}

interface Link {
  readonly mod: LoadedMod;
  readonly registration: RegistrationInfo;
}

/** What one dispatch runs under: the engine event's context (reports, session, cancellation). */
export interface DispatchScope {
  readonly context: HookContext;
  /** Set by `$.turn.abort(reason)`: the engine event ends the run (its `stop` action). */
  aborted?: string;
}

/** Serves `$.noun.method(...args)` for `mod` (the chain dispatches it as an event first). */
export type CapabilityCore = (
  mod: LoadedMod,
  noun: string,
  method: string,
  args: readonly unknown[],
  scope: DispatchScope,
  /** Aborts when the calling hook's run ends (its waits are cancelled with it). */
  signal?: AbortSignal,
) => Promise<unknown>;

export interface ModsChainOptions {
  /** A hook's own time per event. Default 10 000 ms (Claude Code's). */
  readonly budgetMs?: number;
  /** A `.catch` handler's time. Default 1 000 ms. */
  readonly catchBudgetMs?: number;
  /** Failures and other notes, one line each, to the run's reports. */
  readonly warn: (text: string, scope: DispatchScope) => void;
}

/** The engine's own origin (`next.origin` of an event the session raised). */
export const ENGINE_ORIGIN: DispatchOrigin = Object.freeze({ plugin: 'engine', tier: 'core' });

const RESERVED = ['tool', 'tool_use_id', 'agentId'] as const;

export const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether `pattern` (`x`, `ns.*`, `*`, `!x`) takes event `event`. */
export function patternMatches(pattern: string, event: string): boolean {
  if (pattern.startsWith('!')) return !patternMatches(pattern.slice(1), event);
  if (pattern === '*') return !event.startsWith('telemetry.');
  if (pattern.endsWith('.*')) return event.startsWith(pattern.slice(0, -1));
  return pattern === event;
}

/** Whether `matcher` (a value, an array: any of, a RegExp, an object of those) takes `value`. */
export function matcherMatches(matcher: unknown, value: unknown): boolean {
  if (matcher instanceof RegExp) return typeof value === 'string' && matcher.test(value);
  if (Array.isArray(matcher)) return matcher.some((option) => matcherMatches(option, value));
  if (isRecord(matcher))
    return (
      isRecord(value) &&
      Object.entries(matcher).every(([key, expected]) => matcherMatches(expected, value[key]))
    );
  return Object.is(matcher, value);
}

/** The answer a failed hook of a `failClosed` mod stands for, on the events that can deny. */
function closedAnswer(event: string, reason: string): unknown {
  if (event === 'tool.check') return { decision: 'deny', reason };
  if (event === 'prompt.submit') return { drop: reason };
  if (event === 'tool.call' || event === 'classic.PreToolUse' || !isEngineEvent(event))
    return { deny: reason };
  return undefined;
}

const ENGINE_NAMESPACES = ['tool.', 'prompt.', 'session.start', 'session.end', 'turn.', 'classic.'];
/** Engine events (raised by the session), as opposed to `$`-call events (raised by a mod). */
export function isEngineEvent(event: string): boolean {
  return ENGINE_NAMESPACES.some((prefix) => event.startsWith(prefix));
}

/** Whether `value` is a shape the event's hooks may answer (else the hook failed: `wrong shape`). */
export function answerShapeProblem(event: string, value: unknown): string | undefined {
  const deny = isRecord(value) && typeof value.deny === 'string';
  switch (event) {
    case 'tool.call':
      return deny || (isRecord(value) && 'result' in value)
        ? undefined
        : 'tool.call answers next(e), { deny } or { result, context? }';
    case 'tool.check':
      return isRecord(value) &&
        (value.decision === 'allow' || value.decision === 'ask' || value.decision === 'deny')
        ? undefined
        : 'tool.check answers { decision: "allow" | "ask" | "deny", reason? }';
    case 'prompt.submit':
      return isRecord(value) && (typeof value.drop === 'string' || typeof value.text === 'string')
        ? undefined
        : 'prompt.submit answers next(e), next({ ...e, text | context }) or { drop }';
    default:
      return undefined;
  }
}

export class ModsChain {
  readonly #links: readonly Link[];
  readonly #options: ModsChainOptions;
  readonly #capability: CapabilityCore;

  constructor(mods: readonly LoadedMod[], capability: CapabilityCore, options: ModsChainOptions) {
    this.#links = mods
      .flatMap((mod) => mod.registrations.map((registration) => ({ mod, registration })))
      .sort(
        (a, b) =>
          (TIER_RANK[a.mod.tier] ?? 1) - (TIER_RANK[b.mod.tier] ?? 1) ||
          a.mod.order - b.mod.order ||
          a.registration.index - b.registration.index,
      );
    this.#capability = capability;
    this.#options = options;
  }

  /** True when some registration's pattern takes `event` (else the engine need not raise it). */
  observes(event: string): boolean {
    return this.#links.some((link) => patternMatches(link.registration.pattern, event));
  }

  /**
   * Runs `event` with input `e` through the chain, `core` beneath the last hook. `origin` raised
   * it: a mod's own hooks never see the events its `$` calls raise.
   */
  dispatch(
    event: string,
    e: unknown,
    origin: DispatchOrigin,
    core: (e: unknown) => Promise<unknown>,
    scope: DispatchScope,
    /** The origin mod's own hooks see it too (`command.run`), except those in `active`. */
    ownHooks = false,
    /**
     * The hooks whose `$` calls this dispatch serves, innermost last: none of them runs again for
     * it. A hook is never re-entered, so a `command.run` hook running its own command, or two
     * mods' hooks calling each other's events, end instead of recursing without a deadline (a
     * hook's budget counts its own time, not its waits on `$`).
     */
    active: readonly Link[] = [],
  ): Promise<unknown> {
    const links = this.#links.filter(
      (link) =>
        patternMatches(link.registration.pattern, event) &&
        (ownHooks || link.mod.name !== (origin === ENGINE_ORIGIN ? undefined : origin.plugin)) &&
        !active.includes(link),
    );
    const run = (from: number, input: unknown): Promise<unknown> => {
      for (let index = from; index < links.length; index++) {
        const link = links[index];
        if (link === undefined) break;
        const { matcher } = link.registration;
        if (matcher === undefined || matcherMatches(matcher, input))
          return this.#runLink(link, index, links, event, input, origin, core, run, scope, active);
      }
      return core(input);
    };
    return run(0, e);
  }

  async #runLink(
    link: Link,
    index: number,
    links: readonly Link[],
    event: string,
    e: unknown,
    origin: DispatchOrigin,
    core: (e: unknown) => Promise<unknown>,
    run: (from: number, input: unknown) => Promise<unknown>,
    scope: DispatchScope,
    active: readonly Link[],
  ): Promise<unknown> {
    let firstNext: Promise<unknown> | undefined;
    const within = [...active, link];
    const services = {
      next: (rewritten: unknown, to: string | undefined): Promise<unknown> => {
        const input = keepReserved(e, rewritten);
        let promise: Promise<unknown>;
        if (to === undefined) promise = run(index + 1, input);
        else if (link.mod.tier === 'user')
          promise = Promise.reject(
            new Error(
              `next.to is only for mods the managed settings seat (prependPlugins, appendPlugins); ${link.mod.name} is in the user tier`,
            ),
          );
        else {
          const rank = TIER_RANK[to];
          if (rank === undefined)
            promise = Promise.reject(
              new Error(`next.to: unknown tier "${to}" (append, builtin or core)`),
            );
          else {
            const target = links.findIndex(
              (candidate, position) =>
                position > index && (TIER_RANK[candidate.mod.tier] ?? 1) >= rank,
            );
            promise = target === -1 ? core(input) : run(target, input);
          }
        }
        firstNext ??= promise;
        return promise;
      },
      cap: (
        noun: string,
        method: string,
        args: readonly unknown[],
        signal: AbortSignal,
      ): Promise<unknown> => this.capability(link.mod, noun, method, args, scope, signal, within),
    };
    const request = {
      index: link.registration.index,
      event,
      e,
      origin,
      budgetMs: this.#options.budgetMs ?? 10_000,
    };
    const outcome = await link.mod.host.run(request, services);
    const problem = outcome.ok ? answerShapeProblem(event, outcome.value) : undefined;
    if (outcome.ok && problem === undefined) return outcome.value;
    const failure: Exclude<FrameOutcome, { ok: true }> = outcome.ok
      ? { ok: false, kind: 'throw', message: `wrong shape: ${problem ?? ''}` }
      : outcome;
    const kind = outcome.ok ? 'shape' : outcome.kind;
    const where = `mod ${link.mod.name}'s ${link.registration.pattern} hook`;
    // Its own `.catch` answers first (1 s), in the same worker.
    if (link.registration.hasCatch && failure.kind !== 'wedge') {
      const caught = await link.mod.host.run(
        {
          ...request,
          budgetMs: this.#options.catchBudgetMs ?? 1000,
          failure: { kind: kind === 'shape' ? 'throw' : kind, called: firstNext !== undefined },
        },
        services,
      );
      if (caught.ok && answerShapeProblem(event, caught.value) === undefined) return caught.value;
      this.#options.warn(
        `${where} failed (${failure.message}) and its .catch did too (${caught.ok ? 'wrong shape' : caught.message})`,
        scope,
      );
    }
    if (link.mod.failClosed) {
      const closed = closedAnswer(event, `${where} failed (${kind}); the plugin fails closed`);
      if (closed !== undefined) {
        this.#options.warn(`${where} failed (${failure.message}): denied (failClosed)`, scope);
        return closed;
      }
    }
    if (firstNext !== undefined) {
      this.#options.warn(
        `${where} failed after next (${failure.message}): its result stands`,
        scope,
      );
      return firstNext;
    }
    this.#options.warn(`${where} failed (${failure.message}): skipped`, scope);
    return run(index + 1, e);
  }

  /** `$.noun.method(...args)` of `mod`: an event every other mod may observe, then the service. */
  capability(
    mod: LoadedMod,
    noun: string,
    method: string,
    args: readonly unknown[],
    scope: DispatchScope,
    signal?: AbortSignal,
    /** The hooks whose `$` call this is (see `dispatch`). */
    active: readonly Link[] = [],
  ): Promise<unknown> {
    const event = `${noun}.${method}`;
    const origin: DispatchOrigin = { plugin: mod.name, tier: mod.tier };
    if (event === 'command.run') return this.#commandRun(mod, origin, args, scope, signal, active);
    if (!this.observes(event)) return this.#capability(mod, noun, method, args, scope, signal);
    // Core answers `{ value }`; a hook answers `next(e)`, `{ deny }` (the call rejects) or `{ value }`.
    return this.dispatch(
      event,
      { args },
      origin,
      async (e) => {
        // A hook above may have rewritten the arguments.
        const rewritten = isRecord(e) && Array.isArray(e.args) ? e.args : args;
        return { value: await this.#capability(mod, noun, method, rewritten, scope, signal) };
      },
      scope,
      false,
      active,
    ).then((answer) => {
      if (isRecord(answer) && typeof answer.deny === 'string')
        throw new Error(`$.${event} was refused: ${answer.deny}`);
      if (isRecord(answer) && 'value' in answer) return answer.value;
      throw new Error(`$.${event}: a hook answered neither { value } nor { deny }`);
    });
  }

  /**
   * `$.command.run({ command, args })`: the event `command.run` as Claude Code raises it for a
   * plugin (`origin: { kind: 'plugin', name }`, a headless `presentation`), through every hook,
   * the calling plugin's own `command.run` hooks included (Claude Code skips only the calling
   * hook); a hook already on this call's stack does not run again (see `dispatch`: a `command.run`
   * hook running its own command reaches core); core answers a command no hook answered.
   */
  #commandRun(
    mod: LoadedMod,
    origin: DispatchOrigin,
    args: readonly unknown[],
    scope: DispatchScope,
    signal: AbortSignal | undefined,
    active: readonly Link[],
  ): Promise<unknown> {
    const given = isRecord(args[0]) ? args[0] : {};
    const e = {
      command: typeof given.command === 'string' ? given.command.replace(/^\//, '') : '',
      args: typeof given.args === 'string' ? given.args : '',
      origin: { kind: 'plugin', name: mod.name },
      presentation: { isFullscreen: false, columns: 80 },
    };
    return this.dispatch(
      'command.run',
      e,
      origin,
      (input) => this.#capability(mod, 'command', 'run', [input], scope, signal),
      scope,
      true,
      active,
    );
  }
}

/** `next`'s input with the original's reserved fields put back (they cannot be rewritten). */
function keepReserved(original: unknown, rewritten: unknown): unknown {
  if (!isRecord(original) || !isRecord(rewritten)) return rewritten ?? original;
  let copy: Record<string, unknown> | undefined;
  for (const field of RESERVED)
    if (field in original && rewritten[field] !== original[field]) {
      copy ??= { ...rewritten };
      copy[field] = original[field];
    }
  return copy ?? rewritten;
}
