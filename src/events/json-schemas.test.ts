import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { driftedSchemaFiles, schemaFiles } from '../../scripts/generate-schemas.ts';
import { generateJsonSchemas } from './json-schemas.ts';

const root = join(import.meta.dirname, '..', '..');
const generated = generateJsonSchemas();

function validator(file: string) {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  // The schemas carry a full date-time pattern; the format only needs to be known to strict mode.
  ajv.addFormat('date-time', (value: string) => !Number.isNaN(Date.parse(value)));
  const text = generated.get(file);
  if (text === undefined) throw new Error(`no generated schema ${file}`);
  return ajv.compile(JSON.parse(text) as object);
}

describe('committed JSON Schemas', () => {
  it('match the generator byte for byte (run `npm run schemas` after changing a wire schema)', async () => {
    expect(await driftedSchemaFiles()).toEqual([]);
    for (const name of generated.keys()) expect(schemaFiles().has(name)).toBe(true);
  });

  it('report each drifted, missing and stale file by name', async () => {
    const files = new Map(schemaFiles());
    files.set('llm-request.v2.schema.json', '{}\n');
    files.set('hook-input.Imaginary.schema.json', '{}\n');
    files.delete('llm-response.v2.schema.json');
    expect(await driftedSchemaFiles(files)).toEqual([
      'schemas/llm-request.v2.schema.json (differs)',
      'schemas/hook-input.Imaginary.schema.json (missing)',
      'schemas/llm-response.v2.schema.json (stale: no longer generated)',
    ]);
  });

  it('pass `npm run schemas -- --check` (the CI step) in a real process', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['scripts/generate-schemas.ts', '--check'],
      { cwd: root },
    );
    expect(stdout).toMatch(/^schemas: \d+ files up to date\n$/);
  });

  it('are draft 2020-12, 2-space JSON with a final newline', () => {
    for (const text of generated.values()) {
      expect(JSON.parse(text)).toMatchObject({
        $schema: 'https://json-schema.org/draft/2020-12/schema',
      });
      expect(text).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
    }
  });
});

describe('llm envelope schemas (ajv)', () => {
  const request = {
    version: 2,
    model: 'm',
    contents: [
      { speaker: 'human', blocks: [{ type: 'text', text: 'hi' }] },
      {
        speaker: 'ai',
        blocks: [
          { type: 'thinking', thought: 'hmm', signature: 'sig' },
          { type: 'tool_call', id: 'c1', name: 'ls', parameters: {} },
        ],
      },
      {
        speaker: 'tool',
        blocks: [
          { type: 'tool_response', callId: 'c1', toolName: 'ls', result: ['a'], error: 'partial' },
        ],
      },
      {
        speaker: 'human',
        blocks: [{ type: 'media', mimeType: 'image/png', data: 'iVBOR', encoding: 'base64' }],
      },
    ],
    tools: [{ name: 'ls', description: 'list', parameters: { type: 'object' } }],
    settings: {
      temperature: 0,
      toolChoice: { mode: 'required', allowedToolNames: ['ls'] },
      vendorKnob: 1,
    },
  };

  it('the request schema accepts a real v2 request and rejects v1 shapes', () => {
    const validate = validator('llm-request.v2.schema.json');
    expect(validate(request), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...request, version: 1 })).toBe(false);
    expect(validate({ version: 2, model: 'm', messages: [{ role: 'user', content: 'hi' }] })).toBe(
      false,
    );
    expect(validate({ ...request, contents: [{ speaker: 'user', blocks: [] }] })).toBe(false);
    expect(validate({ ...request, contents: [{ speaker: 'human' }] })).toBe(false);
    expect(validate({ ...request, settings: { toolChoice: { mode: 'ANY' } } })).toBe(false);
  });

  it('the response schema accepts a real v2 response and rejects STOP and candidates', () => {
    const validate = validator('llm-response.v2.schema.json');
    const response = {
      version: 2,
      content: { speaker: 'ai', blocks: [{ type: 'text', text: 'ok' }] },
      finishReason: 'stop',
      rawStopReason: 'STOP',
      usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 },
    };
    expect(validate(response), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...response, finishReason: 'STOP' })).toBe(false);
    expect(validate({ version: 2, candidates: [] })).toBe(false);
  });
});

describe('hook output schemas (ajv)', () => {
  it('the per-event schema accepts what the decoder accepts and rejects a misplaced field', () => {
    const validate = validator('hook-output.PreToolUse.schema.json');
    expect(
      validate({
        decision: 'block',
        reason: 'no',
        hookSpecificOutput: {
          hookEventName: 'BeforeTool',
          permissionDecision: 'deny',
          tool_input: { a: 1 },
        },
      }),
    ).toBe(true);
    expect(validate({ hookSpecificOutput: { additionalContext: 'x' } })).toBe(false);
    expect(validate({ decision: 'ask' })).toBe(false);
  });

  it('the any-event schema accepts each event’s own fields and rejects unknown ones', () => {
    const validate = validator('hook-output.schema.json');
    expect(validate({ systemMessage: 'hi', hookSpecificOutput: { additionalContext: 'x' } })).toBe(
      true,
    );
    expect(validate({ hookSpecificOutput: { toolChoice: { mode: 'none' } } })).toBe(true);
    expect(validate({ hookSpecificOutput: { toolConfig: { mode: 'NONE' } } })).toBe(false);
    expect(validate({ colour: 'red' })).toBe(false);
  });
});
