/**
 * The bash parser the shell analysis reads commands with: tree-sitter's bash grammar
 * (`tree-sitter-bash`'s wasm build) run by `web-tree-sitter`, both pinned dependencies loaded from
 * node_modules (nothing is downloaded). Loaded on first use only: a run without command rules
 * never loads it. Parsing is synchronous once the parser is loaded.
 */
import { createRequire } from 'node:module';
import type { Parser, Tree } from 'web-tree-sitter';

let loading: Promise<Parser> | undefined;

async function loadParser(): Promise<Parser> {
  const treeSitter = await import('web-tree-sitter');
  await treeSitter.Parser.init();
  const grammar = createRequire(import.meta.url).resolve('tree-sitter-bash/tree-sitter-bash.wasm');
  const language = await treeSitter.Language.load(grammar);
  const parser = new treeSitter.Parser();
  parser.setLanguage(language);
  return parser;
}

/** The bash parser, loaded once per process. */
export function shellParser(): Promise<Parser> {
  loading ??= loadParser().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

/** Parses `text` as bash; the caller deletes the tree. */
export function parseShell(parser: Parser, text: string): Tree {
  const tree = parser.parse(text);
  if (tree === null) throw new Error('the bash parser returned no tree');
  return tree;
}
