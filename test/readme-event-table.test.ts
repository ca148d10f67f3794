/**
 * The README's table from settings event names to `AgentHook` methods is the catalogue's: every
 * external event once, in catalogue order, with its aliases, method and kind; and the in-process
 * only methods listed under it are exactly the events without a settings name.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EVENT_DEFINITIONS, HOOK_METHOD } from '../src/events/index.ts';

const README = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8');

/** The README's section under `heading`, up to the next heading of any level. */
function section(heading: string): string {
  const start = README.indexOf(`\n${heading}\n`);
  expect(start).toBeGreaterThan(0);
  const rest = README.slice(start + heading.length + 2);
  const end = rest.search(/\n#{1,6} /);
  return end === -1 ? rest : rest.slice(0, end);
}

const unquote = (cell: string): string[] =>
  [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1] as string);

describe("the README's event → AgentHook method table", () => {
  const text = section('### Settings event names and `AgentHook` methods');
  const definitions = Object.entries(EVENT_DEFINITIONS) as [
    string,
    { readonly external?: { readonly name: string; readonly aliases: readonly string[] } },
  ][];
  const methodOf = (kind: string): string => (HOOK_METHOD as Record<string, string>)[kind] ?? '';

  it('lists every settings event, in catalogue order, with its aliases, method and kind', () => {
    const rows = text
      .split('\n')
      .filter((line) => /^\| `/.test(line))
      .map((line) =>
        line
          .split('|')
          .slice(1, -1)
          .map((cell) => unquote(cell)),
      );
    const expected = definitions.flatMap(([kind, definition]) =>
      definition.external === undefined
        ? []
        : [
            [
              [definition.external.name],
              [...definition.external.aliases],
              [methodOf(kind)],
              [kind],
            ],
          ],
    );
    expect(rows).toEqual(expected);
  });

  it('names every in-process-only method under it', () => {
    const listed = /In-process only \(no settings event\):([\s\S]*?)\.\s*$/.exec(text)?.[1] ?? '';
    const expected = definitions
      .filter(([, definition]) => definition.external === undefined)
      .map(([kind]) => methodOf(kind));
    expect(unquote(listed)).toEqual(expected);
  });
});
