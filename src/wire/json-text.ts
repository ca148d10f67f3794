/**
 * A strict JSON parser for text people write (settings files): iterative, so no input depth can
 * overflow the stack; bounded, so nesting deeper than `maxDepth` stops with an error naming the
 * limit; and exact about what `JSON.parse` hides: every duplicated object key is reported with
 * the positions of both occurrences. Syntax errors carry a 1-based line and column and a fix in
 * words a person can act on. It accepts exactly RFC 8259 JSON (no comments, no trailing commas).
 */

/** A JSON path as segments: object keys and array indexes, from the root. */
export type JsonPathSegments = readonly (string | number)[];

/** A place in the text: the character offset and its 1-based line and column. */
export interface JsonTextPosition {
  readonly offset: number;
  readonly line: number;
  readonly column: number;
}

/** An object key written twice in the same object (`JSON.parse` silently keeps the last). */
export interface JsonDuplicateKey {
  /** The path of the duplicated member (the object's path plus the key). */
  readonly path: JsonPathSegments;
  readonly key: string;
  /** Where the key is first written. */
  readonly first: JsonTextPosition;
  /** Where it is written again. */
  readonly second: JsonTextPosition;
}

/** Why the text is not JSON, or is nested deeper than allowed. */
export interface JsonTextError extends JsonTextPosition {
  /** `syntax`: not JSON; `depth`: nested deeper than `maxDepth`. */
  readonly kind: 'syntax' | 'depth';
  readonly message: string;
  readonly fix: string;
}

/** Options of `parseJsonText`. */
export interface ParseJsonTextOptions {
  /**
   * The deepest nesting of objects and arrays accepted (the root object is depth 1). Deeper
   * text stops with a `depth` error. Default `DEFAULT_MAX_JSON_DEPTH`.
   */
  readonly maxDepth?: number;
}

/** The outcome of `parseJsonText`: the value and every duplicated key, or the first error. */
export type JsonTextResult =
  | { readonly ok: true; readonly value: unknown; readonly duplicates: readonly JsonDuplicateKey[] }
  | { readonly ok: false; readonly error: JsonTextError };

/** The nesting depth `parseJsonText` accepts when not told otherwise. */
export const DEFAULT_MAX_JSON_DEPTH = 64;

interface ObjectFrame {
  readonly kind: 'object';
  readonly value: Record<string, unknown>;
  /** Each key already seen in this object, with the offset of its opening quote. */
  readonly keys: Map<string, number>;
  /** The key whose value is being read. */
  key: string;
}

interface ArrayFrame {
  readonly kind: 'array';
  readonly value: unknown[];
}

type Frame = ObjectFrame | ArrayFrame;

/** Thrown inside the parser to unwind to its one catch; never escapes it. */
class Stop extends Error {
  readonly offset: number;
  readonly kind: 'syntax' | 'depth';
  readonly fix: string;
  constructor(offset: number, message: string, fix: string, kind: 'syntax' | 'depth' = 'syntax') {
    super(message);
    this.offset = offset;
    this.message = message;
    this.fix = fix;
    this.kind = kind;
  }
}

const SPACE = 0x20;
const TAB = 0x09;
const NEWLINE = 0x0a;
const RETURN = 0x0d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const LITERAL = /true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const HEX4 = /[0-9a-fA-F]{4}/y;

/** 1-based line and column of `offset` in `text`. */
export function positionOf(text: string, offset: number): JsonTextPosition {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(offset, text.length);
  for (let index = text.indexOf('\n'); index !== -1 && index < end;) {
    line++;
    lineStart = index + 1;
    index = text.indexOf('\n', lineStart);
  }
  return { offset, line, column: offset - lineStart + 1 };
}

function setMember(target: Record<string, unknown>, key: string, value: unknown): void {
  // Plain assignment of "__proto__" would replace the prototype; JSON.parse makes it an own key.
  if (key === '__proto__')
    Object.defineProperty(target, key, {
      value,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  else target[key] = value;
}

/**
 * Parses `text` as one JSON value (surrounding whitespace allowed). Never throws and never
 * recurses: the first syntax error, or nesting deeper than `maxDepth`, is returned as an error
 * with its line and column; a valid text returns the value (as `JSON.parse` would build it,
 * the last of duplicated keys winning) and every duplicated key in document order.
 */
export function parseJsonText(text: string, options: ParseJsonTextOptions = {}): JsonTextResult {
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_JSON_DEPTH;
  const duplicates: { path: (string | number)[]; key: string; first: number; second: number }[] =
    [];
  const stack: Frame[] = [];
  let offset = 0;

  const skipSpace = (): void => {
    for (;;) {
      const code = text.charCodeAt(offset);
      if (code === SPACE || code === NEWLINE || code === RETURN || code === TAB) offset++;
      else return;
    }
  };
  const shown = (): string =>
    offset >= text.length ? 'the end of the file' : JSON.stringify(text[offset]);
  const fail = (message: string, fix: string): never => {
    throw new Stop(offset, message, fix);
  };
  const checkComment = (): void => {
    if (text[offset] === '/' && (text[offset + 1] === '/' || text[offset + 1] === '*'))
      fail('comments are not allowed in JSON', 'remove the comment');
  };
  /** Reads the string whose opening quote is at `offset`; leaves `offset` after its closing quote. */
  const readString = (): string => {
    const start = offset;
    offset++;
    let escaped = false;
    for (;;) {
      if (offset >= text.length)
        fail('unterminated string', 'close the string with a double quote');
      const code = text.charCodeAt(offset);
      if (code === QUOTE) break;
      if (code === NEWLINE) fail('unterminated string', 'close the string with a double quote');
      if (code === BACKSLASH) {
        escaped = true;
        const next = text[offset + 1] ?? '';
        if (next === 'u') {
          HEX4.lastIndex = offset + 2;
          if (!HEX4.test(text)) fail('invalid \\u escape', 'write four hex digits after \\u');
          offset += 6;
          continue;
        }
        if (next === '' || !'"\\/bfnrt'.includes(next))
          fail(`invalid escape \\${next}`, 'write a backslash as \\\\ inside JSON strings');
        offset += 2;
        continue;
      }
      if (code < SPACE) fail('control character in string', 'escape it (\\n, \\t)');
      offset++;
    }
    offset++;
    // A flat string literal, already checked: JSON.parse decodes its escapes without recursion.
    return escaped
      ? (JSON.parse(text.slice(start, offset)) as string)
      : text.slice(start + 1, offset - 1);
  };
  const path = (): (string | number)[] =>
    stack.map((frame) => (frame.kind === 'object' ? frame.key : frame.value.length));
  /** After `{` or `,` in an object: reads the next key and its colon. */
  const readKey = (frame: ObjectFrame): void => {
    skipSpace();
    checkComment();
    if (text.charCodeAt(offset) !== QUOTE)
      fail(
        `expected a double-quoted property name, found ${shown()}`,
        'quote the property name with double quotes',
      );
    const keyOffset = offset;
    const key = readString();
    frame.key = key;
    const seen = frame.keys.get(key);
    if (seen === undefined) frame.keys.set(key, keyOffset);
    else duplicates.push({ path: path(), key, first: seen, second: keyOffset });
    skipSpace();
    if (text[offset] !== ':')
      fail(
        `expected ":" after the property name, found ${shown()}`,
        'add a colon between the name and its value',
      );
    offset++;
  };
  const open = (): void => {
    if (stack.length >= maxDepth)
      throw new Stop(
        offset,
        `nesting deeper than ${maxDepth} levels (the limit on objects and arrays inside one another)`,
        `flatten the structure to at most ${maxDepth} levels`,
        'depth',
      );
  };

  try {
    let value: unknown;
    // Each turn of this loop reads one value, then closes every container it completes.
    for (;;) {
      skipSpace();
      checkComment();
      const character = text[offset];
      let complete = true;
      if (character === '{') {
        open();
        offset++;
        const frame: ObjectFrame = { kind: 'object', value: {}, keys: new Map(), key: '' };
        skipSpace();
        if (text[offset] === '}') {
          offset++;
          value = frame.value;
        } else {
          stack.push(frame);
          readKey(frame);
          complete = false;
        }
      } else if (character === '[') {
        open();
        offset++;
        const frame: ArrayFrame = { kind: 'array', value: [] };
        skipSpace();
        if (text[offset] === ']') {
          offset++;
          value = frame.value;
        } else {
          stack.push(frame);
          complete = false;
        }
      } else if (character === '"') {
        value = readString();
      } else {
        if (character === "'")
          fail('strings must use double quotes', 'replace the single quotes with double quotes');
        LITERAL.lastIndex = offset;
        const literal = LITERAL.exec(text);
        if (literal === null)
          fail(
            `expected a value, found ${shown()}`,
            'write a string, number, true, false, null, an object or an array',
          );
        const written = literal?.[0] ?? '';
        offset += written.length;
        value =
          written === 'true'
            ? true
            : written === 'false'
              ? false
              : written === 'null'
                ? null
                : Number(written);
      }
      if (!complete) continue;
      // `value` is complete: store it in its container, and close the containers it completes.
      for (;;) {
        const frame = stack[stack.length - 1];
        if (frame === undefined) {
          skipSpace();
          if (offset < text.length)
            fail(
              `unexpected ${shown()} after the end of the JSON value`,
              'remove it: a settings file holds one JSON object',
            );
          return {
            ok: true,
            value,
            duplicates: duplicates.map((duplicate) => ({
              path: duplicate.path,
              key: duplicate.key,
              first: positionOf(text, duplicate.first),
              second: positionOf(text, duplicate.second),
            })),
          };
        }
        if (frame.kind === 'object') setMember(frame.value, frame.key, value);
        else frame.value.push(value);
        skipSpace();
        checkComment();
        const next = text[offset];
        const close = frame.kind === 'object' ? '}' : ']';
        if (next === ',') {
          offset++;
          skipSpace();
          if (text[offset] === close)
            fail(
              `trailing comma before "${close}"`,
              frame.kind === 'object'
                ? 'remove the comma after the last property'
                : 'remove the comma after the last element',
            );
          if (frame.kind === 'object') readKey(frame);
          break;
        }
        if (next === close) {
          offset++;
          stack.pop();
          value = frame.value;
          continue;
        }
        if (frame.kind === 'object')
          fail(
            `expected "," or "}" after a property, found ${shown()}`,
            'separate properties with commas and close the object with "}"',
          );
        fail(
          `expected "," or "]" after an element, found ${shown()}`,
          'separate elements with commas and close the array with "]"',
        );
      }
    }
  } catch (error) {
    if (!(error instanceof Stop)) throw error;
    return {
      ok: false,
      error: {
        kind: error.kind,
        ...positionOf(text, error.offset),
        message: error.message,
        fix: error.fix,
      },
    };
  }
}

/**
 * The offset of the first `{` or `[` of `text` that opens a level deeper than `maxDepth`, or
 * `-1` when the text nests no deeper (strings are skipped; the text need not be valid JSON).
 * One pass, no recursion: the check to run before handing text to `JSON.parse` and the
 * recursive validators and serialisers after it.
 */
export function jsonTextDepthExceeds(text: string, maxDepth: number): number {
  let depth = 0;
  for (let offset = 0; offset < text.length; offset++) {
    const code = text.charCodeAt(offset);
    if (code === QUOTE) {
      for (offset++; offset < text.length; offset++) {
        const inner = text.charCodeAt(offset);
        if (inner === BACKSLASH) offset++;
        else if (inner === QUOTE) break;
      }
    } else if (code === 0x7b || code === 0x5b) {
      depth++;
      if (depth > maxDepth) return offset;
    } else if (code === 0x7d || code === 0x5d) depth--;
  }
  return -1;
}

/**
 * True when `value` nests objects and arrays deeper than `maxDepth` (the root object is depth 1).
 * Iterative, and it stops at the first level past the limit, so a cyclic or enormously deep value
 * costs at most the nodes above that level.
 */
export function jsonValueDepthExceeds(value: unknown, maxDepth: number): boolean {
  const pending: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  for (let item = pending.pop(); item !== undefined; item = pending.pop()) {
    const current = item.value;
    if (typeof current !== 'object' || current === null) continue;
    const depth = item.depth + 1;
    if (depth > maxDepth) return true;
    const children: unknown[] = Array.isArray(current) ? current : Object.values(current);
    for (const child of children)
      if (typeof child === 'object' && child !== null) pending.push({ value: child, depth });
  }
  return false;
}
