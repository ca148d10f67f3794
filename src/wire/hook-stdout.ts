import { isJsonObject } from './json-object.ts';
import { jsonTextDepthExceeds, jsonValueDepthExceeds, parseJsonText } from './json-text.ts';

/**
 * The bounds of the JSON a command hook exchanges. Answers and payloads are checked against
 * them before anything recursive (zod validation, `JSON.stringify`, the transcript) sees them, so
 * a hook answer or a tool input nesting ten thousand levels is a clear failure naming the limit
 * (a denial for a `failClosed` guard), never a stack overflow. An answer's size is bounded where
 * it is read: the runner keeps at most `maxOutputBytes` (1 MiB) of each stream.
 */
export const HOOK_JSON_LIMITS = {
  /** The deepest nesting of objects and arrays in a hook's answer or payload (the root is 1). */
  maxDepth: 100,
  /** The largest payload written to a hook's stdin, in bytes of JSON (16 MiB). */
  maxPayloadBytes: 16 * 1024 * 1024,
} as const;

/** What a command hook printed on stdout (exit 0), classified before any event-specific decoding. */
export type HookStdout =
  | { readonly kind: 'json'; readonly value: unknown }
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'empty' }
  | { readonly kind: 'invalid-json'; readonly error: string };

/**
 * Classifies a hook's stdout (surrounding whitespace and a byte-order mark ignored):
 * - nothing → `empty`;
 * - starts with `{` or `[` → `json` when it parses, else `invalid-json` with the parser's message
 *   (JSON nested deeper than `HOOK_JSON_LIMITS.maxDepth` is `invalid-json` too, before parsing);
 * - a JSON string literal whose content is itself a JSON object or array (a hook that encoded its
 *   output twice) → `json` with that inner value, one level unwrapped; a string literal whose
 *   content starts with `{`/`[` but does not parse → `invalid-json`;
 * - anything else (plain text, a bare number, a string literal of prose) → `text`, the trimmed
 *   stdout exactly as printed.
 * Whether text is context or a message is the caller's decision (it depends on the event).
 */
export function parseHookStdout(stdout: string): HookStdout {
  const trimmed = stdout.replace(/^\uFEFF/, '').trim();
  if (trimmed === '') return { kind: 'empty' };
  const first = trimmed[0];
  if (first === '{' || first === '[') return parseJson(trimmed);
  if (first === '"') {
    let decoded: unknown;
    try {
      decoded = JSON.parse(trimmed);
    } catch {
      return { kind: 'text', text: trimmed };
    }
    if (typeof decoded === 'string') {
      const inner = decoded.trim();
      if (inner.startsWith('{') || inner.startsWith('[')) return parseJson(inner);
    }
  }
  return { kind: 'text', text: trimmed };
}

function parseJson(text: string): HookStdout {
  const tooDeep = jsonTextDepthExceeds(text, HOOK_JSON_LIMITS.maxDepth);
  if (tooDeep !== -1)
    return {
      kind: 'invalid-json',
      error: `JSON nested deeper than the limit of ${HOOK_JSON_LIMITS.maxDepth} levels (at character ${tooDeep + 1})`,
    };
  try {
    return { kind: 'json', value: JSON.parse(text) as unknown };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { kind: 'invalid-json', error: `invalid JSON (${reason})` };
  }
}

const QUOTED_CHARACTERS = 80;

/** The start of `text` as a JSON string literal (newlines visible), cut with `…` when longer. */
export function quoteStart(text: string, characters = QUOTED_CHARACTERS): string {
  const characterList = Array.from(text);
  return characterList.length <= characters
    ? JSON.stringify(text)
    : `${JSON.stringify(characterList.slice(0, characters).join(''))}…`;
}

/**
 * The rule for a `failClosed` guard's stdout (exit 0): exactly one JSON object, or nothing
 * (surrounding whitespace and a byte-order mark ignored). Returns why `stdout` breaks it — plain
 * text (such as a log line printed before the answer), an array, a string literal, invalid or
 * too-deep JSON, several values — quoting the start of what was printed; `undefined` when it
 * keeps it. A guard that breaks it denies: its answer cannot be trusted to allow. Hooks that are
 * not `failClosed` keep the lenient reading of `parseHookStdout` (plain text is context or a
 * message).
 */
export function guardStdoutProblem(stdout: string): string | undefined {
  const trimmed = stdout.replace(/^\uFEFF/, '').trim();
  if (trimmed === '') return undefined;
  const printed = `it printed ${quoteStart(trimmed)}`;
  if (trimmed[0] !== '{')
    return `printed something other than one JSON object (a guard's stdout must be exactly one JSON object or nothing): ${printed}`;
  const parsed = parseJson(trimmed);
  if (parsed.kind === 'invalid-json')
    return `printed output that does not decode: ${parsed.error}; ${printed}`;
  if (parsed.kind !== 'json' || !isJsonObject(parsed.value))
    return `printed something other than one JSON object: ${printed}`;
  // `JSON.parse` keeps the last of a repeated key: `{"hookSpecificOutput": deny, …,
  // "hookSpecificOutput": allow}` would pass as an allow. A guard's answer must say one thing.
  const exact = parseJsonText(trimmed, { maxDepth: HOOK_JSON_LIMITS.maxDepth });
  const repeated = exact.ok ? exact.duplicates[0] : undefined;
  if (repeated !== undefined) {
    const where = repeated.path.slice(0, -1).map(String).join('.');
    return `printed JSON that repeats the key ${JSON.stringify(repeated.key)}${where === '' ? '' : ` in ${where}`} (line ${repeated.second.line}), which is ambiguous (a guard's answer must say one thing): ${printed}`;
  }
  return undefined;
}

/**
 * The outcome of `encodeHookPayload`: the JSON text and its UTF-8 bytes (what stdin gets, encoded
 * once, on first read, for every hook that receives it), or why it cannot be sent.
 */
export type HookPayloadEncoding =
  | { readonly ok: true; readonly text: string; readonly bytes: Buffer }
  | { readonly ok: false; readonly problem: string };

/**
 * Serialises a hook's payload for its stdin within `HOOK_JSON_LIMITS`: deeper nesting than
 * `maxDepth` (checked without recursion, before `JSON.stringify` would overflow) or more than
 * `maxPayloadBytes` of JSON is a problem naming the limit, which the caller reports as the hook
 * failing to run (a denial when it is `failClosed`).
 */
export function encodeHookPayload(payload: unknown): HookPayloadEncoding {
  if (jsonValueDepthExceeds(payload, HOOK_JSON_LIMITS.maxDepth))
    return {
      ok: false,
      problem: `its payload nests deeper than the limit of ${HOOK_JSON_LIMITS.maxDepth} levels, so it was not sent`,
    };
  const text = JSON.stringify(payload);
  // Counted without encoding: only kinds that write bytes (command hooks' stdin) encode them,
  // once, on first read; a process or http hook sends the text.
  const length = text.length * 3 <= HOOK_JSON_LIMITS.maxPayloadBytes ? 0 : Buffer.byteLength(text);
  if (length > HOOK_JSON_LIMITS.maxPayloadBytes)
    return {
      ok: false,
      problem: `its payload is ${length} bytes of JSON, more than the limit of ${HOOK_JSON_LIMITS.maxPayloadBytes / (1024 * 1024)} MiB, so it was not sent`,
    };
  let bytes: Buffer | undefined;
  return {
    ok: true,
    text,
    get bytes() {
      bytes ??= Buffer.from(text, 'utf8');
      return bytes;
    },
  };
}
