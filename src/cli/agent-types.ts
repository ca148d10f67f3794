/**
 * The agent types of a `hookwire run`: `~/.claude/agents/*.md`, `~/.hookwire/agents/*.md`
 * (user), then `<project>/.claude/agents/*.md`, `<project>/.hookwire/agents/*.md`, then the
 * agents of the session's plugins (`agents/*.md`, named `plugin:agent`), then the
 * `agents` of every settings layer in merge order; a later definition of a name replaces an
 * earlier one. A type's `model` (a `--model` spec, or `inherit`) is resolved here; a hookwire
 * file that does not parse is a one-line error naming it.
 *
 * Claude Code's agent files (`.claude/agents/`, read with the dialects, not with
 * `--no-dialects`) are read as Claude Code reads them: a file that does not parse is skipped
 * with a warning, and a `model` that is one of Claude Code's aliases (`sonnet`, `opus`, `haiku`)
 * is ignored with a warning (the subagent inherits the main agent's model).
 *
 * The project's agent files are untrusted input, like its hooks and instruction files: a file under
 * `<project>/.claude/agents/` or `<project>/.hookwire/agents/` defines a type only once its text
 * is trusted (`hookwire hooks trust` records the fingerprint of the file's text; any change
 * untrusts it) or with `--trust-project` (`readProjectAgentFiles`). The user's own files need no
 * trust.
 *
 * In every definition, `tools` entries in Claude Code's words (`Read, Grep, Bash, Edit, Write,
 * Glob`, `Agent`/`Task`) mean hookwire's tools through the Claude vocabulary
 * (`hook-kinds/dialects/vocabulary.ts`); an entry that names no tool the run has (and is not a
 * pattern or an `mcp__` name) is a warning naming the file: the subagent would not get it.
 */
import { readdir, readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { trustFingerprint } from '../hook-kinds/settings/hook-identity.ts';
import { hookwireToolName, TOOLS_WITHOUT_COUNTERPART } from '../hook-kinds/dialects/vocabulary.ts';
import type { LanguageModel } from '../content/index.ts';
import type { EffectiveSettings, HookTrust } from '../hook-kinds/settings/index.ts';
import {
  AgentTypeError,
  parseAgentFile,
  type AgentType,
  type AgentTypeDefinition,
  type ParsedAgentFile,
} from '../loop/index.ts';
import { CliError } from './cli-error.ts';

/** The agent types and what was ignored in their files (one warning line each). */
export interface LoadedAgentTypes {
  readonly types: readonly AgentType[];
  readonly warnings: readonly string[];
}

/** Options of `loadAgentTypes`. */
export interface AgentTypeSources {
  /** The names of the tools the run offers (built-in and MCP), for the unknown-tool warning. */
  readonly knownTools: readonly string[];
  /** false (`--no-dialects`): do not read `.claude/agents/`. */
  readonly dialects?: boolean;
  /**
   * The project's agent files as `readProjectAgentFiles` read them: only the trusted ones define
   * types. Absent: every project file is read and trusted (a library caller vouching for it).
   */
  readonly projectFiles?: readonly ProjectAgentFile[];
}

/** One agent file of the project (`.claude/agents/*.md`, `.hookwire/agents/*.md`). */
export interface ProjectAgentFile {
  readonly path: string;
  /** `.claude/agents/reader.md`: the path from the project directory. */
  readonly label: string;
  readonly claude: boolean;
  readonly bytes: number;
  readonly text: string;
  /** The trust record's key for this file's text (`hookwire hooks trust`). */
  readonly fingerprint: string;
  /** The file's text is trusted (or the whole project is): it defines an agent type. */
  readonly trusted: boolean;
}

/** Where the project's agent files live: Claude Code's folder (with the dialects), then hookwire's. */
function projectAgentDirectories(
  projectDir: string,
  dialects: boolean,
): { readonly directory: string; readonly label: string; readonly claude: boolean }[] {
  return [
    ...(dialects
      ? [
          {
            directory: join(projectDir, '.claude', 'agents'),
            label: '.claude/agents',
            claude: true,
          },
        ]
      : []),
    {
      directory: join(projectDir, '.hookwire', 'agents'),
      label: '.hookwire/agents',
      claude: false,
    },
  ];
}

/**
 * Reads the project's agent files with whether each is trusted by `trust` (absent: all are).
 * A directory that cannot be listed, or a file that cannot be read, is left out (`hookwire run`
 * reads what it can; an unreadable trusted hookwire file still fails there when parsed).
 */
export async function readProjectAgentFiles(
  projectDir: string,
  options: { readonly dialects?: boolean; readonly trust?: HookTrust },
): Promise<ProjectAgentFile[]> {
  const files: ProjectAgentFile[] = [];
  for (const { directory, label, claude } of projectAgentDirectories(
    projectDir,
    options.dialects !== false,
  )) {
    const names = await readdir(directory).catch(() => [] as string[]);
    for (const name of names.filter((entry) => entry.toLowerCase().endsWith('.md')).sort()) {
      const path = join(directory, name);
      const text = await readFile(path, 'utf8').catch(() => undefined);
      if (text === undefined) continue;
      const fileLabel = `${label}/${name}`;
      const fingerprint = trustFingerprint({ agentFile: fileLabel, text });
      const trust = options.trust;
      files.push({
        path,
        label: fileLabel,
        claude,
        bytes: Buffer.byteLength(text),
        text,
        fingerprint,
        trusted: trust === undefined || trust.trustAll || trust.trusted.has(fingerprint),
      });
    }
  }
  return files;
}

/** Claude Code's model aliases in an agent file's `model`. */
const CLAUDE_MODEL_ALIASES = new Set(['sonnet', 'opus', 'haiku', 'opusplan']);

/** The `.md` files of a directory with their texts, sorted by name; none when it cannot be listed. */
async function readAgentDirectory(
  directory: string,
): Promise<{ readonly path: string; readonly text: string }[]> {
  let names: string[];
  try {
    names = await readdir(directory);
  } catch {
    return [];
  }
  const files: { path: string; text: string }[] = [];
  for (const name of names.filter((entry) => entry.toLowerCase().endsWith('.md')).sort()) {
    const path = join(directory, name);
    files.push({ path, text: await readFile(path, 'utf8') });
  }
  return files;
}

/** Claude Code's agent files: a file that does not parse is a warning. */
function parseClaudeAgentFiles(
  files: readonly { readonly path: string; readonly text: string }[],
  warnings: string[],
): ParsedAgentFile[] {
  const parsed: ParsedAgentFile[] = [];
  for (const { path: file, text } of files) {
    try {
      const read = parseAgentFile(text, file);
      const model = read.definition.model;
      if (model !== undefined && CLAUDE_MODEL_ALIASES.has(model)) {
        warnings.push(
          `${file}: model "${model}" is a Claude Code alias, not a hookwire model spec; the subagent inherits the main agent's model (write e.g. anthropic:claude-sonnet-4-5 in a .hookwire/agents file to choose one)`,
        );
        const { model: _alias, ...definition } = read.definition;
        parsed.push({ ...read, definition });
      } else parsed.push(read);
    } catch (error) {
      warnings.push(
        `${error instanceof Error ? error.message : String(error)} (this Claude Code agent file is skipped)`,
      );
    }
  }
  return parsed;
}

/**
 * `tools` entries with Claude Code's names mapped to hookwire's; a warning per entry that names
 * no tool of the run (the subagent would not get it), naming `source`.
 */
function resolveToolNames(
  entries: readonly string[],
  knownTools: ReadonlySet<string>,
  source: string,
  warnings: string[],
): string[] {
  const resolved: string[] = [];
  for (const entry of entries) {
    const trimmed = entry.trim();
    const name = hookwireToolName('claude', trimmed);
    resolved.push(name);
    if (knownTools.has(name) || name.includes('*') || name.startsWith('mcp__')) continue;
    const foreign = TOOLS_WITHOUT_COUNTERPART.claude.includes(trimmed);
    warnings.push(
      `${source}: tools: "${trimmed}" ${foreign ? 'is a Claude Code tool hookwire does not have' : 'names no tool'}, so the subagent does not get it; the tools are ${[...knownTools].join(', ')} (Claude Code's Read, Write, Edit, Glob, Grep, Bash and Agent mean them too)`,
    );
  }
  return resolved;
}

/** Loads and resolves the agent types (see the module comment). */
export async function loadAgentTypes(
  settings: EffectiveSettings,
  projectDir: string,
  env: NodeJS.ProcessEnv,
  resolveModel: (spec: string) => Promise<LanguageModel>,
  sources: AgentTypeSources = { knownTools: [] },
): Promise<LoadedAgentTypes> {
  const home =
    env.HOOKWIRE_HOME === undefined || env.HOOKWIRE_HOME === '' ? homedir() : env.HOOKWIRE_HOME;
  const claude = sources.dialects !== false;
  const userDirectories = [
    ...(claude ? [{ directory: join(home, '.claude', 'agents'), claude: true }] : []),
    { directory: join(home, '.hookwire', 'agents'), claude: false },
  ];
  const knownTools = new Set(sources.knownTools);
  const definitions = new Map<string, AgentTypeDefinition>();
  const warnings: string[] = [];
  const withTools = (definition: AgentTypeDefinition): AgentTypeDefinition =>
    definition.tools === undefined || knownTools.size === 0
      ? definition
      : {
          ...definition,
          tools: resolveToolNames(definition.tools, knownTools, definition.source, warnings),
        };
  const define = (
    files: readonly { readonly path: string; readonly text: string }[],
    isClaude: boolean,
  ): void => {
    let parsed: ParsedAgentFile[];
    try {
      parsed = isClaude
        ? parseClaudeAgentFiles(files, warnings)
        : files.map((file) => parseAgentFile(file.text, file.path));
    } catch (error) {
      if (error instanceof AgentTypeError) throw new CliError(error.message, { cause: error });
      throw error;
    }
    for (const file of parsed) {
      definitions.set(file.definition.name, withTools(file.definition));
      if (file.ignoredKeys.length > 0)
        warnings.push(
          `${file.definition.source}: ignored front matter key(s) ${file.ignoredKeys.join(', ')} (hookwire reads name, description, tools, model)`,
        );
    }
  };
  const readDirectory = async (directory: string) => {
    try {
      return await readAgentDirectory(directory);
    } catch (error) {
      throw new CliError(
        `The agent files in ${directory} cannot be read: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
  };
  for (const { directory, claude: isClaude } of userDirectories)
    define(await readDirectory(directory), isClaude);
  // The project's files (untrusted ones define nothing; `hookwire hooks trust` lists them). A
  // project that is the home directory has had its files read as the user's.
  const projectFiles = (
    sources.projectFiles ?? (await readProjectAgentFiles(projectDir, { dialects: claude }))
  ).filter(
    (file) =>
      file.trusted &&
      !userDirectories.some(({ directory }) => file.path.startsWith(`${directory}/`)),
  );
  for (const isClaude of [true, false])
    define(
      projectFiles.filter((file) => file.claude === isClaude),
      isClaude,
    );
  // The plugins' agents (`agents/*.md` and the manifest's `agents` paths), named
  // `plugin:agent` as Claude Code names them, read as Claude Code's agent files.
  for (const plugin of settings.plugins) {
    const listed = plugin.manifest['agents'];
    const paths = typeof listed === 'string' ? [listed] : Array.isArray(listed) ? listed : [];
    const pluginDirectories = [
      ...new Set([
        join(plugin.root, 'agents'),
        ...paths
          .filter((path): path is string => typeof path === 'string')
          .map((path) => join(plugin.root, path)),
      ]),
    ];
    for (const directory of pluginDirectories)
      for (const file of parseClaudeAgentFiles(await readDirectory(directory), warnings)) {
        const name = `${plugin.name}:${file.definition.name}`;
        definitions.set(name, withTools({ ...file.definition, name }));
      }
  }
  for (const setting of settings.agents)
    definitions.set(
      setting.name,
      withTools({
        name: setting.name,
        description: setting.description,
        prompt: setting.prompt,
        ...(setting.tools === undefined ? {} : { tools: setting.tools }),
        ...(setting.model === undefined ? {} : { model: setting.model }),
        source: `${setting.file} (agents.${setting.name})`,
      }),
    );
  const types: AgentType[] = [];
  for (const definition of definitions.values()) {
    const spec = definition.model;
    let model: LanguageModel | undefined;
    if (spec !== undefined && spec !== 'inherit') {
      try {
        model = await resolveModel(spec);
      } catch (error) {
        throw new CliError(
          `${definition.source}: the model "${spec}" of agent type ${definition.name} cannot be used: ${error instanceof Error ? error.message : String(error)}`,
          { cause: error },
        );
      }
    }
    types.push({
      name: definition.name,
      description: definition.description,
      prompt: definition.prompt,
      ...(definition.tools === undefined ? {} : { tools: definition.tools }),
      ...(model === undefined ? {} : { model }),
    });
  }
  return { types, warnings };
}
