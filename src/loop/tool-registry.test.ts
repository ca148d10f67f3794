import { describe, expect, it } from 'vitest';
import { HookwireError } from '../content/index.ts';
import type { Tool } from './tool.ts';
import { ToolRegistry, ToolRegistryError } from './tool-registry.ts';
import { withAgentTool } from './subagent.ts';
import { GENERAL_PURPOSE_AGENT } from './agent-types.ts';

function fakeTool(name: string, parameters: Record<string, unknown> = { type: 'object' }): Tool {
  return {
    declaration: { name, description: `the ${name} tool`, parameters },
    execute: async () => name,
  };
}

const readSchema = {
  type: 'object',
  properties: {
    path: { type: 'string' },
    limit: { type: 'integer', minimum: 1 },
    mode: { enum: ['text', 'bytes'] },
  },
  required: ['path'],
  additionalProperties: false,
};

describe('ToolRegistry', () => {
  it('lists names and declarations in registration order', () => {
    const registry = new ToolRegistry([fakeTool('zeta'), fakeTool('alpha')]);
    registry.register(fakeTool('middle'));
    expect(registry.names()).toEqual(['zeta', 'alpha', 'middle']);
    expect(registry.declarations().map((declaration) => declaration.name)).toEqual([
      'zeta',
      'alpha',
      'middle',
    ]);
  });

  it('returns the same declarations array until a tool is registered', () => {
    const registry = new ToolRegistry([fakeTool('a')]);
    const first = registry.declarations();
    expect(registry.declarations()).toBe(first);
    registry.register(fakeTool('b'));
    expect(registry.declarations()).not.toBe(first);
    expect(registry.declarations()).toHaveLength(2);
  });

  it('finds tools by name', () => {
    const tool = fakeTool('read');
    const registry = new ToolRegistry([tool]);
    expect(registry.get('read')).toBe(tool);
    expect(registry.has('read')).toBe(true);
    expect(registry.get('write')).toBeUndefined();
    expect(registry.has('write')).toBe(false);
  });

  it('rejects a second tool with the same name and keeps the first', () => {
    const first = fakeTool('read');
    const registry = new ToolRegistry([first]);
    const register = () => registry.register(fakeTool('read'));
    expect(register).toThrow(ToolRegistryError);
    expect(register).toThrow('A tool named "read" is already registered');
    expect(registry.get('read')).toBe(first);
    expect(registry.names()).toEqual(['read']);
  });

  it('rejects duplicates passed to the constructor', () => {
    expect(() => new ToolRegistry([fakeTool('x'), fakeTool('x')])).toThrow(/already registered/);
  });

  it('reports a schema that does not compile when the tool is registered', () => {
    const registry = new ToolRegistry();
    let caught: unknown;
    try {
      registry.register(
        fakeTool('broken', { type: 'object', properties: { a: { type: 'no-such-type' } } }),
      );
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ToolRegistryError);
    expect(HookwireError.isInstance(caught)).toBe(true);
    const error = caught as ToolRegistryError;
    expect(error.code).toBe('tool_schema_invalid');
    expect(error.toolName).toBe('broken');
    expect(error.message).toMatch(/parameters schema of tool "broken" is not a valid JSON Schema/);
    expect(registry.has('broken')).toBe(false);
  });

  it('accepts arguments that match the schema', () => {
    const registry = new ToolRegistry([fakeTool('read', readSchema)]);
    expect(registry.validate('read', { path: 'a.txt', limit: 3, mode: 'text' })).toEqual({
      ok: true,
    });
  });

  it('reports every violation as readable text with its path', () => {
    const registry = new ToolRegistry([fakeTool('read', readSchema)]);
    const result = registry.validate('read', { path: 7, limit: 0, mode: 'lines', extra: true });
    expect(result).toEqual({
      ok: false,
      errors:
        "/ must NOT have additional property 'extra'; /path must be string; /limit must be >= 1; " +
        '/mode must be equal to one of the allowed values: ["text","bytes"]',
    });
  });

  it('reports a missing required property', () => {
    const registry = new ToolRegistry([fakeTool('read', readSchema)]);
    expect(registry.validate('read', {})).toEqual({
      ok: false,
      errors: "/ must have required property 'path'",
    });
  });

  it('reports arguments that are not an object', () => {
    const registry = new ToolRegistry([fakeTool('read', readSchema)]);
    expect(registry.validate('read', 'a.txt')).toEqual({ ok: false, errors: '/ must be object' });
  });

  it('reports an unknown tool with the names of the registered ones', () => {
    const registry = new ToolRegistry([fakeTool('read'), fakeTool('write')]);
    expect(registry.validate('delete', {})).toEqual({
      ok: false,
      errors: 'unknown tool "delete"; available tools: read, write',
    });
  });

  it('validates nested paths and references', () => {
    const registry = new ToolRegistry([
      fakeTool('batch', {
        type: 'object',
        properties: { items: { type: 'array', items: { $ref: '#/$defs/item' } } },
        $defs: {
          item: { type: 'object', properties: { id: { type: 'number' } }, required: ['id'] },
        },
      }),
    ]);
    expect(registry.validate('batch', { items: [{ id: 1 }, { id: 'two' }] })).toEqual({
      ok: false,
      errors: '/items/1/id must be number',
    });
  });

  it('accepts schemas that name the draft-07 or the 2020-12 dialect, and provider keywords', () => {
    const registry = new ToolRegistry([
      fakeTool('draft7', {
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        required: ['a'],
      }),
      fakeTool('draft2020', {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: { url: { type: 'string', format: 'uri', 'x-provider-hint': true } },
        required: ['url'],
      }),
    ]);
    expect(registry.validate('draft7', {})).toEqual({
      ok: false,
      errors: "/ must have required property 'a'",
    });
    // `format` is not enforced: providers do not enforce it either.
    expect(registry.validate('draft2020', { url: 'not a url' })).toEqual({ ok: true });
  });
});

describe('ToolRegistry.parseArguments', () => {
  it('decodes arguments given as a JSON string', () => {
    expect(ToolRegistry.parseArguments('{"path":"a.txt","n":[1,2]}')).toEqual({
      path: 'a.txt',
      n: [1, 2],
    });
  });

  it('reads an empty or blank string as no arguments', () => {
    expect(ToolRegistry.parseArguments('')).toEqual({});
    expect(ToolRegistry.parseArguments('  \n')).toEqual({});
  });

  it('returns arguments that are already decoded unchanged', () => {
    const args = { path: 'a.txt' };
    expect(ToolRegistry.parseArguments(args)).toBe(args);
    expect(ToolRegistry.parseArguments(undefined)).toBeUndefined();
  });

  it('rejects text that is not JSON with an error quoting it', () => {
    let caught: unknown;
    try {
      ToolRegistry.parseArguments('{"path": "a.txt"');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ToolRegistryError);
    const error = caught as ToolRegistryError;
    expect(error.code).toBe('tool_arguments_not_json');
    expect(error.message).toMatch(
      /^Tool arguments must be a JSON object, but the text is not valid JSON \(.+\): \{"path": "a.txt"$/,
    );
  });

  it('quotes at most 200 characters of long invalid text', () => {
    const raw = `{${'x'.repeat(500)}`;
    expect(() => ToolRegistry.parseArguments(raw)).toThrow(new RegExp(`: \\{x{199}…$`));
  });

  it('feeds validation: decoded arguments are checked against the schema', () => {
    const registry = new ToolRegistry([fakeTool('read', readSchema)]);
    expect(registry.validate('read', ToolRegistry.parseArguments('{"path":1}'))).toEqual({
      ok: false,
      errors: '/path must be string',
    });
  });
});

describe('ToolRegistry with compile: first-use', () => {
  it('validates exactly as eager compilation does, compiling on the first call', () => {
    const registry = new ToolRegistry([fakeTool('read', readSchema)], { compile: 'first-use' });
    const eager = new ToolRegistry([fakeTool('read', readSchema)]);
    const bad = { path: 7, limit: 0, mode: 'lines', extra: true };
    expect(registry.validate('read', bad)).toEqual(eager.validate('read', bad));
    expect(registry.validate('read', { path: 'a.txt' })).toEqual({ ok: true });
  });

  it('registers a schema that does not compile and fails its calls with the compiler message', () => {
    const registry = new ToolRegistry(
      [fakeTool('broken', { type: 'object', properties: { a: { type: 'no-such-type' } } })],
      { compile: 'first-use' },
    );
    expect(registry.has('broken')).toBe(true);
    const result = registry.validate('broken', { a: 1 });
    if (result.ok) throw new Error('a schema that does not compile validated a call');
    expect(result.errors).toMatch(/parameters schema of tool "broken" is not a valid JSON Schema/);
  });

  describe('pick', () => {
    // Not a JSON Schema ajv accepts: compiling it throws, so whether a registry compiled it shows.
    const broken = { type: 'object', properties: { path: { type: 'no-such-type' } } };

    it('keeps the chosen tools in order, with the compile mode of the registry it came from', () => {
      const registry = new ToolRegistry(
        [fakeTool('zeta', broken), fakeTool('alpha'), fakeTool('middle')],
        { compile: 'first-use' },
      );
      const picked = registry.pick((tool) => tool.declaration.name !== 'alpha');
      expect(picked.names()).toEqual(['zeta', 'middle']);
      // first-use: registering another broken schema does not throw either.
      expect(() => picked.register(fakeTool('other', broken))).not.toThrow();
      expect(picked.validate('zeta', {}).ok).toBe(false);
      expect(registry.has('other')).toBe(false);
    });

    it('shares compiled validators: a schema compiled through one registry is compiled for both', () => {
      const registry = new ToolRegistry([fakeTool('read', readSchema)], { compile: 'first-use' });
      const picked = registry.pick();
      expect(picked.validate('read', { path: 'a' })).toEqual({ ok: true });
      expect(registry.validate('read', { path: 1 })).toEqual({
        ok: false,
        errors: '/path must be string',
      });
    });

    it('an eager registry picks eagerly: a broken schema registered later throws', () => {
      const picked = new ToolRegistry([fakeTool('a')]).pick();
      expect(() => picked.register(fakeTool('b', broken))).toThrow(ToolRegistryError);
    });
  });

  it('withAgentTool compiles nothing of a first-use registry (a run that calls no tool loads no validator)', () => {
    const tools = new ToolRegistry([fakeTool('broken', { type: 'nope' })], {
      compile: 'first-use',
    });
    const types = new Map([
      [GENERAL_PURPOSE_AGENT, { name: GENERAL_PURPOSE_AGENT, description: 'anything', prompt: '' }],
    ]);
    const withAgent = withAgentTool(tools, types);
    expect(withAgent.names()).toEqual(['broken', 'agent']);
    expect(withAgent.validate('broken', {}).ok).toBe(false);
  });
});
