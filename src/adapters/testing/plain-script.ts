/**
 * The fast path of loading a script: lines made only of the plain shapes (text and tool-call
 * blocks, a canonical finish reason, optional `rawStopReason` / `delayMs`) are read without
 * loading the validator. It accepts strictly less than `parseScript`, and for what it accepts
 * gives the same turns (proven against it in `plain-script.test.ts`); anything else — other
 * blocks, usage, metadata, any mistake — returns `undefined`, and the caller validates the whole
 * script with `parseScript`, which reports the problem.
 */
import { FINISH_REASONS } from '../../content/finish-reason.ts';
import type { ScriptedTurn } from './scripted-model.ts';

const reasons: ReadonlySet<unknown> = new Set(FINISH_REASONS);
const TURN_KEYS: ReadonlySet<string> = new Set([
  'blocks',
  'finishReason',
  'rawStopReason',
  'delayMs',
]);

function isPlainBlock(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const block = value as Record<string, unknown>;
  const keys = Object.keys(block);
  if (block['type'] === 'text') return keys.length === 2 && typeof block['text'] === 'string';
  if (block['type'] === 'tool_call')
    return (
      keys.length === 4 &&
      typeof block['id'] === 'string' &&
      typeof block['name'] === 'string' &&
      'parameters' in block
    );
  return false;
}

function plainTurn(value: unknown): ScriptedTurn | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const turn = value as Record<string, unknown>;
  for (const key of Object.keys(turn)) if (!TURN_KEYS.has(key)) return undefined;
  const { blocks, finishReason, rawStopReason, delayMs } = turn;
  if (!Array.isArray(blocks) || !blocks.every(isPlainBlock)) return undefined;
  if (!('finishReason' in turn) || (finishReason !== null && !reasons.has(finishReason)))
    return undefined;
  if (rawStopReason !== undefined && typeof rawStopReason !== 'string') return undefined;
  if (
    delayMs !== undefined &&
    !(typeof delayMs === 'number' && Number.isInteger(delayMs) && delayMs >= 0)
  )
    return undefined;
  const { finishReason: _reason, ...rest } = turn;
  return (finishReason === null ? rest : { ...rest, finishReason }) as unknown as ScriptedTurn;
}

/** The turns of `text` when every line is plain (see the module comment), else `undefined`. */
export function parsePlainScript(text: string): ScriptedTurn[] | undefined {
  const turns: ScriptedTurn[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('//')) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return undefined;
    }
    const turn = plainTurn(value);
    if (turn === undefined) return undefined;
    turns.push(turn);
  }
  return turns;
}
