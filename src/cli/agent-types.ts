/**
 * The agent types of a `hookwire run`: `~/.hookwire/agents/*.md` (user), then
 * `<project>/.hookwire/agents/*.md`, then the `agents` of every settings layer in merge order; a
 * later definition of a name replaces an earlier one. A type's `model` (a `--model` spec, or
 * `inherit`) is resolved here; a file that does not parse is a one-line error naming it.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { LanguageModel } from '../content/index.ts';
import type { EffectiveSettings } from '../hook-kinds/settings/index.ts';
import {
  AgentTypeError,
  loadAgentFiles,
  type AgentType,
  type AgentTypeDefinition,
} from '../loop/index.ts';
import { CliError } from './cli-error.ts';

/** The agent types and what was ignored in their files (one warning line each). */
export interface LoadedAgentTypes {
  readonly types: readonly AgentType[];
  readonly warnings: readonly string[];
}

/** Loads and resolves the agent types (see the module comment). */
export async function loadAgentTypes(
  settings: EffectiveSettings,
  projectDir: string,
  env: NodeJS.ProcessEnv,
  resolveModel: (spec: string) => Promise<LanguageModel>,
): Promise<LoadedAgentTypes> {
  const home =
    env.HOOKWIRE_HOME === undefined || env.HOOKWIRE_HOME === '' ? homedir() : env.HOOKWIRE_HOME;
  const directories = [join(home, '.hookwire', 'agents')];
  const projectAgents = join(projectDir, '.hookwire', 'agents');
  if (projectAgents !== directories[0]) directories.push(projectAgents);
  const definitions = new Map<string, AgentTypeDefinition>();
  const warnings: string[] = [];
  for (const directory of directories) {
    let files;
    try {
      files = await loadAgentFiles(directory);
    } catch (error) {
      if (error instanceof AgentTypeError) throw new CliError(error.message, { cause: error });
      throw new CliError(
        `The agent files in ${directory} cannot be read: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
    for (const file of files) {
      definitions.set(file.definition.name, file.definition);
      if (file.ignoredKeys.length > 0)
        warnings.push(
          `${file.definition.source}: ignored front matter key(s) ${file.ignoredKeys.join(', ')} (hookwire reads name, description, tools, model)`,
        );
    }
  }
  for (const setting of settings.agents)
    definitions.set(setting.name, {
      name: setting.name,
      description: setting.description,
      prompt: setting.prompt,
      ...(setting.tools === undefined ? {} : { tools: setting.tools }),
      ...(setting.model === undefined ? {} : { model: setting.model }),
      source: `${setting.file} (agents.${setting.name})`,
    });
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
