/**
 * The tools a run offers the model: their declarations, in a stable order, and the argument
 * validation the loop applies before a tool call runs.
 */
import { createRequire } from 'node:module';
import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import type * as AjvModule from 'ajv/dist/2020.js';
import { HookwireError } from '../content/index.ts';
import type { ToolDeclaration } from '../content/index.ts';
import type { Tool } from './tool.ts';

/**
 * A tool registry was misused (two tools with one name, a schema that does not compile) or a
 * provider handed arguments that are not JSON. `toolName` names the tool when there is one.
 */
export class ToolRegistryError extends HookwireError {
  readonly toolName?: string;

  constructor(code: string, message: string, options?: { toolName?: string; cause?: unknown }) {
    super(code, message, { cause: options?.cause });
    this.name = 'ToolRegistryError';
    if (options?.toolName !== undefined) this.toolName = options.toolName;
  }
}

/** The outcome of validating a tool call's arguments: `errors` is readable text for the model. */
export type ToolArgumentsValidation =
  { readonly ok: true } | { readonly ok: false; readonly errors: string };

interface RegisteredTool {
  readonly tool: Tool;
  /** Compiled at registration (`eager`) or by the first `validate` (`first-use`). */
  validateArguments: ValidateFunction | undefined;
}

/** Options of `ToolRegistry`. */
export interface ToolRegistryOptions {
  /**
   * When parameter schemas are compiled. `eager` (default): at registration, so a schema that
   * does not compile throws there. `first-use`: by the first `validate` of the tool, so a run
   * that never calls a tool never loads the validator; a schema that does not compile then makes
   * every call of that tool fail validation with the compiler's message. The CLI uses
   * `first-use` for its built-in tools, whose schemas are tested.
   */
  readonly compile?: 'eager' | 'first-use';
}

const requireModule = createRequire(import.meta.url);

/**
 * A validator for one registry, ajv loaded on first need (it is CommonJS, so synchronously):
 * `allErrors` so the model learns every mistake at once, strict mode off because provider-style
 * schemas carry keywords ajv does not know, and `format` not enforced.
 */
function createAjv(): Ajv2020 {
  const { Ajv2020: Constructor } = requireModule('ajv/dist/2020.js') as typeof AjvModule;
  return new Constructor({ allErrors: true, strict: false, validateFormats: false });
}

// One shared success value: validation is on every tool call's path and allocates nothing on success.
const valid: ToolArgumentsValidation = Object.freeze({ ok: true });

/**
 * A set of tools keyed by name. Registration order is the order of `names()` and
 * `declarations()`, so the tool list a provider receives is stable from call to call (which keeps
 * prompt caches warm). Each tool's parameter schema is compiled once — at registration, or at
 * its first validation with `compile: 'first-use'` — with ajv in JSON Schema 2020-12 mode:
 * `allErrors` so the model learns every mistake at once, strict mode off because provider-style
 * schemas carry keywords ajv does not know, and `format` not enforced.
 */
export class ToolRegistry {
  readonly #tools = new Map<string, RegisteredTool>();
  readonly #eager: boolean;
  /** Shared by the registries `pick` derives from this one, so ajv is set up once. */
  #compiler: { ajv: Ajv2020 | undefined };
  #declarations: readonly ToolDeclaration[] | undefined;

  /** Registers `tools` in order; a duplicate name throws as `register` does. */
  constructor(tools: readonly Tool[] = [], options: ToolRegistryOptions = {}) {
    this.#eager = (options.compile ?? 'eager') === 'eager';
    this.#compiler = { ajv: undefined };
    for (const tool of tools) this.register(tool);
  }

  /**
   * A registry of this one's tools for which `keep` answers true, in the same order, with the same
   * compile mode. It shares their compiled validators with this registry (a schema compiled by a
   * validation in either is compiled for both), so deriving a subagent's tool set compiles
   * nothing.
   */
  pick(keep: (tool: Tool) => boolean = () => true): ToolRegistry {
    const derived = new ToolRegistry([], { compile: this.#eager ? 'eager' : 'first-use' });
    derived.#compiler = this.#compiler;
    for (const [name, entry] of this.#tools) if (keep(entry.tool)) derived.#tools.set(name, entry);
    return derived;
  }

  /**
   * Adds a tool. Throws a `ToolRegistryError` when a tool of that name is already registered
   * (`tool_duplicate`) or its parameter schema does not compile (`tool_schema_invalid`).
   */
  register(tool: Tool): this {
    const name = tool.declaration.name;
    if (this.#tools.has(name)) {
      throw new ToolRegistryError(
        'tool_duplicate',
        `A tool named "${name}" is already registered; give each tool a unique name.`,
        { toolName: name },
      );
    }
    const validateArguments = this.#eager ? this.#compile(tool) : undefined;
    this.#tools.set(name, { tool, validateArguments });
    this.#declarations = undefined;
    return this;
  }

  /** Compiles a tool's parameter schema; one that does not compile throws `tool_schema_invalid`. */
  #compile(tool: Tool): ValidateFunction {
    const name = tool.declaration.name;
    try {
      this.#compiler.ajv ??= createAjv();
      return this.#compiler.ajv.compile(withoutDialect(tool.declaration.parameters));
    } catch (error) {
      throw new ToolRegistryError(
        'tool_schema_invalid',
        `The parameters schema of tool "${name}" is not a valid JSON Schema: ${errorMessage(error)}.`,
        { toolName: name, cause: error },
      );
    }
  }

  /** The tool registered under `name`, or `undefined`. */
  get(name: string): Tool | undefined {
    return this.#tools.get(name)?.tool;
  }

  /** True when a tool is registered under `name`. */
  has(name: string): boolean {
    return this.#tools.has(name);
  }

  /** Tool names in registration order. */
  names(): string[] {
    return [...this.#tools.keys()];
  }

  /** Tool declarations in registration order; the same array until the next `register`. */
  declarations(): readonly ToolDeclaration[] {
    this.#declarations ??= Object.freeze(
      [...this.#tools.values()].map((entry) => entry.tool.declaration),
    );
    return this.#declarations;
  }

  /**
   * Validates `args` against the parameter schema of tool `name`. On failure `errors` lists every
   * violation as `/path message`, joined with `; ` (for example `/path must be string`); an unknown
   * tool is a failure naming the registered tools.
   */
  validate(name: string, args: unknown): ToolArgumentsValidation {
    const entry = this.#tools.get(name);
    if (entry === undefined) {
      const known = this.names();
      return {
        ok: false,
        errors: `unknown tool "${name}"; available tools: ${known.length > 0 ? known.join(', ') : '(none)'}`,
      };
    }
    let validateArguments = entry.validateArguments;
    if (validateArguments === undefined) {
      try {
        validateArguments = this.#compile(entry.tool);
      } catch (error) {
        return { ok: false, errors: errorMessage(error) };
      }
      entry.validateArguments = validateArguments;
    }
    if (validateArguments(args)) return valid;
    return { ok: false, errors: formatErrors(validateArguments.errors ?? []) };
  }

  /**
   * Decodes tool-call arguments a provider handed over as JSON text; any other value is returned
   * unchanged. An empty (or blank) string means no arguments: `{}`. Text that is not JSON throws a
   * `ToolRegistryError` (`tool_arguments_not_json`) quoting the start of the text.
   */
  static parseArguments(raw: unknown): unknown {
    if (typeof raw !== 'string') return raw;
    if (raw.trim() === '') return {};
    try {
      return JSON.parse(raw) as unknown;
    } catch (error) {
      const excerpt = raw.length > 200 ? `${raw.slice(0, 200)}…` : raw;
      throw new ToolRegistryError(
        'tool_arguments_not_json',
        `Tool arguments must be a JSON object, but the text is not valid JSON (${errorMessage(error)}): ${excerpt}`,
        { cause: error },
      );
    }
  }
}

/**
 * The schema without its `$schema` dialect marker: providers' schemas name draft-07 or 2020-12
 * interchangeably, and ajv refuses a dialect it was not set up for, while the keywords tool
 * schemas use mean the same in both.
 */
function withoutDialect(schema: Readonly<Record<string, unknown>>): Record<string, unknown> {
  if (!('$schema' in schema)) return schema;
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}

function formatErrors(errors: readonly ErrorObject[]): string {
  return errors.map(formatError).join('; ');
}

function formatError(error: ErrorObject): string {
  const path = error.instancePath === '' ? '/' : error.instancePath;
  const message = error.message ?? `fails ${error.keyword}`;
  switch (error.keyword) {
    case 'additionalProperties': {
      const params = error.params as { additionalProperty?: unknown };
      return `${path} must NOT have additional property '${String(params.additionalProperty)}'`;
    }
    case 'enum': {
      const params = error.params as { allowedValues?: unknown };
      return `${path} ${message}: ${JSON.stringify(params.allowedValues)}`;
    }
    default:
      return `${path} ${message}`;
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
