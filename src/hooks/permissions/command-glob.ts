/**
 * The wildcard patterns of command rules (`git push *`, `*git * push * --force*`), matched without
 * regular expressions: a `*`-only glob is decided by finding its literal pieces left to right,
 * each at its first place after the previous one (taking the first place never loses a match),
 * so a check costs one pass over the command per piece, whatever the pattern. A regular
 * expression `^.*git.*push.*--force.*$` backtracks instead: cubic in the command's length, seconds
 * on a 13,500-character line.
 */

/** A compiled command pattern; `matches` is linear in the length of the text. */
export interface CommandGlob {
  matches(text: string): boolean;
}

/** The literal pieces of `pattern` around its `*`s; one piece when there is no `*`. */
function pieces(pattern: string): readonly string[] {
  return pattern.split('*');
}

/** Whether `text` matches the `*`-glob whose literal pieces are `parts`. */
function matchPieces(parts: readonly string[], text: string): boolean {
  if (parts.length === 1) return text === parts[0];
  const first = parts[0] as string;
  const last = parts[parts.length - 1] as string;
  if (text.length < first.length + last.length) return false;
  if (!text.startsWith(first) || !text.endsWith(last)) return false;
  let position = first.length;
  const end = text.length - last.length;
  for (let index = 1; index < parts.length - 1; index++) {
    const part = parts[index] as string;
    if (part === '') continue;
    const found = text.indexOf(part, position);
    if (found === -1 || found + part.length > end) return false;
    position = found + part.length;
  }
  return true;
}

/**
 * Compiles a command pattern: `*` matches any run of characters; a final ` *` also matches the
 * bare command (`git push *` matches `git push` and `git push origin`, not `git pushx`); the legacy
 * `npm:*` is `npm` alone or followed by a space and anything. Runs of white space in the pattern
 * and in the text (see `matchText`) count as one space.
 */
export function commandGlob(specifier: string): CommandGlob {
  let body = collapseSpaces(specifier);
  let tail = false;
  if (body.endsWith(':*')) {
    body = body.slice(0, -2);
    tail = true;
  } else if (body.endsWith(' *')) {
    body = body.slice(0, -2);
    tail = true;
  }
  const exact = pieces(body);
  const withArguments = tail ? pieces(`${body} *`) : undefined;
  return {
    matches(text: string): boolean {
      return (
        matchPieces(exact, text) ||
        (withArguments !== undefined && matchPieces(withArguments, text))
      );
    },
  };
}

/** `text` with each run of white space made one space and the ends trimmed. */
export function collapseSpaces(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
