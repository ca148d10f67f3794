/**
 * A known session for the trace and stats suites, made the way a user makes one: `hookwire run`
 * on a scripted model with real hook processes that allow, deny, rewrite, add context, crash and
 * time out (failing closed).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  callTool,
  runCli,
  say,
  writeHookScript,
  writeJson,
  writeScript,
  type CliOutcome,
  type Sandbox,
} from '../cli/support.ts';

const READ = `import { readFileSync } from 'node:fs';
const payload = JSON.parse(readFileSync(0, 'utf8'));
`;

/** Runs the known session in `sandbox`; returns the CLI's outcome and the new session's id. */
export async function runKnownSession(
  sandbox: Sandbox,
): Promise<{ readonly outcome: CliOutcome; readonly sessionId: string }> {
  await mkdir(sandbox.project, { recursive: true });
  await writeFile(join(sandbox.project, 'notes.txt'), 'remember the milk\n');
  await writeFile(join(sandbox.project, 'todo.md'), '- write the README\n');
  const hook = (name: string, source: string) =>
    writeHookScript(sandbox.root, `${name}.mjs`, READ + source);
  const audit = await hook('audit', '');
  const guard = await hook(
    'guard',
    `if (String(payload.tool_input.command).includes('rm ')) { process.stderr.write('rm is not allowed in this project'); process.exit(2); }`,
  );
  const redirect = await hook(
    'redirect',
    `process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: { path: 'notes.txt' } } }));`,
  );
  const context = await hook(
    'context',
    `process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'checked by the context hook' } }));`,
  );
  const crashy = await hook('crashy', `process.stderr.write('crashy fell over'); process.exit(1);`);
  const slow = await hook(
    'slow-guard',
    `await new Promise((resolve) => setTimeout(resolve, 5000));`,
  );
  const settings = await writeJson(join(sandbox.root, 'settings.json'), {
    // The trace page shows each hook's payload when the transcript keeps it (opt-in).
    recordPayloads: true,
    hooks: {
      PreToolUse: [
        { matcher: '*', hooks: [{ type: 'command', name: 'audit', command: audit }] },
        { matcher: 'shell', hooks: [{ type: 'command', name: 'guard', command: guard }] },
        { matcher: 'read_file', hooks: [{ type: 'command', name: 'redirect', command: redirect }] },
      ],
      PostToolUse: [
        {
          hooks: [
            { type: 'command', name: 'context', command: context },
            { type: 'command', name: 'crashy', command: crashy },
          ],
        },
      ],
      Stop: [
        {
          hooks: [
            {
              type: 'command',
              name: 'slow-guard',
              command: slow,
              timeout: '300ms',
              failClosed: true,
            },
          ],
        },
      ],
    },
  });
  const script = await writeScript(join(sandbox.root, 'model.jsonl'), [
    callTool('call-rm', 'shell', { command: 'rm -rf build' }),
    callTool('call-read', 'read_file', { path: 'todo.md' }),
    say('The workspace is tidy.'),
    say('Checked again: the workspace is tidy.'),
  ]);
  const outcome = await runCli(
    [
      'run',
      '--model',
      `scripted:${script}`,
      '--settings',
      settings,
      '--cwd',
      sandbox.project,
      '--output-format',
      'json',
      // The failClosed Stop guard times out on every stop: one continuation, then the budget ends.
      '--max-stop-continuations',
      '1',
      'Tidy the workspace',
    ],
    { env: sandbox.env },
  );
  const result = JSON.parse(outcome.stdout) as { sessionId: string };
  return { outcome, sessionId: result.sessionId };
}
