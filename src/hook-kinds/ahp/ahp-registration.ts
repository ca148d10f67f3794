/**
 * An AHP portable registration document (AHP-REG-001, `base/registration.md`) translated into
 * hookwire settings: one `ahp` entry per backend and subscribed event, in the document's order,
 * with the same transport, credential reference (`tokenEnv`), timeout, failure policy, protocol
 * version and `includeNative`. The spec allows a harness to translate the document into its
 * native configuration only when order, subscriptions, timeouts, failure policies, transports and
 * credential semantics stay equivalent; so anything hookwire cannot carry equivalently (a
 * wildcard event, a token reference, OAuth or mTLS, content selection other than the body, an
 * upload endpoint, an observe-only `tool.before`) is refused with its JSON path, as is every
 * invalid registration (AHP: reject invalid or ambiguous configuration, never skip it).
 *
 * The entries of one event form one group, so they run serially in registration order and a
 * denial short-circuits the rest (AHP-COMP-001), as the `ahp` kind runs a group.
 */
import { isLoopback } from './ahp-transports.ts';
import { AHP_VERSIONS } from './ahp-wire.ts';

/** One reason a registration is refused: where (a JSON path from `$`) and what. */
export interface RegistrationIssue {
  readonly path: string;
  readonly message: string;
}

/** The translation: hookwire settings and notes on what was left out (hints only), or issues. */
export type RegistrationImport =
  | {
      readonly ok: true;
      readonly settings: {
        readonly hooks: Readonly<Record<string, readonly { readonly hooks: unknown[] }[]>>;
      };
      readonly notes: readonly string[];
    }
  | { readonly ok: false; readonly issues: readonly RegistrationIssue[] };

/** The hookwire event of each AHP event, by mode. */
const INTERCEPT_EVENTS: Readonly<Record<string, string>> = { 'tool.before': 'PreToolUse' };
const OBSERVE_EVENTS: Readonly<Record<string, string>> = {
  'tool.after': 'PostToolUse',
  'tool.error': 'PostToolUseFailure',
  'session.start': 'SessionStart',
  'session.end': 'SessionEnd',
};

const REVERSE_DNS = /^(?:[A-Za-z][A-Za-z0-9_-]*\.)+[A-Za-z][A-Za-z0-9_-]*$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const LITERAL_TOKEN_FIELDS = ['token', 'bearerToken', 'value'];

type Fields = Readonly<Record<string, unknown>>;

function objectOf(value: unknown): Fields | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Fields)
    : undefined;
}

class Checker {
  readonly issues: RegistrationIssue[] = [];
  readonly notes: string[] = [];

  fail(path: string, message: string): void {
    this.issues.push({ path, message });
  }

  /** Fields of `value` not in `known`: refused, since their meaning could not be carried. */
  unknown(path: string, value: Fields, known: readonly string[]): void {
    for (const key of Object.keys(value))
      if (!known.includes(key))
        this.fail(
          `${path}.${key}`,
          `hookwire cannot carry "${key}" equivalently (unknown or unsupported here)`,
        );
  }

  transport(path: string, value: unknown): Record<string, unknown> | undefined {
    const transport = objectOf(value);
    if (transport === undefined) {
      this.fail(path, 'must be an object');
      return;
    }
    if (transport['type'] === 'stdio') {
      this.unknown(path, transport, ['type', 'command', 'args', 'lifecycle', 'cwd']);
      const { command, args, lifecycle, cwd } = transport;
      if (typeof command !== 'string' || command === '')
        this.fail(`${path}.command`, 'must be a non-empty string (run without a shell)');
      if (args !== undefined && !(Array.isArray(args) && args.every((a) => typeof a === 'string')))
        this.fail(`${path}.args`, 'must be an array of strings');
      if (lifecycle !== 'persistent' && lifecycle !== 'per_event')
        this.fail(`${path}.lifecycle`, 'must be "persistent" or "per_event"');
      if (cwd !== undefined && typeof cwd !== 'string')
        this.fail(`${path}.cwd`, 'must be a string');
      return {
        type: 'stdio',
        command,
        ...(args === undefined ? {} : { args }),
        lifecycle,
        ...(cwd === undefined ? {} : { cwd }),
      };
    }
    if (transport['type'] === 'http') {
      this.unknown(path, transport, ['type', 'url']);
      const url = transport['url'];
      let parsed: URL | undefined;
      try {
        parsed = typeof url === 'string' ? new URL(url) : undefined;
      } catch {
        parsed = undefined;
      }
      if (parsed === undefined || !/^https?:$/.test(parsed.protocol)) {
        this.fail(`${path}.url`, 'must be an absolute http(s) URL');
        return;
      }
      if (parsed.protocol === 'http:' && !isLoopback(parsed)) {
        this.fail(
          `${path}.url`,
          `plain http is allowed only on loopback; ${parsed.host} is remote (use https)`,
        );
        return;
      }
      return { type: 'http', url };
    }
    this.fail(`${path}.type`, 'must be "stdio" or "http"');
    return undefined;
  }

  authentication(
    path: string,
    value: unknown,
    transportType: unknown,
  ): Record<string, unknown> | undefined {
    if (value === undefined) return undefined;
    const auth = objectOf(value);
    if (auth === undefined) {
      this.fail(path, 'must be an object');
      return;
    }
    if (transportType === 'stdio') {
      this.fail(path, 'a stdio backend takes no authentication (no tokens in payloads)');
      return;
    }
    for (const field of LITERAL_TOKEN_FIELDS)
      if (field in auth) {
        this.fail(
          `${path}.${field}`,
          'a literal token is never valid in a registration (AHP-SEC-001): name the environment variable with tokenEnv',
        );
        return;
      }
    if (auth['type'] !== 'bearer') {
      this.fail(
        `${path}.type`,
        `hookwire supports bearer authentication from an environment variable only, not ${JSON.stringify(auth['type'])}`,
      );
      return;
    }
    if ('tokenRef' in auth) {
      this.fail(
        `${path}.tokenRef`,
        'hookwire reads bearer tokens from an environment variable only (tokenEnv)',
      );
      return;
    }
    this.unknown(path, auth, ['type', 'tokenEnv']);
    const tokenEnv = auth['tokenEnv'];
    if (typeof tokenEnv !== 'string' || !ENV_NAME.test(tokenEnv)) {
      this.fail(`${path}.tokenEnv`, 'must name an environment variable');
      return;
    }
    return { type: 'bearer', tokenEnv };
  }
}

/** Translates a parsed registration document (see the module comment). */
export function importRegistration(document: unknown): RegistrationImport {
  const check = new Checker();
  const root = objectOf(document);
  if (root === undefined) {
    check.fail('$', 'a registration is a JSON object with protocolVersion and hooks');
    return { ok: false, issues: check.issues };
  }
  const version = root['protocolVersion'];
  if (!(AHP_VERSIONS as readonly unknown[]).includes(version))
    check.fail(
      '$.protocolVersion',
      `${JSON.stringify(version)} is not a version hookwire speaks (${AHP_VERSIONS.join(', ')})`,
    );
  const backends = root['hooks'];
  if (!Array.isArray(backends) || backends.length === 0) {
    check.fail('$.hooks', 'must be a non-empty array of backends');
    return { ok: false, issues: check.issues };
  }
  const groups = new Map<string, unknown[]>();
  const ids = new Set<string>();
  for (const [index, item] of backends.entries()) {
    const path = `$.hooks[${index}]`;
    const backend = objectOf(item);
    if (backend === undefined) {
      check.fail(path, 'must be an object');
      continue;
    }
    check.unknown(path, backend, ['id', 'transport', 'authentication', 'subscriptions']);
    const id = backend['id'];
    if (typeof id !== 'string' || !REVERSE_DNS.test(id))
      check.fail(`${path}.id`, 'must be a reverse-DNS name, e.g. com.example.policy');
    else if (ids.has(id)) check.fail(`${path}.id`, `${id} is registered twice`);
    else ids.add(id);
    const transport = check.transport(`${path}.transport`, backend['transport']);
    const authentication = check.authentication(
      `${path}.authentication`,
      backend['authentication'],
      objectOf(backend['transport'])?.['type'],
    );
    const subscriptions = backend['subscriptions'];
    if (!Array.isArray(subscriptions) || subscriptions.length === 0) {
      check.fail(`${path}.subscriptions`, 'must be a non-empty array');
      continue;
    }
    const subscribed = new Set<string>();
    for (const [at, raw] of subscriptions.entries()) {
      const where = `${path}.subscriptions[${at}]`;
      const subscription = objectOf(raw);
      if (subscription === undefined) {
        check.fail(where, 'must be an object');
        continue;
      }
      for (const entry of subscriptionEntries(check, where, subscription, version)) {
        const key = `${entry.mode} ${entry.event}`;
        if (subscribed.has(key)) {
          check.fail(
            `${where}.events`,
            `${entry.event} is subscribed twice in ${entry.mode} mode by the same backend (AHP §13.3)`,
          );
          continue;
        }
        subscribed.add(key);
        const list = groups.get(entry.hookwireEvent) ?? [];
        list.push({
          type: 'ahp',
          ...(typeof id === 'string' ? { name: id } : {}),
          transport,
          ...(authentication === undefined ? {} : { authentication }),
          ...entry.fields,
          protocolVersion: version,
        });
        groups.set(entry.hookwireEvent, list);
      }
    }
  }
  if (check.issues.length > 0) return { ok: false, issues: check.issues };
  const hooks: Record<string, { hooks: unknown[] }[]> = {};
  for (const [event, entries] of groups) hooks[event] = [{ hooks: entries }];
  return { ok: true, settings: { hooks }, notes: check.notes };
}

interface SubscriptionEntry {
  readonly mode: string;
  readonly event: string;
  readonly hookwireEvent: string;
  readonly fields: Readonly<Record<string, unknown>>;
}

function subscriptionEntries(
  check: Checker,
  where: string,
  subscription: Fields,
  version: unknown,
): SubscriptionEntry[] {
  check.unknown(where, subscription, [
    'events',
    'mode',
    'timeoutMs',
    'failurePolicy',
    'includeNative',
    'content',
    'filters',
  ]);
  const mode = subscription['mode'];
  if (mode !== 'intercept' && mode !== 'observe') {
    check.fail(`${where}.mode`, 'must be "intercept" or "observe"');
    return [];
  }
  const content = subscription['content'];
  if (content !== undefined) {
    const selection = objectOf(content);
    if (
      selection === undefined ||
      selection['default'] !== 'body' ||
      Object.keys(selection).length !== 1
    )
      check.fail(
        `${where}.content`,
        'hookwire sends the whole event body; only {"default": "body"} is carried',
      );
  }
  if (subscription['filters'] !== undefined)
    check.notes.push(
      `${where}.filters: filters are hints only (AHP); hookwire delivers every event of the subscription`,
    );
  const includeNative = subscription['includeNative'];
  if (includeNative !== undefined && typeof includeNative !== 'boolean')
    check.fail(`${where}.includeNative`, 'must be a boolean');
  const fields: Record<string, unknown> = includeNative === true ? { includeNative: true } : {};
  if (mode === 'intercept') {
    const timeoutMs = subscription['timeoutMs'];
    const policy = subscription['failurePolicy'];
    if (!Number.isInteger(timeoutMs) || (timeoutMs as number) < 1)
      check.fail(
        `${where}.timeoutMs`,
        'an intercept subscription must declare a positive integer deadline (AHP-FAIL-002; no default)',
      );
    if (policy !== 'fail-open' && policy !== 'fail-closed')
      check.fail(
        `${where}.failurePolicy`,
        'an intercept subscription must declare "fail-open" or "fail-closed" (AHP-FAIL-001; no default)',
      );
    fields['failurePolicy'] = policy;
    fields['timeout'] = `${String(timeoutMs)}ms`;
  } else
    for (const field of ['timeoutMs', 'failurePolicy'])
      if (field in subscription)
        check.fail(
          `${where}.${field}`,
          'an observe subscription declares no deadline or failure policy (it always fails open)',
        );
  const events = subscription['events'];
  if (!Array.isArray(events) || events.length === 0) {
    check.fail(`${where}.events`, 'must be a non-empty array of event names');
    return [];
  }
  const table = mode === 'intercept' ? INTERCEPT_EVENTS : OBSERVE_EVENTS;
  const entries: SubscriptionEntry[] = [];
  for (const [at, event] of events.entries()) {
    const path = `${where}.events[${at}]`;
    if (typeof event !== 'string') {
      check.fail(path, 'must be an event name');
      continue;
    }
    if (event.includes('*')) {
      check.fail(path, `hookwire subscribes exact event names; expand the wildcard "${event}"`);
      continue;
    }
    const hookwireEvent = table[event];
    if (hookwireEvent === undefined) {
      check.fail(
        path,
        mode === 'observe' && event === 'tool.before'
          ? 'hookwire intercepts tool.before (PreToolUse); an observe-only tool.before subscription has no equivalent'
          : `hookwire's ahp kind cannot ${mode} ${event} (${mode === 'intercept' ? 'only tool.before' : Object.keys(OBSERVE_EVENTS).join(', ')})`,
      );
      continue;
    }
    entries.push({ mode, event, hookwireEvent, fields });
  }
  if (version === '0.1' && mode === 'intercept' && events.length !== 1)
    check.fail(`${where}.events`, 'a 0.1 intercept subscription lists exactly tool.before');
  return entries;
}
