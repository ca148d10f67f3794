/** What a command hook printed on stdout (exit 0), classified before any event-specific decoding. */
export type HookStdout =
  | { readonly kind: 'json'; readonly value: unknown }
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'empty' }
  | { readonly kind: 'invalid-json'; readonly error: string };

/**
 * Classifies a hook's stdout (surrounding whitespace and a byte-order mark ignored):
 * - nothing → `empty`;
 * - starts with `{` or `[` → `json` when it parses, else `invalid-json` with the parser's message;
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
  try {
    return { kind: 'json', value: JSON.parse(text) as unknown };
  } catch (error) {
    return { kind: 'invalid-json', error: error instanceof Error ? error.message : String(error) };
  }
}
