/**
 * The README's process-hook examples (examples/process-hooks/guard.mjs and guard.py) run as real
 * process hooks: each denies `rm -rf` and lets everything else through, from one process.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runHookGroup } from '../../src/hook-kinds/group/index.ts';
import { createDirectRunner } from '../../src/supervision/index.ts';
import { createProcessHookRunner } from '../../src/hook-kinds/process/index.ts';
import { groupOf, processHook, kindStates } from './support.ts';

const commands = createDirectRunner();
const processes = createProcessHookRunner();
afterAll(async () => {
  await processes.close();
  await commands.close();
});

const example = (file: string) =>
  fileURLToPath(new URL(`../../examples/process-hooks/${file}`, import.meta.url));

function shellCall(command: string): Record<string, unknown> {
  return {
    session_id: 's',
    transcript_path: '',
    cwd: '/tmp',
    hook_event_name: 'PreToolUse',
    timestamp: '2026-12-01T00:00:00.000Z',
    tool_name: 'shell',
    tool_input: { command },
    tool_call_id: 'call-1',
  };
}

describe.each([
  ['Node', `node ${JSON.stringify(example('guard.mjs'))}`],
  ['Python', `python3 ${JSON.stringify(example('guard.py'))}`],
])('the %s process-hook example', (_language, command) => {
  const group = groupOf('PreToolUse', [processHook(command, { name: 'guard' })]);
  const fire = (shell: string) =>
    runHookGroup(group, shellCall(shell), {
      runner: commands,
      projectDir: '/tmp',
      sessionId: 's',
      kinds: kindStates({ process: processes }),
    });

  it('denies rm -rf and allows other commands, from one process', async () => {
    const [denied, allowed] = await Promise.all([fire('rm -rf /'), fire('ls -la')]);
    expect(denied.combined.denyReasons).toEqual(['refusing to run "rm -rf /"']);
    expect(allowed.combined.denied).toBe(false);
    expect(allowed.outcomes[0]?.record.status).toBe('ok');
    expect(processes.running).toBeGreaterThanOrEqual(1);
  });
});
