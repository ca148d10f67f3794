/**
 * The real agents the relay tests and benchmarks run, installed from the npm registry at pinned
 * versions into `.cache/real-agents/` (git-ignored, never committed) the first time a test needs
 * them; CI reaches the registry. Claude Code's package is a wrapper whose platform binary comes
 * from an optional dependency (`@anthropic-ai/claude-code-<platform>`); its postinstall copies
 * that binary over `bin/claude.exe`, and npm may hold install scripts back, so the binary is
 * taken from the platform package directly. Gemini CLI is a Node program (`bundle/gemini.js`).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPOSITORY } from '../../cli/support.ts';

export const CLAUDE_CODE_VERSION = '2.1.332';
export const GEMINI_CLI_VERSION = '0.61.0';

export const AGENTS_DIR = join(REPOSITORY, '.cache', 'real-agents');

function platformPackage(): string {
  const glibc = (process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header
    ?.glibcVersionRuntime;
  const musl = process.platform === 'linux' && glibc === undefined ? '-musl' : '';
  return `@anthropic-ai/claude-code-${process.platform}-${process.arch}${musl}`;
}

/** The installed agents, or why they could not be installed. */
export interface RealAgents {
  /** The Claude Code binary, or why there is none. */
  readonly claude: { readonly path: string } | { readonly skip: string };
  /** The Gemini CLI entry (run with Node), or why there is none. */
  readonly gemini: { readonly path: string } | { readonly skip: string };
}

function version(path: string, args: readonly string[]): string {
  return execFileSync(path, [...args], {
    encoding: 'utf8',
    timeout: 60_000,
    env: { PATH: process.env['PATH'] ?? '', HOME: AGENTS_DIR },
  }).trim();
}

/**
 * Installs the pinned agents when missing, and says where they are. With
 * `HOOKWIRE_REQUIRE_REAL_AGENTS=1` (CI sets it) an agent that cannot be installed or run is an
 * error, never a skip: CI must not pass without the real agents having judged the relay.
 */
export function installRealAgents(): RealAgents {
  const agents = findOrInstallAgents();
  if (process.env['HOOKWIRE_REQUIRE_REAL_AGENTS'] === '1')
    for (const [name, agent] of Object.entries(agents) as [string, RealAgents['claude']][])
      if ('skip' in agent)
        throw new Error(`${name} is required (HOOKWIRE_REQUIRE_REAL_AGENTS=1): ${agent.skip}`);
  return agents;
}

function findOrInstallAgents(): RealAgents {
  const claude = join(AGENTS_DIR, 'node_modules', ...platformPackage().split('/'), 'claude');
  const gemini = join(AGENTS_DIR, 'node_modules', '@google', 'gemini-cli', 'bundle', 'gemini.js');
  if (!existsSync(claude) || !existsSync(gemini)) {
    mkdirSync(AGENTS_DIR, { recursive: true });
    writeFileSync(join(AGENTS_DIR, 'package.json'), '{ "private": true }\n');
    try {
      execFileSync(
        'npm',
        [
          'install',
          '--no-save',
          '--no-audit',
          '--no-fund',
          `@anthropic-ai/claude-code@${CLAUDE_CODE_VERSION}`,
          `@google/gemini-cli@${GEMINI_CLI_VERSION}`,
        ],
        { cwd: AGENTS_DIR, stdio: 'ignore', timeout: 600_000 },
      );
    } catch (error) {
      const why = `npm install of the pinned agents failed: ${(error as Error).message.split('\n')[0] ?? ''}`;
      return { claude: { skip: why }, gemini: { skip: why } };
    }
  }
  const check = (
    path: string,
    args: readonly string[],
    expected: string,
    installed = path,
  ): { path: string } | { skip: string } => {
    if (!existsSync(installed)) return { skip: `${installed} is not installed` };
    try {
      const printed = version(path, args);
      return printed.includes(expected)
        ? { path: installed }
        : { skip: `${path} ${args.join(' ')} printed ${printed}` };
    } catch (error) {
      return { skip: `${path} --version failed: ${(error as Error).message.split('\n')[0] ?? ''}` };
    }
  };
  return {
    claude: check(claude, ['--version'], CLAUDE_CODE_VERSION),
    gemini: check(process.execPath, [gemini, '--version'], GEMINI_CLI_VERSION, gemini),
  };
}
