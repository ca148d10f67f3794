/**
 * The `ahp` hook kind: hookwire as an Agent Hooks Protocol **harness** (JSON-RPC client). An
 * entry in a `PreToolUse` group is an intercept subscription (`tool.before`, `hooks/intercept`);
 * in `PostToolUse`, `PostToolUseFailure`, `SessionStart` or `SessionEnd` an observe subscription
 * (`tool.after`, `tool.error`, `session.start`, `session.end`: `hooks/observe` notifications).
 *
 * - The request is built from the payload the group runner hands over, which carries the
 *   **effective** arguments (every earlier rewrite applied); its event id is derived from the
 *   session, the call and the subscription, so it is stable across a retry.
 * - A response is validated whole before any effect applies (`ahp-wire.ts`). `deny` denies; `[]`
 *   is no opinion (the permission rules still decide); under `"protocolVersion": "draft"` also
 *   `modify` (input), `message` and `flow` stop. Anything else, and every transport failure, is a
 *   failure under the subscription's `failurePolicy`: fail-open reports it and the call goes on;
 *   fail-closed denies with a generic reason for the model (`FAIL_CLOSED_REASON`) while the run
 *   record says `failed-closed` and names the failure class.
 * - Observers never delay the chain: the delivery starts and the hook answers at once; the
 *   session's close awaits the deliveries still in flight.
 * - Several `ahp` entries of one group run serially in order, and a denial short-circuits them
 *   (`serial`); the same backend subscribed twice to one event is refused at load
 *   (`subscription`).
 */
import { z } from 'zod';
import { lazy } from '../../wire/lazy.ts';
import { interpretAnswer } from '../hook-run.ts';
import type {
  HookConfigBase,
  HookKind,
  HookKindIssue,
  HookRunFacts,
  HookRunOutcome,
  HookRunRequest,
} from '../hook-kind.ts';
import { commonConfigFields } from '../hook-kind.ts';
import { timeoutSchema } from '../timeout-schema.ts';
import {
  AHP_EVENT_OF,
  AHP_VERSIONS,
  eventIdOf,
  eventIdPrefix,
  interceptRequest,
  observeNotification,
  validateInterceptResponse,
  type AhpEffect,
  type AhpVerdict,
  type AhpVersion,
} from './ahp-wire.ts';
import {
  httpConnection,
  isLoopback,
  perEventConnection,
  persistentConnection,
  type AhpConnection,
  type AhpTransport,
} from './ahp-transports.ts';

/** What the model reads when a fail-closed backend could not answer: no backend details. */
export const FAIL_CLOSED_REASON = 'Required policy backend unavailable';

/** One `type: "ahp"` entry. */
export interface AhpHookConfig extends HookConfigBase {
  readonly type: 'ahp';
  readonly transport: AhpTransport;
  readonly authentication?: { readonly type: 'bearer'; readonly tokenEnv: string };
  /** Intercept only (required there); absent on observe subscriptions. */
  readonly failurePolicy?: 'fail-open' | 'fail-closed';
  readonly protocolVersion: AhpVersion;
  readonly includeNative: boolean;
}

const INTERCEPT_EVENTS = new Set(['PreToolUse', 'BeforeTool']);
const OBSERVE_EVENTS = new Set([
  'PostToolUse',
  'AfterTool',
  'PostToolUseFailure',
  'SessionStart',
  'SessionEnd',
]);

export const ahpHookSchema = lazy(() =>
  z
    .strictObject({
      type: z.literal('ahp').meta({
        description:
          'An Agent Hooks Protocol backend: hooks/intercept for PreToolUse (tool.before), hooks/observe for PostToolUse, PostToolUseFailure, SessionStart and SessionEnd.',
      }),
      transport: z.discriminatedUnion('type', [
        z.strictObject({
          type: z.literal('stdio'),
          command: z.string().min(1).meta({ description: 'The program, run without a shell.' }),
          args: z.array(z.string()).optional().meta({ description: 'Its arguments, verbatim.' }),
          lifecycle: z.enum(['persistent', 'per_event']).meta({
            description: 'persistent: one process for the session; per_event: one per message.',
          }),
          cwd: z.string().optional(),
        }),
        z.strictObject({
          type: z.literal('http'),
          url: z
            .string()
            .regex(/^https?:\/\/[^\s/?#]+\S*$/)
            .meta({
              description: 'https, or http on a loopback address only.',
            }),
        }),
      ]),
      authentication: z
        .strictObject({
          type: z.literal('bearer'),
          tokenEnv: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/),
        })
        .optional()
        .meta({ description: 'HTTP only: a bearer token read from the named variable.' }),
      failurePolicy: z.enum(['fail-open', 'fail-closed']).optional().meta({
        description: 'Required on PreToolUse (intercept), refused elsewhere (observers fail open).',
      }),
      timeout: timeoutSchema().optional(),
      protocolVersion: z.enum(AHP_VERSIONS).optional().meta({
        description:
          '"0.1" (default; advertises deny) or "draft" (also modify of the input, message, flow stop).',
      }),
      includeNative: z.boolean().optional().meta({
        description: 'Send the hookwire payload as event.native. Default false.',
      }),
      name: z.string().regex(/\S/).optional(),
      description: z.string().optional(),
    })
    .meta({ id: 'SettingsAhpHook', description: 'An Agent Hooks Protocol backend.' }),
);

function transportOf(entry: Readonly<Record<string, unknown>>): AhpTransport {
  const given = entry['transport'];
  const raw: Readonly<Record<string, unknown>> =
    typeof given === 'object' && given !== null ? (given as Record<string, unknown>) : {};
  if (raw['type'] === 'http') return { type: 'http', url: String(raw['url']) };
  const args = Array.isArray(raw['args']) ? raw['args'].map(String) : [];
  return {
    type: 'stdio',
    command: String(raw['command']),
    args,
    lifecycle: raw['lifecycle'] === 'per_event' ? 'per_event' : 'persistent',
    ...(typeof raw['cwd'] === 'string' ? { cwd: raw['cwd'] } : {}),
  };
}

function describeTransport(transport: AhpTransport): string {
  return transport.type === 'http'
    ? `ahp ${transport.url}`
    : `ahp ${[transport.command, ...transport.args].join(' ')} (${transport.lifecycle})`;
}

/** What one `ahp` entry needs on every exchange, computed once per entry (see `preparedOf`). */
interface PreparedHook {
  readonly registeredAs: string;
  /** Its connection's key in a session: entries differing only in name share a backend. */
  readonly connectionKey: string;
  /** Its subscription, part of every event id. */
  readonly subscription: string;
  /** `describeTransport`, for run records. */
  readonly target: string;
  /** The event id prefix of the last session id and event seen (one session: computed once). */
  prefix?: { readonly sessionId: string; readonly event: string; readonly value: string };
}

const prepared = new WeakMap<AhpHookConfig, PreparedHook>();

/** The per-entry constants of `hook` (settings entries are immutable and live for the session). */
function preparedOf(hook: AhpHookConfig, registeredAs: string): PreparedHook {
  let entry = prepared.get(hook);
  if (entry?.registeredAs !== registeredAs) {
    entry = {
      registeredAs,
      connectionKey: JSON.stringify([hook.transport, hook.authentication]),
      subscription: JSON.stringify([hook.transport, registeredAs]),
      target: describeTransport(hook.transport),
    };
    prepared.set(hook, entry);
  }
  return entry;
}

/** The event id prefix of `hook` for this session and event (kept while they stay the same). */
function prefixOf(entry: PreparedHook, sessionId: string, event: string): string {
  const kept = entry.prefix;
  if (kept !== undefined && kept.sessionId === sessionId && kept.event === event) return kept.value;
  const value = eventIdPrefix(sessionId, event, entry.subscription);
  entry.prefix = { sessionId, event, value };
  return value;
}

/** One session's connections and observe deliveries in flight. */
export class AhpSession {
  readonly #connections = new Map<string, AhpConnection>();
  readonly #deliveries = new Set<Promise<unknown>>();
  #occurrences = 0;

  /** The connection of `hook` (one per distinct backend entry). */
  connection(hook: AhpHookConfig, request: HookRunRequest, key: string): AhpConnection {
    let connection = this.#connections.get(key);
    if (connection === undefined) {
      const env = (): Readonly<Record<string, string>> => request.env;
      const transport = hook.transport;
      if (transport.type === 'http')
        connection = httpConnection(transport, hook.authentication?.tokenEnv);
      else if (transport.lifecycle === 'per_event')
        connection = perEventConnection(transport, () => request.runner, request.projectDir, env);
      else connection = persistentConnection(transport, request.projectDir, env);
      this.#connections.set(key, connection);
    }
    return connection;
  }

  /** A fresh occurrence number, for events with no call id (sessions). */
  occurrence(): number {
    return this.#occurrences++;
  }

  track(delivery: Promise<unknown>): void {
    this.#deliveries.add(delivery);
    void delivery.finally(() => this.#deliveries.delete(delivery));
  }

  /** Awaits the observe deliveries in flight, then stops every backend process. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.#deliveries]);
    await Promise.all([...this.#connections.values()].map((connection) => connection.close()));
    this.#connections.clear();
  }
}

/** The run record's facts of one exchange. */
function factsOf(
  hook: AhpHookConfig,
  request: HookRunRequest,
  target: string,
  started: number,
): HookRunFacts {
  return {
    event: request.registeredAs,
    name: hook.name,
    kind: hook.type,
    target,
    exitCode: null,
    signal: null,
    durationMs: Math.round(performance.now() - started),
    stdoutTruncated: false,
    stderrTruncated: false,
  };
}

/** The hookwire output standing for accepted effects (read by `interpretAnswer`). */
function outputOf(effects: readonly AhpEffect[], args: unknown): Record<string, unknown> | null {
  if (effects.length === 0) return null;
  const output: Record<string, unknown> = {};
  const specific: Record<string, unknown> = { hookEventName: 'PreToolUse' };
  const messages: string[] = [];
  for (const effect of effects) {
    switch (effect.type) {
      case 'deny':
        specific['permissionDecision'] = 'deny';
        specific['permissionDecisionReason'] = effect.reason;
        break;
      case 'modify':
        specific['updatedInput'] =
          effect.operation === 'replace'
            ? effect.value
            : {
                ...(typeof args === 'object' && args !== null ? args : {}),
                ...(effect.value as object),
              };
        break;
      case 'message':
        messages.push(effect.text);
        break;
      case 'flow':
        output['continue'] = false;
        output['stopReason'] = effect.reason;
        break;
    }
  }
  if (messages.length > 0) output['systemMessage'] = messages.join('\n');
  if (Object.keys(specific).length > 1) output['hookSpecificOutput'] = specific;
  return output;
}

async function runAhp(hook: AhpHookConfig, request: HookRunRequest): Promise<HookRunOutcome> {
  const started = performance.now();
  const opened = request.kinds?.get(ahpKind);
  // Without a hook session (a one-off `hooks fire`), a session for this run alone.
  const session = opened ?? new AhpSession();
  try {
    return await exchange(hook, request, session, started);
  } finally {
    if (opened === undefined) await session.close();
  }
}

async function exchange(
  hook: AhpHookConfig,
  request: HookRunRequest,
  session: AhpSession,
  started: number,
): Promise<HookRunOutcome> {
  const payload =
    request.payload ?? (JSON.parse(request.input) as Readonly<Record<string, unknown>>);
  const entry = preparedOf(hook, request.registeredAs);
  const intercept = INTERCEPT_EVENTS.has(request.registeredAs);
  const callId = payload['tool_call_id'];
  const prefix = prefixOf(
    entry,
    typeof payload['session_id'] === 'string' ? payload['session_id'] : '',
    typeof payload['hook_event_name'] === 'string' ? payload['hook_event_name'] : '',
  );
  const options = {
    protocolVersion: hook.protocolVersion,
    includeNative: hook.includeNative,
    eventId:
      typeof callId === 'string'
        ? eventIdOf(prefix, callId, 0)
        : eventIdOf(prefix, undefined, session.occurrence()),
    time: new Date(),
  };
  const connection = session.connection(hook, request, entry.connectionKey);
  const deadline = Date.now() + hook.timeoutMs;
  if (!intercept) {
    const line = JSON.stringify(observeNotification(request.registeredAs, payload, options));
    // Never delays the chain: the session's close awaits it.
    session.track(connection.exchange(line, undefined, deadline, undefined));
    return { hook, record: { ...factsOf(hook, request, entry.target, started), status: 'ok' } };
  }
  const message = interceptRequest(request.registeredAs, payload, options);
  // A persistent connection validates the answer to keep its stream in step; that verdict is
  // kept, so the response is parsed once (the other transports validate it here).
  let checked: { readonly text: string; readonly verdict: AhpVerdict } | undefined;
  const exchanged = await connection.exchange(
    JSON.stringify(message),
    options.eventId,
    deadline,
    request.signal,
    (text) => {
      checked = {
        text,
        verdict: validateInterceptResponse(text, options.eventId, hook.protocolVersion),
      };
      return checked.verdict.ok;
    },
  );
  const verdict = exchanged.ok
    ? checked?.text === exchanged.text
      ? checked.verdict
      : validateInterceptResponse(exchanged.text, options.eventId, hook.protocolVersion)
    : exchanged;
  const facts = factsOf(hook, request, entry.target, started);
  if (!verdict.ok) {
    const label = `ahp backend "${hook.name}" (${request.registeredAs})`;
    const detail = `${verdict.failure}: ${verdict.what}`;
    if (hook.failurePolicy === 'fail-closed')
      return {
        hook,
        record: { ...facts, status: 'failed-closed', detail: `synthetic denial (${detail})` },
        denial: FAIL_CLOSED_REASON,
      };
    return {
      hook,
      record: { ...facts, status: verdict.failure === 'timeout' ? 'timeout' : 'warning', detail },
      warning: `${label} ${verdict.what} (${verdict.failure}); it fails open, so the call goes on`,
    };
  }
  return interpretAnswer(
    request.event,
    request.registeredAs,
    { ...hook, failClosed: false },
    facts,
    { kind: 'json', value: outputOf(verdict.effects, payload['tool_input']) },
  );
}

/** The settings problems of one `ahp` entry in a group of `registeredAs`. */
function checkEntry(
  entry: Readonly<Record<string, unknown>>,
  registeredAs: string,
): HookKindIssue[] {
  const issues: HookKindIssue[] = [];
  const intercept = INTERCEPT_EVENTS.has(registeredAs);
  if (!intercept && !OBSERVE_EVENTS.has(registeredAs)) {
    issues.push({
      path: '',
      message: `an ahp backend cannot subscribe to ${registeredAs}: AHP maps only PreToolUse (tool.before, intercept) and PostToolUse, PostToolUseFailure, SessionStart, SessionEnd (observe)`,
      fix: 'move the entry to one of those events, or use another hook kind',
    });
    return issues;
  }
  if (intercept) {
    if (entry['failurePolicy'] === undefined)
      issues.push({
        path: '.failurePolicy',
        message:
          'an intercept subscription (PreToolUse) must declare its failure policy; AHP has no default',
        fix: 'add "failurePolicy": "fail-open" or "fail-closed"',
      });
    if (entry['timeout'] === undefined)
      issues.push({
        path: '.timeout',
        message:
          'an intercept subscription (PreToolUse) must declare its deadline; AHP has no default',
        fix: 'add "timeout", e.g. "750ms"',
      });
  } else {
    for (const field of ['failurePolicy', 'timeout'])
      if (entry[field] !== undefined)
        issues.push({
          path: `.${field}`,
          message: `${registeredAs} is an observe subscription: it always fails open and never waits, so "${field}" could never apply`,
          fix: `remove "${field}"`,
        });
  }
  const transport = entry['transport'] as Readonly<Record<string, unknown>> | undefined;
  if (transport?.['type'] === 'http' && typeof transport['url'] === 'string') {
    try {
      const url = new URL(transport['url']);
      if (url.protocol === 'http:' && !isLoopback(url))
        issues.push({
          path: '.transport.url',
          message: `plain http is allowed only on a loopback address; ${url.host} is remote`,
          fix: 'use an https:// URL',
        });
    } catch {
      issues.push({ path: '.transport.url', message: 'is not a URL', fix: 'give an absolute URL' });
    }
  }
  if (transport?.['type'] === 'stdio' && entry['authentication'] !== undefined)
    issues.push({
      path: '.authentication',
      message: 'a stdio backend takes no authentication (no tokens travel in payloads)',
      fix: 'remove "authentication"',
    });
  return issues;
}

export const ahpKind: HookKind<AhpHookConfig, AhpSession> = {
  type: 'ahp',
  get schema() {
    return ahpHookSchema();
  },
  serial: true,
  check: checkEntry,
  subscription: (config) =>
    JSON.stringify({ transport: config.transport, authentication: config.authentication }),
  parse(entry, common) {
    const transport = transportOf(entry);
    const auth = entry['authentication'] as Readonly<Record<string, unknown>> | undefined;
    const policy = entry['failurePolicy'];
    return {
      type: 'ahp',
      name: common.name ?? describeTransport(transport).slice(0, 40),
      transport,
      ...(auth === undefined
        ? {}
        : { authentication: { type: 'bearer' as const, tokenEnv: String(auth['tokenEnv']) } }),
      ...(policy === 'fail-open' || policy === 'fail-closed' ? { failurePolicy: policy } : {}),
      protocolVersion: entry['protocolVersion'] === 'draft' ? 'draft' : '0.1',
      includeNative: entry['includeNative'] === true,
      ...commonConfigFields(common),
      failClosed: policy === 'fail-closed',
    };
  },
  target: (hook) => describeTransport(hook.transport),
  run: runAhp,
  open: () => {
    const session = new AhpSession();
    return Promise.resolve({ state: session, close: () => session.close() });
  },
};

/** The AHP event an `ahp` entry of `registeredAs` subscribes to. */
export function ahpEventOf(registeredAs: string): string | undefined {
  return AHP_EVENT_OF[registeredAs];
}
