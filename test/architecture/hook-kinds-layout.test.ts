/**
 * The hook-kinds room stays untied: the kind contract imports no kind, no import cycle spans two
 * folders of the room, and no code outside a dialect's own folder tests a dialect's name. These
 * are the properties the layout was reorganised for (issue 25); a change that breaks one fails
 * here with the files that break it.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIALECT_NAMES } from '../../src/hook-kinds/dialects/vocabulary.ts';
import { HOOK_KINDS } from '../../src/hook-kinds/registry.ts';
import { SRC, cycles, importGraph, sourceFiles } from './import-graph.ts';

const ROOM = 'hook-kinds/';
const KIND_FOLDERS = HOOK_KINDS.map((kind) => `${ROOM}${kind.type}/`);

describe('the hook-kinds room', () => {
  const graph = importGraph();

  it('has a folder for every registered kind (the test would otherwise check nothing)', () => {
    expect(KIND_FOLDERS.length).toBeGreaterThanOrEqual(4);
    for (const folder of KIND_FOLDERS)
      expect([...graph.keys()].some((file) => file.startsWith(folder))).toBe(true);
  });

  it('keeps the kind contract free of every kind folder, the group runner and the dialects', () => {
    const contract = graph.get(`${ROOM}hook-kind.ts`) ?? [];
    const forbidden = [...KIND_FOLDERS, `${ROOM}group/`, `${ROOM}dialects/`, `${ROOM}registry.ts`];
    // The dialects' names (a leaf module importing nothing) are the one thing it may name.
    const allowed = new Set([`${ROOM}dialects/dialect-names.ts`]);
    expect(graph.get(`${ROOM}dialects/dialect-names.ts`)).toEqual([]);
    expect(
      contract.filter((t) => !allowed.has(t) && forbidden.some((f) => t.startsWith(f))),
    ).toEqual([]);
  });

  it('has no import cycle spanning two of its folders', () => {
    const folderOf = (file: string): string => dirname(file);
    const spanning = cycles(graph)
      .filter((component) => component.some((file) => file.startsWith(ROOM)))
      .filter((component) => new Set(component.map(folderOf)).size > 1);
    expect(spanning).toEqual([]);
  });

  it('never imports a dialect from a kind folder', () => {
    const offenders = [...graph]
      .filter(([file]) => KIND_FOLDERS.some((folder) => file.startsWith(folder)))
      .flatMap(([file, targets]) =>
        targets.filter((t) => t.startsWith(`${ROOM}dialects/`)).map((t) => `${file} → ${t}`),
      );
    expect(offenders).toEqual([]);
  });
});

describe('dialects as objects', () => {
  const names = DIALECT_NAMES.join('|');
  const branch = new RegExp(`[!=]==\\s*'(${names})'|'(${names})'\\s*[!=]==|case\\s+'(${names})'`);

  it('tests no dialect name outside that dialect’s own folder', () => {
    const offenders: string[] = [];
    for (const file of sourceFiles()) {
      const lines = readFileSync(join(SRC, file), 'utf8').split('\n');
      lines.forEach((line, index) => {
        const match = branch.exec(line);
        if (match === null) return;
        const name = match[1] ?? match[2] ?? match[3];
        if (!file.startsWith(`${ROOM}dialects/${name}/`)) offenders.push(`${file}:${index + 1}`);
      });
    }
    expect(offenders).toEqual([]);
  });

  it('finds a branch when there is one (the pattern is live)', () => {
    expect(branch.test(`if (dialect === 'gemini') return;`)).toBe(true);
    expect(branch.test(`case 'kimi':`)).toBe(true);
  });
});
