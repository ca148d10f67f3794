/** Where a JSON text first goes wrong, and why, in words a person can act on. */
export interface JsonSyntaxError {
  readonly line: number;
  readonly column: number;
  readonly message: string;
  readonly fix: string;
}

class Stop extends Error {
  readonly offset: number;
  readonly reason: string;
  readonly fix: string;
  constructor(offset: number, reason: string, fix: string) {
    super(reason);
    this.offset = offset;
    this.reason = reason;
    this.fix = fix;
  }
}

/**
 * Scans `text` as JSON and returns its first syntax error with a 1-based line and column, or
 * `undefined` if it is valid JSON. Used only after `JSON.parse` has failed, because V8's own
 * messages do not always carry a position.
 */
export function findJsonSyntaxError(text: string): JsonSyntaxError | undefined {
  let offset = 0;
  const skipSpace = (): void => {
    while (offset < text.length && ' \t\n\r'.includes(text[offset] ?? '')) offset++;
  };
  const shown = (): string =>
    offset >= text.length ? 'the end of the file' : JSON.stringify(text[offset]);
  const fail = (reason: string, fix: string): never => {
    throw new Stop(offset, reason, fix);
  };
  const checkComment = (): void => {
    if (text[offset] === '/' && (text[offset + 1] === '/' || text[offset + 1] === '*')) {
      fail('comments are not allowed in JSON', 'remove the comment');
    }
  };
  const string = (): void => {
    offset++; // opening quote
    while (offset < text.length) {
      const character = text[offset] ?? '';
      if (character === '"') {
        offset++;
        return;
      }
      if (character === '\n') fail('unterminated string', 'close the string with a double quote');
      if (character === '\\') {
        const escaped = text[offset + 1] ?? '';
        if (escaped === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(offset + 2, offset + 6))) {
            fail('invalid \\u escape', 'write four hex digits after \\u');
          }
          offset += 6;
          continue;
        }
        if (!'"\\/bfnrt'.includes(escaped) || escaped === '') {
          fail(`invalid escape \\${escaped}`, 'write a backslash as \\\\ inside JSON strings');
        }
        offset += 2;
        continue;
      }
      if (character < ' ') fail('control character in string', 'escape it (\\n, \\t)');
      offset++;
    }
    fail('unterminated string', 'close the string with a double quote');
  };
  const value = (): void => {
    skipSpace();
    checkComment();
    const character = text[offset];
    if (character === '{') {
      object();
      return;
    }
    if (character === '[') {
      array();
      return;
    }
    if (character === '"') {
      string();
      return;
    }
    if (character === "'")
      fail('strings must use double quotes', 'replace the single quotes with double quotes');
    const literal = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(
      text.slice(offset),
    );
    if (literal === null)
      fail(
        `expected a value, found ${shown()}`,
        'write a string, number, true, false, null, an object or an array',
      );
    offset += literal?.[0].length ?? 0;
  };
  const object = (): void => {
    offset++;
    skipSpace();
    if (text[offset] === '}') {
      offset++;
      return;
    }
    for (;;) {
      skipSpace();
      checkComment();
      if (text[offset] === '}')
        fail('trailing comma before "}"', 'remove the comma after the last property');
      if (text[offset] !== '"')
        fail(
          `expected a double-quoted property name, found ${shown()}`,
          'quote the property name with double quotes',
        );
      string();
      skipSpace();
      if (text[offset] !== ':')
        fail(
          `expected ":" after the property name, found ${shown()}`,
          'add a colon between the name and its value',
        );
      offset++;
      value();
      skipSpace();
      checkComment();
      if (text[offset] === ',') {
        offset++;
        continue;
      }
      if (text[offset] === '}') {
        offset++;
        return;
      }
      fail(
        `expected "," or "}" after a property, found ${shown()}`,
        'separate properties with commas and close the object with "}"',
      );
    }
  };
  const array = (): void => {
    offset++;
    skipSpace();
    if (text[offset] === ']') {
      offset++;
      return;
    }
    for (;;) {
      skipSpace();
      if (text[offset] === ']')
        fail('trailing comma before "]"', 'remove the comma after the last element');
      value();
      skipSpace();
      checkComment();
      if (text[offset] === ',') {
        offset++;
        continue;
      }
      if (text[offset] === ']') {
        offset++;
        return;
      }
      fail(
        `expected "," or "]" after an element, found ${shown()}`,
        'separate elements with commas and close the array with "]"',
      );
    }
  };
  try {
    value();
    skipSpace();
    if (offset < text.length)
      fail(
        `unexpected ${shown()} after the end of the JSON value`,
        'remove it: a settings file holds one JSON object',
      );
    return undefined;
  } catch (error) {
    if (!(error instanceof Stop)) throw error;
    return { ...lineAndColumn(text, error.offset), message: error.reason, fix: error.fix };
  }
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let index = 0; index < offset && index < text.length; index++) {
    if (text[index] === '\n') {
      line++;
      lineStart = index + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}
