/**
 * The in-process `AgentHook` contract suite, run against the command-hook adapter: every scripted
 * hook becomes a real Node script configured as one settings group, printing the JSON that means
 * the same answer, so command hooks are proven to compose exactly as in-process hooks do.
 */
import { writeFileSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import {
  commandHookForGroup,
  createCommandRunner,
  mergeSettingsFiles,
  parseSettingsText,
} from '../../src/hook-kinds/group/index.ts';
import { describeAgentHookContract } from '../../src/hooks/testing/index.ts';
import { hookOutputFor } from '../hook-kinds/contract-output.ts';

const runner = createCommandRunner();
const scripts = mkdtempSync(join(tmpdir(), 'hookwire-contract-scripts-'));
afterAll(async () => {
  await runner.close();
  rmSync(scripts, { recursive: true, force: true });
});

let counter = 0;

describeAgentHookContract('command hook (a real process per settings group)', (spec, log) => {
  const seenField =
    spec.event === 'PreToolUse'
      ? 'tool_input'
      : spec.event === 'PostToolUse'
        ? 'tool_response'
        : undefined;
  const script = join(scripts, `hook-${++counter}.mjs`);
  const output = hookOutputFor(spec);
  writeFileSync(
    script,
    `import { appendFileSync, readFileSync } from 'node:fs';
const payload = JSON.parse(readFileSync(0, 'utf8'));
const seen = ${seenField === undefined ? 'null' : `payload[${JSON.stringify(seenField)}]`};
appendFileSync(${JSON.stringify(log.path)}, JSON.stringify({ label: ${JSON.stringify(spec.label)}, seen }) + '\\n');
${output === undefined ? '' : `process.stdout.write(${JSON.stringify(JSON.stringify(output))});`}
`,
  );
  const file = join(scripts, `settings-${counter}.json`);
  const parsed = parseSettingsText(
    JSON.stringify({
      hooks: {
        [spec.event]: [
          {
            hooks: [
              { type: 'command', name: spec.label, command: `node ${JSON.stringify(script)}` },
            ],
          },
        ],
      },
    }),
    { file, layer: 'extra' },
  );
  const group = mergeSettingsFiles([parsed]).events[spec.event]?.[0];
  if (group === undefined) throw new Error(`no group for ${spec.event}`);
  return commandHookForGroup(group, { runner, projectDir: scripts });
});
