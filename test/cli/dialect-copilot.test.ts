/**
 * GitHub Copilot CLI's hooks (`.github/hooks/*.json`, `~/.copilot/hooks/*.json`) end to end:
 * hooks written as Copilot's reference describes them (camelCase events reading `toolName` and
 * the `toolArgs` JSON string, answering `permissionDecision`, `modifiedArgs`, `decision: "block"`;
 * PascalCase events written VS Code's way, with Claude Code's payloads and per-OS commands),
 * driven by `hookwire run` on the scripted model; the effects are asserted.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { callTool, createSandbox, readLog, runScripted, say, writeJson } from './support.ts';

const node = JSON.stringify(process.execPath);

function hook(body: string): string {
  return `import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
const input = JSON.parse(readFileSync(0, 'utf8'));
${body}
`;
}

async function script(file: string, source: string): Promise<void> {
  await mkdir(join(file, '..'), { recursive: true });
  await writeFile(file, source);
}

describe('GitHub Copilot CLI dialect', () => {
  it(
    'runs a repository’s .github/hooks: guards, a rewrite, a context injector, a stop check and a logger',
    { timeout: 90_000 },
    async () => {
      const sandbox = await createSandbox();
      const scripts = join(sandbox.project, 'scripts');
      // The reference's pattern: parse toolArgs (a JSON string) and deny with a reason.
      await script(
        join(scripts, 'security-check.mjs'),
        hook(`const args = JSON.parse(input.toolArgs);
if (input.toolName === 'bash' && /rm -rf/.test(args.command))
  console.log(JSON.stringify({ permissionDecision: 'deny', permissionDecisionReason: 'copilot guard: dangerous command' }));`),
      );
      await script(
        join(scripts, 'protect-env.mjs'),
        hook(`const args = JSON.parse(input.toolArgs);
if (args.path.endsWith('.env'))
  console.log(JSON.stringify({ permissionDecision: 'deny', permissionDecisionReason: 'copilot guard: ' + input.toolName + ' may not touch .env' }));`),
      );
      await script(
        join(scripts, 'rewrite.mjs'),
        hook(`const args = JSON.parse(input.toolArgs);
if (args.command.includes('raw'))
  console.log(JSON.stringify({ permissionDecision: 'allow', modifiedArgs: { ...args, command: args.command.replace('raw', 'rewritten') } }));`),
      );
      await script(
        join(scripts, 'log.mjs'),
        hook(`appendFileSync('tool-usage.jsonl', JSON.stringify(input) + '\\n');`),
      );
      await script(
        join(scripts, 'stop.mjs'),
        hook(`if (!existsSync('stop-once')) {
  writeFileSync('stop-once', input.transcriptPath);
  console.log(JSON.stringify({ decision: 'block', reason: 'copilot stop check: run the linter' }));
}`),
      );
      await script(
        join(scripts, 'recover.mjs'),
        hook(`process.stderr.write('copilot recovery: ' + input.error.slice(0, 40));
process.exit(2);`),
      );
      await script(
        join(scripts, 'session-context.mjs'),
        hook(
          `console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'VS Code rule: cite files (' + input.hook_event_name + ', ' + typeof input.session_id + ')' } }));`,
        ),
      );
      // Copilot's own (camelCase) context injector: the prompt as Copilot gives it, context back.
      await script(
        join(scripts, 'prompt-context.mjs'),
        hook(
          `console.log(JSON.stringify({ additionalContext: 'copilot context: prompt was ' + input.prompt + ' at ' + typeof input.timestamp }));`,
        ),
      );
      await writeJson(join(sandbox.project, '.github', 'hooks', 'policy.json'), {
        version: 1,
        hooks: {
          preToolUse: [
            {
              type: 'command',
              bash: `${node} scripts/security-check.mjs`,
              powershell: 'pwsh scripts/security-check.ps1',
              timeoutSec: 10,
              comment: 'Security validation - runs first',
            },
            { type: 'command', bash: `${node} scripts/protect-env.mjs`, matcher: 'create|edit' },
            // An unknown field never disables a hook.
            { type: 'command', bash: `${node} scripts/rewrite.mjs`, matcher: 'bash', notAField: 1 },
            // Only a Windows command: skipped here, with a warning; the others still run.
            { type: 'command', powershell: 'Write-Output deny' },
          ],
          postToolUse: [{ type: 'command', bash: `${node} log.mjs`, cwd: 'scripts' }],
          postToolUseFailure: [{ type: 'command', bash: `${node} scripts/recover.mjs` }],
          agentStop: [{ type: 'command', bash: `${node} scripts/stop.mjs` }],
          userPromptSubmitted: [{ type: 'command', bash: `${node} scripts/prompt-context.mjs` }],
          userPromptTransformed: [{ type: 'command', bash: 'true' }],
        },
      });
      // VS Code's way: PascalCase events (Claude Code's payloads), `command` with per-OS overrides.
      await writeJson(join(sandbox.project, '.github', 'hooks', 'vscode.json'), {
        hooks: {
          SessionStart: [
            {
              type: 'command',
              command: 'exit 1',
              linux: `${node} scripts/session-context.mjs`,
              osx: `${node} scripts/session-context.mjs`,
              windows: 'powershell -File scripts\\session-context.ps1',
              timeout: 10,
            },
          ],
        },
      });
      await mkdir(join(sandbox.project, 'victim'));
      await writeFile(join(sandbox.project, '.env'), 'SECRET=1\n');

      const outcome = await runScripted(sandbox, [
        callTool('c0', 'shell', { command: 'rm -rf victim' }),
        callTool('c1', 'write_file', { path: '.env', content: 'SECRET=2\n' }),
        callTool('c2', 'shell', { command: 'echo raw > out.txt' }),
        callTool('c3', 'read_file', { path: 'missing.txt' }),
        say('done'),
        say('linted'),
      ]);
      const { requests, stderr } = outcome;

      expect(JSON.stringify(requests[0]?.['contents'])).toContain(
        'VS Code rule: cite files (SessionStart, string)',
      );
      expect(JSON.stringify(requests[0]?.['contents'])).toContain(
        'copilot context: prompt was go at number',
      );
      expect(existsSync(join(sandbox.project, 'victim'))).toBe(true);
      expect(JSON.stringify(requests[1]?.['contents'])).toContain(
        'copilot guard: dangerous command',
      );
      expect(await readFile(join(sandbox.project, '.env'), 'utf8')).toBe('SECRET=1\n');
      expect(JSON.stringify(requests[2]?.['contents'])).toContain(
        'copilot guard: create may not touch .env',
      );
      expect(await readFile(join(sandbox.project, 'out.txt'), 'utf8')).toBe('rewritten\n');
      // postToolUseFailure: exit 2's stderr is recovery guidance the model reads.
      expect(JSON.stringify(requests[4]?.['contents'])).toContain('copilot recovery:');
      expect(JSON.stringify(requests.at(-1)?.['contents'])).toContain(
        'copilot stop check: run the linter',
      );
      // The logger ran in its cwd, with Copilot's payload: toolArgs a JSON string.
      const logged = await readLog(join(scripts, 'tool-usage.jsonl'));
      expect(logged.map((entry) => entry['toolResult'])).toMatchObject([
        { resultType: 'denied', textResultForLlm: 'copilot guard: dangerous command' },
        { resultType: 'denied' },
        { resultType: 'success' },
      ]);
      const ran = logged.find((entry) => String(entry['toolArgs']).includes('rewritten'));
      expect(ran).toMatchObject({
        toolName: 'bash',
        cwd: sandbox.project,
        toolResult: { resultType: 'success' },
      });
      expect(JSON.parse(String(ran?.['toolArgs']))).toEqual({
        command: 'echo rewritten > out.txt',
      });
      expect(typeof ran?.['timestamp']).toBe('number');
      expect(stderr).toContain('hooks.preToolUse[2].notAField');
      expect(stderr).toContain('has only a Windows command (powershell)');
      expect(stderr).toContain(
        `GitHub Copilot CLI's event "userPromptTransformed" is not supported`,
      );
    },
  );

  it(
    'a preToolUse hook that times out denies (Copilot lets a timeout through; a guard does not)',
    { timeout: 90_000 },
    async () => {
      const sandbox = await createSandbox();
      await writeJson(join(sandbox.home, '.copilot', 'hooks', 'slow.json'), {
        version: 1,
        hooks: {
          preToolUse: [
            { type: 'command', bash: `${node} -e "setTimeout(() => {}, 20000)"`, timeoutSec: 1 },
          ],
        },
      });
      const outcome = await runScripted(sandbox, [
        callTool('c0', 'shell', { command: 'touch ran' }),
        say('done'),
      ]);
      expect(existsSync(join(sandbox.project, 'ran'))).toBe(false);
      expect(JSON.stringify(outcome.requests[1]?.['contents'])).toContain('timed out after 1s');
    },
  );

  it(
    'exec + args start the program with no shell, and bash commands reach paths with spaces and quotes',
    { timeout: 90_000 },
    async () => {
      const sandbox = await createSandbox();
      const directory = join(sandbox.root, `hook dir`, `it's "here"`);
      const log = join(directory, 'argv log.jsonl');
      const guard = join(directory, 'guard.mjs');
      await script(
        guard,
        hook(`appendFileSync(process.argv[2], JSON.stringify(process.argv.slice(3)) + '\\n');
if (JSON.parse(input.toolArgs).command.includes('rm ') && process.argv[3] !== 'from bash')
  console.log(JSON.stringify({ permissionDecision: 'deny', permissionDecisionReason: 'argv guard: ' + process.argv[3] }));`),
      );
      const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;
      await writeJson(join(sandbox.project, '.github', 'hooks', 'argv.json'), {
        version: 1,
        hooks: {
          preToolUse: [
            {
              type: 'command',
              bash: [process.execPath, guard, log, 'from bash'].map(quote).join(' '),
              powershell: 'pwsh -File guard.ps1',
              matcher: 'bash',
            },
            {
              type: 'command',
              exec: process.execPath,
              args: [guard, log, 'two words', `it's "quoted"`, '$HOME; touch injected'],
              matcher: 'bash',
            },
          ],
        },
      });
      await mkdir(join(sandbox.project, 'victim'));

      const outcome = await runScripted(sandbox, [
        callTool('c0', 'shell', { command: 'rm -r victim' }),
        say('done'),
      ]);

      expect(existsSync(join(sandbox.project, 'victim'))).toBe(true);
      expect(JSON.stringify(outcome.requests[1]?.['contents'])).toContain('argv guard: two words');
      const calls = (await readLog(log)) as unknown as string[][];
      expect(calls).toEqual([
        ['from bash'],
        ['two words', `it's "quoted"`, '$HOME; touch injected'],
      ]);
      expect(existsSync(join(sandbox.project, 'injected'))).toBe(false);
    },
  );
});
