/**
 * Runs the real Claude Code headless (`claude -p PROMPT`) in a project against a loopback
 * Anthropic mock: only what it needs to run offline — the mock's URL, a dummy API key, a home
 * and config directory inside the test's folder, no non-essential traffic, no auto-updater, no
 * telemetry — with Bash pre-approved (only a hook can stop it).
 */
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

export interface ClaudeRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface ClaudeRunOptions {
  readonly claude: string;
  readonly project: string;
  /** Where its home, config and temp files go (removed by the caller). */
  readonly home: string;
  readonly baseUrl: string;
  readonly prompt: string;
  /** More environment (e.g. hookwire's `HOOKWIRE_HOME`, `XDG_RUNTIME_DIR`). */
  readonly env?: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
  /** `--max-turns` (default 6). */
  readonly maxTurns?: number;
}

/** The environment Claude Code runs offline with, against `baseUrl`. */
export function claudeEnvironment(home: string, baseUrl: string): Record<string, string> {
  const temp = join(home, 'tmp');
  mkdirSync(temp, { recursive: true });
  return {
    PATH: process.env['PATH'] ?? '',
    HOME: home,
    TMPDIR: temp,
    CLAUDE_CODE_TMPDIR: temp,
    CLAUDE_CONFIG_DIR: join(home, '.claude'),
    ANTHROPIC_BASE_URL: baseUrl,
    ANTHROPIC_API_KEY: 'sk-ant-loopback-test',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
  };
}

export function runClaude(options: ClaudeRunOptions): Promise<ClaudeRun> {
  return new Promise((settle, reject) => {
    const child = spawn(
      options.claude,
      [
        '-p',
        options.prompt,
        '--model',
        'claude-sonnet-4-6',
        '--allowedTools',
        'Bash',
        '--max-turns',
        String(options.maxTurns ?? 6),
      ],
      {
        cwd: options.project,
        env: { ...claudeEnvironment(options.home, options.baseUrl), ...options.env },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const deadline = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(deadline);
      settle({ code, stdout, stderr });
    });
  });
}
