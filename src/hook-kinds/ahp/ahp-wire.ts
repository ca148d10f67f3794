/**
 * The Agent Hooks Protocol's messages as hookwire's `ahp` kind sends and reads them (AHP Working
 * Draft 0.1, `protocolVersion` "0.1", and the mutable `draft`): the `hooks/intercept` request and
 * `hooks/observe` notification built from a hookwire payload, and the validation of a response
 * before any effect applies (AHP §base: "validate responses before applying any effect").
 *
 * A response is accepted atomically: the JSON-RPC shape, the id echo, the protocol version and
 * every effect are checked first; one bad member rejects the whole response as a protocol
 * failure, which the subscription's failure policy then decides.
 */
import { sha256 } from '../../wire/sha256.ts';

/** The protocol versions a subscription may speak. */
export const AHP_VERSIONS = ['0.1', 'draft'] as const;
export type AhpVersion = (typeof AHP_VERSIONS)[number];

/** The effects hookwire advertises (and enforces) for `tool.before`, per protocol version. */
export const ADVERTISED_EFFECTS: Readonly<Record<AhpVersion, readonly string[]>> = {
  '0.1': ['deny'],
  // `return` (a supplied result) is not advertised yet: no external PreToolUse answer carries
  // one to the toolCall result action (see docs/decisions/0032-agent-hooks-protocol.md).
  draft: ['deny', 'modify', 'message', 'flow'],
};

/** AHP's event types, by the hookwire event whose group subscribes to them. */
export const AHP_EVENT_OF: Readonly<Record<string, string>> = {
  PreToolUse: 'tool.before',
  BeforeTool: 'tool.before',
  PostToolUse: 'tool.after',
  AfterTool: 'tool.after',
  PostToolUseFailure: 'tool.error',
  SessionStart: 'session.start',
  SessionEnd: 'session.end',
};

/** `tool.kind` of AHP 0.1 for hookwire's built-in tools and Claude Code's names. */
const TOOL_KINDS: Readonly<Record<string, string>> = {
  shell: 'shell',
  Bash: 'shell',
  run_shell_command: 'shell',
  read_file: 'file_read',
  Read: 'file_read',
  write_file: 'file_write',
  Write: 'file_write',
  edit_file: 'file_edit',
  Edit: 'file_edit',
  MultiEdit: 'file_edit',
  grep: 'search',
  glob: 'search',
  Grep: 'search',
  Glob: 'search',
  web_fetch: 'fetch',
  WebFetch: 'fetch',
  agent: 'task',
  Task: 'task',
};

/** The harness installation's stable, non-secret source URI. */
export const AHP_SOURCE = 'urn:hookwire:harness';

/** `value` when it is a string, else `fallback`. */
function textOf(value: unknown, fallback: string): string {
  return typeof value === 'string' ? value : fallback;
}

/** A JSON object, or undefined. */
function objectOf(value: unknown): Readonly<Record<string, unknown>> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Readonly<Record<string, unknown>>)
    : undefined;
}

/**
 * The part of an event id fixed for one subscription in one session and event: a hash of the
 * session id, the event name and the subscription, computed once and kept (`eventIdOf` appends
 * what tells the deliveries apart).
 */
export function eventIdPrefix(sessionId: string, eventName: string, subscription: string): string {
  const hash = sha256();
  for (const part of [sessionId, eventName, subscription]) hash.update(part).update('\0');
  return `evt_${hash.digest('base64url').slice(0, 26)}`;
}

/**
 * The event id of one delivery (AHP §9.1: unique across the harness's events, stable across
 * retries): the subscription's `eventIdPrefix`, then the call id (`_call`), or for an event
 * with no call (sessions) an occurrence number (`.N`). The same delivery (a retry, a resumed
 * call) gets the same id; two subscriptions, two calls or two sessions never share one: the
 * prefix has a fixed length and the two suffixes start with different characters.
 */
export function eventIdOf(prefix: string, callId: string | undefined, occurrence: number): string {
  return callId === undefined ? `${prefix}.${occurrence}` : `${prefix}_${callId}`;
}

/** What a request is built from besides the payload. */
export interface AhpRequestOptions {
  readonly protocolVersion: AhpVersion;
  readonly includeNative: boolean;
  /** The event id (see `eventIdOf`). */
  readonly eventId: string;
  /** `now`, for `time`. */
  readonly time: Date;
}

/** The `event` object of a request, from a hookwire payload (the effective arguments). */
export function ahpEvent(
  registeredAs: string,
  payload: Readonly<Record<string, unknown>>,
  options: AhpRequestOptions,
): Record<string, unknown> {
  const type = AHP_EVENT_OF[registeredAs] ?? 'tool.before';
  const session: Record<string, unknown> = { id: textOf(payload['session_id'], 'unknown') };
  if (typeof payload['cwd'] === 'string') {
    session['cwd'] = payload['cwd'];
    session['workspaceRoots'] = [payload['cwd']];
  }
  const event: Record<string, unknown> = {
    id: options.eventId,
    source: AHP_SOURCE,
    type,
    time: options.time.toISOString(),
    session,
  };
  if (type.startsWith('tool.')) {
    const name = textOf(payload['tool_name'], '');
    const input = objectOf(payload['tool_input']) ?? {};
    const mcp = objectOf(payload['mcp_context']) !== undefined || name.startsWith('mcp__');
    const callId = textOf(payload['tool_call_id'], '');
    const tool: Record<string, unknown> = {
      name,
      kind: mcp ? 'mcp' : (TOOL_KINDS[name] ?? 'other'),
      input,
      origin: mcp ? 'mcp' : 'native',
    };
    if (options.protocolVersion === '0.1') tool['callId'] = callId;
    else {
      event['call'] = { id: callId };
      event['path'] = 'native';
    }
    if (type === 'tool.after') tool['output'] = payload['tool_response'] ?? null;
    if (type === 'tool.error') tool['error'] = textOf(payload['error'], '');
    event['tool'] = tool;
  }
  if (type === 'session.start' && typeof payload['source'] === 'string')
    event['trigger'] = payload['source'];
  if (type === 'session.end' && typeof payload['reason'] === 'string')
    event['reason'] = payload['reason'];
  if (options.includeNative)
    event['native'] = {
      provider: 'hookwire',
      eventName: registeredAs,
      payload,
    };
  return event;
}

/** The `hooks/intercept` request (an object; serialise it once). */
export function interceptRequest(
  registeredAs: string,
  payload: Readonly<Record<string, unknown>>,
  options: AhpRequestOptions,
): Record<string, unknown> {
  return {
    jsonrpc: '2.0',
    id: options.eventId,
    method: 'hooks/intercept',
    params: {
      protocolVersion: options.protocolVersion,
      event: ahpEvent(registeredAs, payload, options),
      capabilities: { effects: [...ADVERTISED_EFFECTS[options.protocolVersion]] },
    },
  };
}

/** The `hooks/observe` notification (no `id`: nothing answers it). */
export function observeNotification(
  registeredAs: string,
  payload: Readonly<Record<string, unknown>>,
  options: AhpRequestOptions,
): Record<string, unknown> {
  return {
    jsonrpc: '2.0',
    method: 'hooks/observe',
    params: {
      protocolVersion: options.protocolVersion,
      event: ahpEvent(registeredAs, payload, options),
    },
  };
}

/** One accepted effect. */
export type AhpEffect =
  | { readonly type: 'deny'; readonly reason: string; readonly code?: string }
  | { readonly type: 'modify'; readonly operation: 'replace' | 'merge'; readonly value: unknown }
  | { readonly type: 'message'; readonly text: string }
  | { readonly type: 'flow'; readonly reason: string };

/** A response, accepted or rejected (with the failure class and what was wrong). */
export type AhpVerdict =
  | { readonly ok: true; readonly effects: readonly AhpEffect[] }
  | { readonly ok: false; readonly failure: AhpFailureClass; readonly what: string };

/** The failure classes, one at a time (AHP §failure). */
export type AhpFailureClass =
  | 'timeout'
  | 'crash'
  | 'exit'
  | 'malformed'
  | 'id-mismatch'
  | 'rpc-error'
  | 'version'
  | 'unadvertised-effect'
  | 'http-status'
  | 'http-redirect'
  | 'auth'
  | 'transport';

function reject(failure: AhpFailureClass, what: string): AhpVerdict {
  return { ok: false, failure, what };
}

/**
 * Validates one response text (one JSON-RPC message) to the intercept request `id` under
 * `version`: the whole response, before any effect applies.
 */
export function validateInterceptResponse(
  text: string,
  id: string,
  version: AhpVersion,
): AhpVerdict {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return reject(
      'malformed',
      `answered text that is not JSON (${JSON.stringify(text.slice(0, 80))})`,
    );
  }
  const fields = objectOf(message);
  if (fields === undefined || fields['jsonrpc'] !== '2.0')
    return reject('malformed', 'answered something that is not a JSON-RPC 2.0 message');
  if (fields['id'] !== id)
    return reject(
      'id-mismatch',
      `answered id ${JSON.stringify(fields['id'])}, not the request's ${JSON.stringify(id)}`,
    );
  const error = objectOf(fields['error']);
  if (error !== undefined) {
    if ('result' in fields) return reject('malformed', 'answered both result and error');
    return reject('rpc-error', `answered JSON-RPC error ${String(error['code'])}`);
  }
  const result = objectOf(fields['result']);
  if (result === undefined) return reject('malformed', 'answered no result object');
  if (result['protocolVersion'] !== version)
    return reject(
      'version',
      `answered protocolVersion ${JSON.stringify(result['protocolVersion'])}, not ${JSON.stringify(version)}`,
    );
  const raw = result['effects'];
  if (!Array.isArray(raw)) return reject('malformed', 'answered no effects array');
  const advertised = ADVERTISED_EFFECTS[version];
  const effects: AhpEffect[] = [];
  for (const [index, item] of raw.entries()) {
    const effect = objectOf(item);
    const type = effect?.['type'];
    if (effect === undefined || typeof type !== 'string')
      return reject('malformed', `effects[${index}] is not an effect object with a type`);
    if (!advertised.includes(type))
      return reject('unadvertised-effect', `answered effect "${type}", which was not advertised`);
    const parsed = parseEffect(effect);
    if (parsed === undefined)
      return reject('malformed', `effects[${index}] (${type}) is malformed`);
    effects.push(parsed);
  }
  // 0.1 admits no effect or exactly one deny (AHP-DEC-001).
  if (version === '0.1' && effects.length > 1)
    return reject('malformed', `answered ${effects.length} effects; 0.1 admits [] or one deny`);
  if (effects.filter((effect) => effect.type === 'modify').length > 1)
    return reject('malformed', 'answered conflicting effects (more than one modify)');
  return { ok: true, effects };
}

function parseEffect(effect: Readonly<Record<string, unknown>>): AhpEffect | undefined {
  switch (effect['type']) {
    case 'deny': {
      const reason = effect['reason'];
      const code = effect['code'];
      if (typeof reason !== 'string' || reason.trim() === '') return undefined;
      if (code !== undefined && typeof code !== 'string') return undefined;
      return code === undefined ? { type: 'deny', reason } : { type: 'deny', reason, code };
    }
    case 'modify': {
      const operation = effect['operation'];
      if (effect['target'] !== 'input' || (operation !== 'replace' && operation !== 'merge'))
        return undefined;
      if (objectOf(effect['value']) === undefined) return undefined;
      return { type: 'modify', operation, value: effect['value'] };
    }
    case 'message': {
      const text = effect['text'];
      return typeof text === 'string' && text !== '' ? { type: 'message', text } : undefined;
    }
    case 'flow': {
      const reason = effect['reason'];
      if (effect['operation'] !== 'stop') return undefined;
      return { type: 'flow', reason: typeof reason === 'string' ? reason : 'stopped by policy' };
    }
    default:
      return undefined;
  }
}
