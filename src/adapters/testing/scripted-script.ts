/** The JSONL script format of the scripted model (see `scripted-model.ts`), validated with zod. */
import { z } from 'zod';
import { contentBlockSchema, finishReasonSchema, usageSchema } from '../../wire/content-schemas.ts';
import { ScriptError, type ScriptedTurn } from './scripted-model.ts';

const scriptedTurnSchema = z.strictObject({
  blocks: z.array(contentBlockSchema()),
  finishReason: finishReasonSchema().nullable(),
  rawStopReason: z.string().optional(),
  usage: usageSchema().optional(),
  delayMs: z.number().int().nonnegative().optional(),
});

/**
 * Parses JSONL script text into turns. Each line is validated; the first bad line throws a
 * `ScriptError` naming `file:line` and the problem (the JSON path and what was expected).
 */
export function parseScript(text: string, file: string): ScriptedTurn[] {
  const turns: ScriptedTurn[] = [];
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const line = (lines[index] ?? '').trim();
    if (line === '' || line.startsWith('//')) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new ScriptError(
        file,
        index + 1,
        `not valid JSON (${error instanceof Error ? error.message : String(error)}); each line is one object like {"blocks": [{"type": "text", "text": "Hi"}], "finishReason": "stop"}`,
      );
    }
    const parsed = scriptedTurnSchema.safeParse(value);
    if (!parsed.success) {
      const problems = parsed.error.issues
        .map(
          (issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(line)'}: ${issue.message}`,
        )
        .join('; ');
      throw new ScriptError(file, index + 1, problems);
    }
    const { finishReason, ...rest } = parsed.data;
    turns.push(
      finishReason === null ? (rest as ScriptedTurn) : ({ ...rest, finishReason } as ScriptedTurn),
    );
  }
  return turns;
}
