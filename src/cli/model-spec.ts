import { resolve } from 'node:path';
import type { LanguageModel } from '../content/index.ts';
import { loadScriptedModel, ScriptError } from '../adapters/testing/scripted-model.ts';
import { CliError } from './cli-error.ts';

/** Options of `resolveModel`. */
export interface ResolveModelOptions {
  /** `--base-url`; ignored by `scripted:`. */
  readonly baseURL?: string;
  /** Where `scripted:FILE` is resolved: the invocation's working directory, not `--cwd`. */
  readonly invocationDir: string;
  /** Where provider keys and base URLs are read. */
  readonly env: NodeJS.ProcessEnv;
}

const SCRIPTED = 'scripted:';

/**
 * The model of a `--model PROVIDER:MODEL` spec. `scripted:FILE` replays the JSONL script FILE
 * (resolved against the invocation's directory); every other provider comes from the provider
 * registry, whose errors (unknown provider, missing key) are one-line `HookwireError`s.
 */
export async function resolveModel(
  spec: string,
  options: ResolveModelOptions,
): Promise<LanguageModel> {
  if (spec.startsWith(SCRIPTED)) {
    const file = spec.slice(SCRIPTED.length);
    if (file.trim() === '') {
      throw new CliError(
        '--model scripted: names no file: write it as scripted:path/to/model.jsonl',
      );
    }
    const path = resolve(options.invocationDir, file);
    try {
      return await loadScriptedModel(path);
    } catch (error) {
      // A malformed line: its message names the file, the line and the problem.
      if (error instanceof ScriptError)
        throw new CliError(
          `The script of --model ${spec} is not valid: ${error.message}; fix that line (one JSON object per model call, see the README's "Scripted model").`,
          { cause: error },
        );
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') {
        throw new CliError(
          `The script ${path} of --model ${spec} does not exist: check the path (it is relative to the directory hookwire was started in, not --cwd).`,
        );
      }
      if (code === 'EISDIR') {
        throw new CliError(
          `The script ${path} of --model ${spec} is a directory: name the JSONL file itself, e.g. scripted:${file.replace(/\/+$/, '')}/model.jsonl`,
        );
      }
      if (typeof code === 'string') {
        throw new CliError(
          `The script ${path} of --model ${spec} cannot be read (${code}): make it a readable JSONL file.`,
          { cause: error },
        );
      }
      throw error;
    }
  }
  // Loaded on demand, and only the chosen provider's SDK (see loadModelFromSpec).
  const { loadModelFromSpec } = await import('../adapters/providers/load-model.ts');
  const { ModelSpecError } = await import('../adapters/providers/model-spec.ts');
  try {
    return await loadModelFromSpec(spec, {
      env: options.env,
      ...(options.baseURL === undefined ? {} : { baseURL: options.baseURL }),
    });
  } catch (error) {
    // The registry knows only real providers; the CLI also takes scripted:FILE, so say so.
    if (error instanceof ModelSpecError && error.message.startsWith('Unknown model provider')) {
      throw new CliError(`${error.message}, or scripted:FILE to replay a JSONL script`, {
        code: error.code,
        cause: error,
      });
    }
    throw error;
  }
}
