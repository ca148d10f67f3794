/**
 * The `AgentHook` contract suite run against process hooks: every scripted hook becomes a real
 * long-lived Node process configured as one settings group, answering each JSON-RPC request with
 * the hook output that means the same answer, so process hooks compose exactly as command hooks
 * and in-process hooks do.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { commandHookForGroup } from '../../src/hook-kinds/group/index.ts';
import { createDirectRunner } from '../../src/supervision/index.ts';
import { createProcessHookRunner } from '../../src/hook-kinds/process/index.ts';
import { describeAgentHookContract } from '../../src/hooks/testing/index.ts';
import { hookOutputFor } from './contract-output.ts';
import { groupOf, processHook, kindStates } from './support.ts';

const commands = createDirectRunner();
const processes = createProcessHookRunner();
const scripts = mkdtempSync(join(tmpdir(), 'hookwire-process-contract-'));
afterAll(async () => {
  await processes.close();
  await commands.close();
  rmSync(scripts, { recursive: true, force: true });
});

let counter = 0;

describeAgentHookContract('process hook (a long-lived JSON-RPC process per hook)', (spec, log) => {
  const seenField =
    spec.event === 'PreToolUse'
      ? 'tool_input'
      : spec.event === 'PostToolUse'
        ? 'tool_response'
        : undefined;
  const script = join(scripts, `hook-${++counter}.mjs`);
  const output = hookOutputFor(spec) ?? null;
  writeFileSync(
    script,
    `import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
for await (const line of createInterface({ input: process.stdin })) {
  const { id, params } = JSON.parse(line);
  const seen = ${seenField === undefined ? 'null' : `params[${JSON.stringify(seenField)}]`};
  appendFileSync(${JSON.stringify(log.path)}, JSON.stringify({ label: ${JSON.stringify(spec.label)}, seen }) + '\\n');
  process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id, result: ${JSON.stringify(output)} }) + '\\n');
}
`,
  );
  const group = groupOf(spec.event, [
    processHook(`node ${JSON.stringify(script)}`, { name: spec.label }),
  ]);
  return commandHookForGroup(group, {
    runner: commands,
    projectDir: scripts,
    kinds: kindStates({ process: processes }),
  });
});
