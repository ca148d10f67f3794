/**
 * The `AgentHook` contract suite run against module hooks: every scripted hook becomes a `.ts`
 * file whose default export is the reference implementation of its spec (answering with
 * promises), loaded by the `module` kind through Node's type stripping. Every answer of the
 * contract goes through the kind's whole path: payload → in-process event → the module's action →
 * hookwire's JSON answer → the group's outcome → the stack's action.
 */
import { afterAll } from 'vitest';
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { commandHookForGroup } from '../../src/hook-kinds/group/index.ts';
import { createDirectRunner } from '../../src/supervision/index.ts';
import { describeAgentHookContract } from '../../src/hooks/testing/index.ts';
import { groupOf, moduleHook } from './support.ts';

const commands = createDirectRunner();
afterAll(async () => {
  await commands.close();
});

const reference = resolve(import.meta.dirname, '../../src/hooks/testing/scripted-hook.ts');

describeAgentHookContract('module hook (a .ts file per hook)', (spec, log) => {
  const directory = dirname(log.path);
  const file = join(directory, `hook-${spec.label}.ts`);
  writeFileSync(
    file,
    [
      `import { ContractLog, scriptedHook, type ScriptedHookSpec } from ${JSON.stringify(reference)};`,
      `const spec: ScriptedHookSpec = ${JSON.stringify(spec)};`,
      `export default scriptedHook(spec, new ContractLog(${JSON.stringify(log.path)}), true);`,
      '',
    ].join('\n'),
  );
  const group = groupOf(spec.event, [moduleHook(`./hook-${spec.label}.ts`, { name: spec.label })]);
  return commandHookForGroup(group, { runner: commands, projectDir: directory });
});
