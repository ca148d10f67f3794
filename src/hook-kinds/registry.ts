/**
 * The kinds of external hook, by settings `type`. Adding a kind: its folder (exporting one
 * `HookKind`, see `hook-kind.ts`) and one line in `HOOK_KINDS`.
 */
import { z } from 'zod';
import { commandKind } from './command/command-kind.ts';
import type { HookConfigBase, HookKind } from './hook-kind.ts';
import { httpKind } from './http/http-kind.ts';
import { moduleKind } from './module/module-kind.ts';
import { processKind } from './process/process-kind.ts';
import { promptKind } from './prompt/prompt-kind.ts';
import { ahpKind } from './ahp/ahp-kind.ts';

/** Every kind, in the order settings documentation lists them. */
export const HOOK_KINDS = [
  commandKind,
  processKind,
  httpKind,
  promptKind,
  ahpKind,
  moduleKind,
] as const;

/** A hook's config as loaded from settings: the config of one of the kinds. */
export type HookConfig = ReturnType<(typeof HOOK_KINDS)[number]['parse']>;

const byType = new Map<string, HookKind>(
  HOOK_KINDS.map((kind) => [kind.type, kind as unknown as HookKind]),
);

/** Every kind as the generic `HookKind` (for code generic over kinds, e.g. opening sessions). */
export function registeredKinds(): readonly HookKind[] {
  return [...byType.values()];
}

/** The kind of a settings `type`; `undefined` for a type no kind claims. */
export function hookKind(type: unknown): HookKind | undefined {
  return typeof type === 'string' ? byType.get(type) : undefined;
}

/** The kind that runs `config` (its `type` came from a kind, so there is one). */
export function kindOf(config: HookConfigBase): HookKind {
  const kind = byType.get(config.type);
  if (kind === undefined)
    throw new RangeError(`no hook kind for type ${JSON.stringify(config.type)}`);
  return kind;
}

/** The schema of one hook entry of a group: the one kind's, or a union discriminated on `type`. */
export function hookEntrySchema(): z.ZodType {
  const [first, ...rest] = HOOK_KINDS.map((kind) => kind.schema);
  if (first === undefined) throw new RangeError('no hook kinds are registered');
  return rest.length === 0 ? first : z.discriminatedUnion('type', [first, ...rest]);
}
