/**
 * The shapes of transcript records, checked when a transcript is read back (`readTranscript`): a
 * record of a known type whose shape is wrong (`{"type":"message","message":null}`, a
 * `tool-result` without its response) is skipped with a warning naming its line, as a line that
 * is not JSON is, instead of crashing the reader of its fields. The content (messages, blocks) is
 * checked against the wire's content schemas, with unknown fields allowed (a later version may add
 * some); what the loop reads of other records is checked, the rest passes as written. Loaded on
 * the first read (zod stays off the startup path of a run that resumes nothing).
 */
import { z } from 'zod';
import {
  messageSchema,
  textBlockSchema,
  thinkingBlockSchema,
  toolCallBlockSchema,
  toolResponseBlockSchema,
  mediaBlockSchema,
} from '../wire/content-schemas.ts';
import { lazy } from '../wire/lazy.ts';

const looseBlock = lazy(() =>
  z.discriminatedUnion('type', [
    z.looseObject(textBlockSchema().shape),
    z.looseObject(toolCallBlockSchema().shape),
    z.looseObject(toolResponseBlockSchema().shape),
    z.looseObject(thinkingBlockSchema().shape),
    z.looseObject(mediaBlockSchema().shape),
  ]),
);

const looseMessage = lazy(() =>
  z.looseObject({ ...messageSchema().shape, blocks: z.array(looseBlock()) }),
);

const time = z.string();
const turn = z.number();

const recordSchemas = lazy((): Record<string, z.ZodType> => ({
  'session-start': z.looseObject({ sessionId: z.string(), time }),
  'turn-start': z.looseObject({ turn, time }),
  message: z.looseObject({ turn, message: looseMessage(), time }),
  'pending-message': z.looseObject({ turn, message: looseMessage(), time }),
  'tool-result': z.looseObject({
    turn,
    response: z.looseObject(toolResponseBlockSchema().shape),
    reviewed: z.boolean(),
    additionalContext: z.string().optional(),
    time,
  }),
  'hook-report': z.looseObject({
    report: z.looseObject({ level: z.enum(['message', 'warning']), text: z.string() }),
    time,
  }),
  'turn-end': z.looseObject({ turn, status: z.string(), time }),
  'session-end': z.looseObject({ reason: z.string(), time }),
  'model-call': z.looseObject({ turn, modelCall: z.number(), status: z.string(), time }),
  'tool-call': z.looseObject({
    turn,
    modelCall: z.number(),
    toolCallId: z.string(),
    toolName: z.string(),
    status: z.string(),
    time,
  }),
  'subagent-start': z.looseObject({
    turn,
    toolCallId: z.string(),
    agentId: z.string(),
    transcriptPath: z.string(),
    time,
  }),
  'subagent-end': z.looseObject({ turn, toolCallId: z.string(), agentId: z.string(), time }),
  compaction: z.looseObject({ turn, history: z.array(looseMessage()), time }),
  'hook-run': z.looseObject({
    turn,
    modelCall: z.number(),
    run: z.looseObject({ event: z.string(), hook: z.string() }),
    time,
  }),
}));

/**
 * What is wrong with `record` (an object with a string `type`), as `path: problem` (the first
 * three, `; `-separated), or undefined
 * when its shape is right. A type this version does not know passes (readers skip it).
 */
export function recordProblem(record: { readonly type: string }): string | undefined {
  const schema = recordSchemas()[record.type];
  if (schema === undefined) return undefined;
  const parsed = schema.safeParse(record);
  if (parsed.success) return undefined;
  const issues = parsed.error.issues;
  const said = issues.slice(0, 3).map((issue) => {
    const path = issue.path.map(String).join('.');
    return `${path === '' ? '' : `${path}: `}${issue.message}`;
  });
  return `${said.join('; ')}${issues.length > 3 ? `; and ${issues.length - 3} more` : ''}`;
}
