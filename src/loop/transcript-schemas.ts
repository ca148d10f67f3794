/**
 * The shapes of transcript records, checked when a transcript is read back (`readTranscript`): a
 * record of a known type whose shape is wrong (`{"type":"message","message":null}`, a
 * `tool-result` without its response) is skipped with a warning naming its line, as a line that
 * is not JSON is, instead of crashing the reader of its fields. The content (messages, blocks) is
 * checked against the wire's content schemas, with unknown fields allowed (a later version may add
 * some: the schemas strip, never reject, and the record read is the one written, not zod's
 * copy); what the loop reads of other records is checked, the rest passes as written. Loaded on
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
    z.object(textBlockSchema().shape),
    z.object(toolCallBlockSchema().shape),
    z.object(toolResponseBlockSchema().shape),
    z.object(thinkingBlockSchema().shape),
    z.object(mediaBlockSchema().shape),
  ]),
);

const looseMessage = lazy(() =>
  z.object({ ...messageSchema().shape, blocks: z.array(looseBlock()) }),
);

const time = z.string();
const turn = z.number();

const recordSchemas = lazy((): Record<string, z.ZodType> => ({
  'session-start': z.object({ sessionId: z.string(), time }),
  'turn-start': z.object({ turn, time }),
  message: z.object({ turn, message: looseMessage(), time }),
  'pending-message': z.object({ turn, message: looseMessage(), time }),
  'tool-result': z.object({
    turn,
    response: z.object(toolResponseBlockSchema().shape),
    reviewed: z.boolean(),
    additionalContext: z.string().optional(),
    time,
  }),
  'hook-report': z.object({
    report: z.object({ level: z.enum(['message', 'warning']), text: z.string() }),
    time,
  }),
  'turn-end': z.object({ turn, status: z.string(), time }),
  'session-end': z.object({ reason: z.string(), time }),
  'model-call': z.object({ turn, modelCall: z.number(), status: z.string(), time }),
  'tool-call': z.object({
    turn,
    modelCall: z.number(),
    toolCallId: z.string(),
    toolName: z.string(),
    status: z.string(),
    time,
  }),
  'subagent-start': z.object({
    turn,
    toolCallId: z.string(),
    agentId: z.string(),
    transcriptPath: z.string(),
    time,
  }),
  'subagent-end': z.object({ turn, toolCallId: z.string(), agentId: z.string(), time }),
  compaction: z.object({ turn, history: z.array(looseMessage()), time }),
  'hook-run': z.object({
    turn,
    modelCall: z.number(),
    run: z.object({ event: z.string(), hook: z.string() }),
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
