import { z } from 'zod';
import { hookLLMRequestInputSchema } from '../wire/llm-request.ts';
import { hookLLMResponseInputSchema } from '../wire/llm-response.ts';
import { HOOK_EVENT_NAMES } from './catalogue.ts';
import { hookInputSchemas } from './hook-input.ts';
import { anyHookOutputSchema, hookOutputSchemas } from './hook-output.ts';

function render(schema: z.ZodType, title?: string): string {
  const generated = z.toJSONSchema(schema, { target: 'draft-2020-12', unrepresentable: 'throw' });
  const document = title === undefined ? generated : { ...generated, title };
  return `${JSON.stringify(document, null, 2)}\n`;
}

/**
 * Every JSON Schema file of `schemas/` but the settings schema, keyed by file name, generated
 * from the catalogue's zod schemas (draft 2020-12, 2-space JSON and a final newline). Pure: the
 * same code gives the same text, so `scripts/generate-schemas.ts --check` and a test can compare
 * it with the committed files.
 */
export function generateJsonSchemas(): ReadonlyMap<string, string> {
  const files = new Map<string, string>();
  for (const event of HOOK_EVENT_NAMES)
    files.set(`hook-input.${event}.schema.json`, render(hookInputSchemas[event]));
  files.set('hook-output.schema.json', render(anyHookOutputSchema()));
  for (const event of HOOK_EVENT_NAMES)
    files.set(`hook-output.${event}.schema.json`, render(hookOutputSchemas[event]));
  files.set(
    'llm-request.v2.schema.json',
    render(hookLLMRequestInputSchema(), 'hookwire llm_request (wire v2)'),
  );
  files.set(
    'llm-response.v2.schema.json',
    render(hookLLMResponseInputSchema(), 'hookwire llm_response (wire v2)'),
  );
  return files;
}
