/**
 * hookwire as an Agent Hooks Protocol **backend** (JSON-RPC 2.0 server), independent of the
 * binding: one message text in, the answer text out (or nothing, for a notification). The
 * `hookwire ahp serve` command feeds it NDJSON lines from stdin or loopback HTTP bodies.
 *
 * - `hooks/intercept` for `tool.before` fires the project's `PreToolUse` hooks (any kind, any
 *   dialect) through `fire`, exactly as `hooks fire` does, and answers `[]`, one `deny`, or an
 *   effect the request advertised (`modify` of the input, `message`, `flow` stop under `draft`).
 * - A hook's rewrite of the input is never dropped: when the request did not advertise `modify`
 *   the answer is the AHP error `-32004` (backend_internal_error), so the harness applies the
 *   subscription's declared failure policy (fail-closed denies, fail-open runs the input it
 *   sent). A stop the request cannot carry (`flow` not advertised) is answered as a `deny`: the
 *   call never runs under a stop either.
 * - `hooks/observe` notifications fire `PostToolUse`, `PostToolUseFailure`, `SessionStart` or
 *   `SessionEnd` hooks and are never answered.
 * - `hooks/capabilities` (from `protocolVersion` `draft`; 0.1 has no such method) answers the
 *   backend's manifest (`capabilitiesManifest`): the events and modes it accepts, the effects it
 *   can return for `tool.before`, its binding and authentication, and `gaps` naming what it
 *   leaves out. No hook runs for it.
 * - Errors: `-32700` parse error, `-32600` invalid request (batches, bad shape, an observe sent
 *   with an id), `-32601` unknown method, `-32602` invalid params, `-32001` unsupported protocol
 *   version, `-32002` unsupported event, `-32004` internal error (no details leak).
 * - A duplicate (same `event.source` and id: AHP's idempotency key) gets the first answer again;
 *   the hooks do not run twice.
 * - The hooks run in the server's own project (`cwd` of the payload); nothing in a request
 *   chooses a directory or a settings file.
 */
import {
  SESSION_END_REASONS,
  SESSION_START_SOURCES,
  type SessionEndReason,
  type SessionStartSource,
} from '../events/index.ts';
import type { FireResult } from '../hook-kinds/group/index.ts';
import { AHP_VERSIONS, type AhpVersion } from '../hook-kinds/ahp/ahp-wire.ts';

/** JSON-RPC and AHP error codes the backend answers with. */
export const AHP_ERROR = {
  /** A request without the bearer token `--token-env` requires (HTTP 401). */
  unauthorized: -32000,
  parse: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  unsupportedVersion: -32001,
  unsupportedEvent: -32002,
  internal: -32004,
} as const;

/** The effects the backend can answer with, per protocol version (when the request advertises them). */
export const BACKEND_EFFECTS: Readonly<Record<AhpVersion, readonly string[]>> = {
  '0.1': ['deny'],
  draft: ['deny', 'modify', 'message', 'flow'],
};

/** How many answers are kept for duplicate requests (oldest forgotten first). */
const ANSWER_CACHE = 1024;

/** What the backend's manifest says of how it is reached. */
export interface AhpBinding {
  readonly transport: 'stdio' | 'http';
  /** Whether requests must carry a bearer token (`--token-env`). */
  readonly bearer: boolean;
}

/**
 * The backend's `hooks/capabilities` manifest (AHP draft, `capabilities-response`): what it
 * accepts and can answer, never an authorization identity. `tool.error` is accepted as an
 * observe notification too, but it is a 0.1 event, outside the draft catalogue the manifest
 * lists.
 */
export function capabilitiesManifest(binding: AhpBinding): Record<string, unknown> {
  return {
    events: [
      {
        event: 'tool.before',
        modes: ['intercept'],
        capabilities: {
          effects: [...BACKEND_EFFECTS.draft],
          modify: { input: { replace: true, merge: false } },
          flow: { operations: ['stop'] },
        },
      },
      { event: 'tool.after', modes: ['observe'] },
      { event: 'session.start', modes: ['observe'] },
      { event: 'session.end', modes: ['observe'] },
    ],
    gaps: [
      {
        path: 'events',
        reason:
          'hookwire answers tool.before interceptions with its PreToolUse hooks and runs PostToolUse, SessionStart and SessionEnd hooks for observations; no other event is evaluated',
      },
      {
        path: 'toolPaths',
        reason: 'every tool path is accepted: the hooks match on tool.name, verbatim',
      },
      { path: 'contentCategories', reason: 'content uploads are not supported' },
      ...(binding.bearer
        ? []
        : [
            {
              path: 'authentication',
              reason:
                binding.transport === 'stdio'
                  ? 'the stdio binding carries no credentials'
                  : 'this server was started without --token-env; it listens on loopback only',
            },
          ]),
    ],
    transports: [binding.transport],
    authentication: binding.bearer ? ['bearer'] : [],
    toolPaths: [],
    contentCategories: [],
    limits: {},
    managedPolicy: { scopes: ['user', 'project'], disableable: true },
    correlationIdentityFields: ['event.id', 'event.source', 'event.session.id', 'event.call.id'],
  };
}

export interface AhpBackendOptions {
  /** How the backend is reached, for its `hooks/capabilities` manifest. */
  readonly binding: AhpBinding;
  /** Fires one hookwire event's hooks on a payload (`fireInSession`). */
  readonly fire: (event: string, payload: Readonly<Record<string, unknown>>) => Promise<FireResult>;
  /** The server's project directory: the payloads' `cwd`. */
  readonly projectDir: string;
  /** A diagnostic line for stderr (never stdout: stdout carries protocol messages only). */
  readonly warn: (line: string) => void;
}

type JsonRpcId = string | number | null;

class RpcError extends Error {
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.code = code;
    this.data = data;
  }
}

function objectOf(value: unknown): Readonly<Record<string, unknown>> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Readonly<Record<string, unknown>>)
    : undefined;
}

function errorText(id: JsonRpcId, error: RpcError): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    error: {
      code: error.code,
      message: error.message,
      ...(error.data === undefined ? {} : { data: error.data }),
    },
  });
}

function validId(value: unknown): value is string | number {
  return (typeof value === 'string' && value !== '') || Number.isInteger(value);
}

const invalidParams = (message: string): RpcError =>
  new RpcError(AHP_ERROR.invalidParams, `Invalid params: ${message}`);

/** The protocol version of `params`, or the AHP error for a missing or unsupported one. */
function versionOf(params: Readonly<Record<string, unknown>>): AhpVersion {
  const version = params['protocolVersion'];
  if (version === undefined) throw invalidParams('params.protocolVersion is required');
  if (!(AHP_VERSIONS as readonly unknown[]).includes(version))
    throw new RpcError(
      AHP_ERROR.unsupportedVersion,
      `Unsupported protocol version ${JSON.stringify(version)}`,
      { supported: [...AHP_VERSIONS] },
    );
  return version as AhpVersion;
}

function eventOf(params: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
  const event = objectOf(params['event']);
  if (event === undefined) throw invalidParams('params.event must be an object');
  if (typeof event['type'] !== 'string' || event['type'] === '')
    throw invalidParams('params.event.type must be a non-empty string');
  return event;
}

function textField(
  object: Readonly<Record<string, unknown>> | undefined,
  key: string,
): string | undefined {
  const value = object?.[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The hookwire payload base of an AHP event: session and project, never a requested directory. */
function basePayload(
  event: Readonly<Record<string, unknown>>,
  projectDir: string,
): Record<string, unknown> {
  const session = objectOf(event['session']);
  return {
    session_id: textField(session, 'id') ?? `ahp-${textField(event, 'source') ?? 'unknown'}`,
    transcript_path: '',
    cwd: projectDir,
    ...(typeof event['time'] === 'string' ? { timestamp: event['time'] } : {}),
  };
}

/** The tool fields of a `tool.*` event, or `-32602` naming what is wrong. */
function toolPayload(event: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const tool = objectOf(event['tool']);
  if (tool === undefined) throw invalidParams('params.event.tool must be an object');
  const name = textField(tool, 'name');
  if (name === undefined) throw invalidParams('params.event.tool.name must be a non-empty string');
  const input = objectOf(tool['input']);
  if (input === undefined)
    throw invalidParams('params.event.tool.input must be an object (parsed, not encoded JSON)');
  const callId =
    textField(objectOf(event['call']), 'id') ??
    textField(tool, 'callId') ??
    textField(event, 'id') ??
    'ahp-call';
  return { tool_name: name, tool_input: input, tool_call_id: callId };
}

export class AhpBackend {
  readonly #options: AhpBackendOptions;
  readonly #answers = new Map<string, Promise<string>>();
  readonly #observing = new Set<Promise<void>>();

  constructor(options: AhpBackendOptions) {
    this.#options = options;
  }

  /**
   * Handles one message text: the answer's text (one compact JSON object), or `undefined` for a
   * notification. Never rejects.
   */
  async handle(text: string): Promise<string | undefined> {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return errorText(null, new RpcError(AHP_ERROR.parse, 'Parse error: not JSON'));
    }
    if (Array.isArray(message))
      return errorText(
        null,
        new RpcError(AHP_ERROR.invalidRequest, 'Invalid Request: AHP sends no batches'),
      );
    const fields = objectOf(message);
    if (fields === undefined)
      return errorText(
        null,
        new RpcError(AHP_ERROR.invalidRequest, 'Invalid Request: not a JSON-RPC object'),
      );
    const hasId = 'id' in fields;
    if (hasId && !validId(fields['id']))
      return errorText(
        null,
        new RpcError(
          AHP_ERROR.invalidRequest,
          'Invalid Request: id must be a non-empty string or an integer',
        ),
      );
    const id = hasId ? (fields['id'] as string | number) : null;
    const method = fields['method'];
    if (fields['jsonrpc'] !== '2.0' || typeof method !== 'string')
      return errorText(
        id,
        new RpcError(
          AHP_ERROR.invalidRequest,
          'Invalid Request: a JSON-RPC 2.0 message needs "jsonrpc": "2.0" and a method',
        ),
      );
    if (!hasId) {
      // A notification: nothing is ever sent back, whatever happens.
      if (method === 'hooks/observe') this.#observe(fields['params']);
      else this.#options.warn(`ignored the notification ${JSON.stringify(method)}`);
      return undefined;
    }
    try {
      if (method === 'hooks/observe')
        throw new RpcError(
          AHP_ERROR.invalidRequest,
          'Invalid Request: hooks/observe is a notification; send it without an id',
        );
      if (method === 'hooks/capabilities') return this.#capabilities(id, fields['params']);
      if (method !== 'hooks/intercept')
        throw new RpcError(AHP_ERROR.methodNotFound, `Method not found: ${method}`);
      return await this.#intercept(id as string | number, fields['params']);
    } catch (error) {
      if (error instanceof RpcError) return errorText(id, error);
      this.#options.warn(
        `internal error: ${error instanceof Error ? error.message : String(error)}`,
      );
      return errorText(id, new RpcError(AHP_ERROR.internal, 'Backend internal error'));
    }
  }

  /** Awaits the observe notifications still running their hooks. */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.#observing]);
  }

  /** `hooks/capabilities`: the manifest, under `draft` (the method is not part of 0.1). */
  #capabilities(id: JsonRpcId, rawParams: unknown): string {
    const params = objectOf(rawParams);
    if (params === undefined) throw invalidParams('params must be an object');
    const version = versionOf(params);
    if (version === '0.1')
      throw new RpcError(
        AHP_ERROR.methodNotFound,
        'Method not found: hooks/capabilities is defined from protocolVersion "draft"; 0.1 has hooks/intercept and hooks/observe',
      );
    return JSON.stringify({
      jsonrpc: '2.0',
      id,
      result: { protocolVersion: version, manifest: capabilitiesManifest(this.#options.binding) },
    });
  }

  async #intercept(id: string | number, rawParams: unknown): Promise<string> {
    const params = objectOf(rawParams);
    if (params === undefined) throw invalidParams('params must be an object');
    const version = versionOf(params);
    const event = eventOf(params);
    if (event['type'] !== 'tool.before')
      throw new RpcError(
        AHP_ERROR.unsupportedEvent,
        `Unsupported event ${JSON.stringify(event['type'])} for hooks/intercept`,
        { supported: ['tool.before'] },
      );
    if (event['id'] !== id)
      throw invalidParams('params.event.id must equal the request id (AHP-CORE-004)');
    const effects = objectOf(params['capabilities'])?.['effects'];
    if (!Array.isArray(effects) || !effects.every((effect) => typeof effect === 'string'))
      throw invalidParams('params.capabilities.effects must be an array of effect names');
    if (!effects.includes('deny'))
      throw invalidParams('params.capabilities.effects must include "deny" for tool.before');
    const payload = { ...basePayload(event, this.#options.projectDir), ...toolPayload(event) };
    const key = JSON.stringify([event['source'] ?? null, id]);
    let answer = this.#answers.get(key);
    if (answer === undefined) {
      const advertised = new Set(
        effects.filter((effect) => BACKEND_EFFECTS[version].includes(effect)),
      );
      answer = this.#evaluate(id, version, advertised, payload);
      this.#answers.set(key, answer);
      if (this.#answers.size > ANSWER_CACHE)
        this.#answers.delete(this.#answers.keys().next().value as string);
      // A failure is not an answer to remember: the next delivery evaluates again.
      answer.catch(() => this.#answers.delete(key));
    }
    return answer;
  }

  async #evaluate(
    id: string | number,
    version: AhpVersion,
    advertised: ReadonlySet<string>,
    payload: Readonly<Record<string, unknown>>,
  ): Promise<string> {
    const result = await this.#options.fire('PreToolUse', payload);
    const effects: Record<string, unknown>[] = [];
    if (result.decision === 'deny')
      effects.push({ type: 'deny', reason: result.reason ?? 'Denied by a hookwire hook' });
    else if (!result.continue) {
      const reason = result.stopReason ?? 'Stopped by a hookwire hook';
      effects.push(
        advertised.has('flow')
          ? { type: 'flow', operation: 'stop', reason }
          : { type: 'deny', reason },
      );
    } else if ('tool_input' in result.hookSpecificOutput) {
      if (!advertised.has('modify'))
        throw new RpcError(
          AHP_ERROR.internal,
          'A hook rewrote the tool input, and the request did not advertise "modify": the rewrite cannot be expressed, so no answer is given (the failure policy applies)',
          { unadvertisedEffect: 'modify' },
        );
      effects.push({
        type: 'modify',
        target: 'input',
        operation: 'replace',
        value: result.hookSpecificOutput['tool_input'],
      });
    }
    if (result.systemMessage !== null && effects.every((effect) => effect['type'] !== 'deny')) {
      if (advertised.has('message')) effects.push({ type: 'message', text: result.systemMessage });
      else
        this.#options.warn(
          `a hook's message was not sent (the request did not advertise "message"): ${result.systemMessage}`,
        );
    }
    for (const warning of result.warnings) this.#options.warn(warning);
    return JSON.stringify({ jsonrpc: '2.0', id, result: { protocolVersion: version, effects } });
  }

  #observe(rawParams: unknown): void {
    const run = (async () => {
      const params = objectOf(rawParams);
      if (params === undefined) throw invalidParams('params must be an object');
      versionOf(params);
      const event = eventOf(params);
      const target = observedEvent(event);
      if (target === undefined) {
        this.#options.warn(`observe: no hookwire event for ${JSON.stringify(event['type'])}`);
        return;
      }
      const payload = { ...basePayload(event, this.#options.projectDir), ...target.payload };
      const result = await this.#options.fire(target.name, payload);
      for (const warning of result.warnings) this.#options.warn(warning);
    })().catch((error: unknown) => {
      this.#options.warn(
        `observe notification not run: ${error instanceof Error ? error.message : String(error)}`,
      );
    });
    this.#observing.add(run);
    void run.finally(() => this.#observing.delete(run));
  }
}

/** The hookwire event (and its payload fields) an observed AHP event fires. */
function observedEvent(
  event: Readonly<Record<string, unknown>>,
): { readonly name: string; readonly payload: Record<string, unknown> } | undefined {
  switch (event['type']) {
    case 'tool.after': {
      const tool = objectOf(event['tool']);
      return {
        name: 'PostToolUse',
        payload: { ...toolPayload(event), tool_response: tool?.['output'] ?? null },
      };
    }
    case 'tool.error':
      return {
        name: 'PostToolUseFailure',
        payload: {
          ...toolPayload(event),
          error: textField(objectOf(event['tool']), 'error') ?? 'tool error',
        },
      };
    case 'session.start': {
      const trigger = event['trigger'];
      const source: SessionStartSource = (SESSION_START_SOURCES as readonly unknown[]).includes(
        trigger,
      )
        ? (trigger as SessionStartSource)
        : 'startup';
      return { name: 'SessionStart', payload: { source } };
    }
    case 'session.end': {
      const given = event['reason'];
      const reason: SessionEndReason = (SESSION_END_REASONS as readonly unknown[]).includes(given)
        ? (given as SessionEndReason)
        : 'other';
      return { name: 'SessionEnd', payload: { reason } };
    }
    default:
      return undefined;
  }
}
