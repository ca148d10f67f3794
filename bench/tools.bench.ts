/**
 * The tool registry and the built-in tools beside what they wrap:
 * - `ToolRegistry.validate` on valid arguments beside calling the compiled ajv validator directly
 *   (the registry's own cost per tool call: a map lookup and no allocation);
 * - `ToolRegistry.parseArguments` beside `JSON.parse`;
 * - the `shell` tool running `true` beside the command runner running it directly.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { load, timing } from './built.ts';
import { compare } from './harness.ts';
import type * as ToolsModule from '../src/adapters/tools/index.ts';
import type * as RunnerModule from '../src/supervision/index.ts';
import type * as RegistryModule from '../src/loop/tool-registry.ts';

const { builtinTools, shellTool } = await load<typeof ToolsModule>('adapters/tools/index');
const { createDirectRunner } = await load<typeof RunnerModule>('supervision/index');
const { ToolRegistry } = await load<typeof RegistryModule>('loop/tool-registry');

export default async function toolsBenchmark(): Promise<void> {
  console.log(`    ${timing()}`);
  const registry = new ToolRegistry(builtinTools());
  const editDeclaration = registry.get('edit_file')!.declaration;
  const directValidator = new Ajv2020({
    allErrors: true,
    strict: false,
    validateFormats: false,
  }).compile(editDeclaration.parameters);
  const args = { path: 'src/app.ts', old_string: 'const a = 1;', new_string: 'const a = 2;' };
  await compare(
    'ToolRegistry.validate (valid edit_file arguments) vs the compiled ajv validator',
    () => registry.validate('edit_file', args),
    () => directValidator(args),
    { rounds: 40, operationsPerSample: 20_000, unit: 'ns', limit: 1.5 },
  );

  const raw = JSON.stringify(args);
  await compare(
    'ToolRegistry.parseArguments (JSON string) vs JSON.parse',
    () => ToolRegistry.parseArguments(raw),
    () => JSON.parse(raw) as unknown,
    { rounds: 40, operationsPerSample: 20_000, unit: 'ns', limit: 1.2 },
  );

  const cwd = await mkdtemp(join(tmpdir(), 'hookwire-bench-tools-'));
  const runner = createDirectRunner();
  const shell = shellTool({ runner });
  const context = { signal: new AbortController().signal, cwd, toolCallId: 'bench' };
  try {
    await compare(
      'shell tool running `true` vs the command runner running it',
      () => shell.execute({ command: 'true' }, context),
      () =>
        runner.run({
          command: 'true',
          cwd,
          input: '',
          timeoutMs: 120_000,
          killGraceMs: 2000,
          maxOutputBytes: 1024 * 1024,
        }),
      { rounds: 30, operationsPerSample: 5, unit: 'ms', limit: 1.1 },
    );
  } finally {
    await runner.close();
    await rm(cwd, { recursive: true, force: true });
  }
}
