import { writeStdout } from '../output/stdout.ts';
import { relative } from 'node:path';
import {
  listEffectiveHooks,
  projectKey,
  trustStoreFile,
  updateTrustStore,
  type TrustedHookEntry,
} from '../../hook-kinds/settings/index.ts';
import { CliError } from '../cli-error.ts';
import { visibleText as v } from '../output/visible-text.ts';
import {
  commandTrust,
  loadCommandSettings,
  projectDirOf,
  type SettingsCommandOptions,
} from '../settings-options.ts';
import { readInstructionFiles } from '../project-instructions.ts';

/** Options of `hookwire hooks trust`. */
export interface HooksTrustOptions extends SettingsCommandOptions {
  /** Trust without asking (scripts); without it a terminal is asked, anything else refused. */
  readonly yes?: boolean;
}

interface Candidate {
  readonly fingerprint: string;
  readonly entry: TrustedHookEntry;
  readonly line: string;
}

function shown(project: string, file: string): string {
  const path = relative(project, file);
  return path.startsWith('..') ? file : path;
}

/** The untrusted hooks and loosening settings of the project, one display line each. */
async function untrustedCandidates(
  options: SettingsCommandOptions,
  project: string,
): Promise<Candidate[]> {
  const settings = await loadCommandSettings(options, false);
  const now = new Date().toISOString();
  const candidates: Candidate[] = [];
  for (const row of listEffectiveHooks(settings)) {
    if (row.trust !== 'untrusted') continue;
    candidates.push({
      fingerprint: row.fingerprint,
      entry: {
        event: row.event,
        matcher: row.matcher,
        summary: row.command,
        file: row.file,
        trustedAt: now,
        ...(row.namedFiles === undefined || row.definitionFingerprint === undefined
          ? {}
          : { definition: row.definitionFingerprint, files: row.namedFiles }),
      },
      line: `  hook     ${v(shown(project, row.file))} at ${v(row.path)}\n           event ${row.registeredAs}, matcher ${v(row.matcher)}, timeout ${row.timeout}${row.failClosed ? ', fail-closed' : ''}\n           command: ${v(row.command)}${row.namedFiles === undefined ? '' : `\n           runs: ${v(Object.keys(row.namedFiles).join(', '))}`}${row.ignoredReason?.startsWith('script changed') === true ? `\n           ${v(row.ignoredReason.replace(/;.*$/, ''))}` : ''}`,
    });
  }
  for (const setting of settings.ignoredSettings) {
    candidates.push({
      fingerprint: setting.fingerprint,
      entry: {
        event: '(setting)',
        matcher: setting.setting,
        summary: setting.value,
        file: setting.file,
        trustedAt: now,
      },
      line: `  setting  ${v(shown(project, setting.file))} at ${v(setting.path)}\n           ${v(setting.setting)}: ${v(setting.value)}`,
    });
  }
  for (const server of settings.ignoredMcpServers) {
    const config = server.config;
    const target = config.type === 'http' ? config.url : [config.command, ...config.args].join(' ');
    candidates.push({
      fingerprint: server.fingerprint,
      entry: {
        event: '(mcp server)',
        matcher: server.name,
        summary: target,
        file: server.file,
        trustedAt: now,
      },
      line: `  mcp      ${v(shown(project, server.file))} at ${v(server.path)}\n           ${config.type}: ${v(target)}`,
    });
  }
  for (const untrusted of settings.untrustedPlugins) {
    // A plugin too large to fingerprint cannot be trusted: it is said, not offered.
    if (untrusted.fingerprint === '') {
      process.stderr.write(
        `hookwire: plugin "${v(untrusted.plugin.name)}" cannot be trusted: ${v(untrusted.reason)}\n`,
      );
      continue;
    }
    candidates.push({
      fingerprint: untrusted.fingerprint,
      entry: {
        event: '(plugin)',
        matcher: untrusted.plugin.name,
        summary: untrusted.plugin.root,
        file: untrusted.file,
        trustedAt: now,
      },
      line: `  plugin   ${v(untrusted.plugin.name)} at ${v(shown(project, untrusted.plugin.root))} (${v(untrusted.plugin.origin)}: ${v(untrusted.file)})\n           trusted as a whole, by the SHA-256 of its directory's content: its hooks, agents and MCP servers`,
    });
  }
  const instructionFiles = await readInstructionFiles({
    projectDir: projectDirOf(options),
    env: process.env,
    ...(options.dialects === false ? { dialects: false } : {}),
    trust: await commandTrust(options, false),
  });
  for (const file of instructionFiles) {
    if (file.trusted) continue;
    const firstLine = file.text.split('\n').find((line) => line.trim() !== '') ?? '';
    candidates.push({
      fingerprint: file.fingerprint,
      entry: {
        event: '(instructions)',
        matcher: file.label,
        summary: firstLine.slice(0, 200),
        file: file.path,
        trustedAt: now,
      },
      line: `  instructions ${shown(project, file.path)} (${file.bytes} bytes${file.truncated ? ', cut to the limit' : ''}): sent to the model as part of its system prompt\n           ${firstLine.slice(0, 200)}`,
    });
  }
  return candidates;
}

async function confirm(question: string): Promise<boolean> {
  // Loaded here: readline is a dozen of Node's internal modules, and only this question needs it.
  const { createInterface } = await import('node:readline/promises');
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await prompt.question(question);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    prompt.close();
  }
}

/**
 * `hookwire hooks trust`: shows every hook (file, event, matcher, command), loosening setting
 * and MCP server (of the settings or `.mcp.json`) of the project that is not trusted, then records them in the trust
 * record (`~/.hookwire/trusted-hooks.json`) by the project's real path and each one's
 * fingerprint. A terminal is asked to confirm; `--yes` trusts without asking; anything else
 * without `--yes` is refused (exit 1). Returns 0 when nothing needs trust or all was trusted.
 */
export async function hooksTrustCommand(options: HooksTrustOptions): Promise<number> {
  const project = await projectKey(projectDirOf(options));
  const candidates = await untrustedCandidates(options, project);
  if (candidates.length === 0) {
    writeStdout(`Nothing to trust: every hook of ${project} is trusted or your own.\n`);
    return 0;
  }
  const count = `${candidates.length} ${candidates.length === 1 ? 'entry' : 'entries'}`;
  writeStdout(
    `Not trusted in ${v(project)} (they run with your permissions once trusted):\n${candidates.map((candidate) => candidate.line).join('\n')}\n`,
  );
  if (options.yes !== true) {
    if (!process.stdin.isTTY) {
      throw new CliError(
        `Not trusting ${count} without confirmation: stdin is not a terminal. Review them above, then pass --yes.`,
      );
    }
    if (!(await confirm(`Trust these ${count}? [y/N] `))) {
      writeStdout('Nothing was trusted.\n');
      return 1;
    }
  }
  const file = trustStoreFile(process.env);
  await updateTrustStore(file, project, (hooks) => ({
    ...hooks,
    ...Object.fromEntries(candidates.map((candidate) => [candidate.fingerprint, candidate.entry])),
  }));
  writeStdout(`Trusted ${count} for ${project} (recorded in ${file}).\n`);
  return 0;
}

/**
 * `hookwire hooks untrust`: forgets every hook and setting trusted for the project; its hooks
 * stop running until trusted again. Returns 0.
 */
export async function hooksUntrustCommand(options: SettingsCommandOptions): Promise<number> {
  const project = await projectKey(projectDirOf(options));
  const file = trustStoreFile(process.env);
  let removed = 0;
  await updateTrustStore(file, project, (hooks) => {
    removed = Object.keys(hooks).length;
    return {};
  });
  writeStdout(
    removed === 0
      ? `Nothing was trusted for ${project}.\n`
      : `Untrusted ${removed} ${removed === 1 ? 'entry' : 'entries'} for ${project}.\n`,
  );
  return 0;
}
