/**
 * The static import graph of `src/` (every `import … from` and `export … from` with a relative
 * specifier, type-only imports included): what the architecture tests read.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');

/** Every non-test `.ts` file under `dir`, relative to `src/`. */
export function sourceFiles(dir = SRC): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (
      entry.name.endsWith('.ts') &&
      !entry.name.endsWith('.test.ts') &&
      !entry.name.endsWith('.test-d.ts')
    )
      out.push(relative(SRC, path));
  }
  return out.sort();
}

const SPECIFIER = /(?:^|\n)\s*(?:import|export)\s[^'"]*?\sfrom\s+['"](\.{1,2}\/[^'"]+)['"]/g;

/** file (relative to `src/`) → the files it imports (relative to `src/`). */
export function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles()) {
    const text = readFileSync(join(SRC, file), 'utf8');
    const targets: string[] = [];
    for (const match of text.matchAll(SPECIFIER)) {
      const target = relative(SRC, resolve(SRC, dirname(file), match[1]!));
      targets.push(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** The strongly connected components with more than one file (Tarjan's algorithm). */
export function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    indices.set(node, index);
    low.set(node, index);
    index++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!indices.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, indices.get(next)!));
    }
    if (low.get(node) === indices.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!indices.has(node)) visit(node);
  return found;
}
