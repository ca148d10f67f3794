import { readFile } from 'node:fs/promises';
import {
  mergeSettingsFiles,
  type EffectiveSettings,
  type SettingsFileStatus,
} from './effective-settings.ts';
import { readSettingsText, type ParsedSettingsFile } from './parse-settings-text.ts';
import { SettingsError } from './settings-error.ts';
import type { SettingsIssue } from './settings-issue.ts';
import {
  settingsSources,
  type SettingsDiscoveryOptions,
  type SettingsSource,
} from './settings-layer.ts';

type ReadOutcome =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'missing' }
  | { readonly kind: 'failed'; readonly issue: SettingsIssue };

async function readSource(source: SettingsSource): Promise<ReadOutcome> {
  try {
    return { kind: 'text', text: await readFile(source.file, 'utf8') };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && !source.required) return { kind: 'missing' };
    const message =
      code === 'ENOENT'
        ? 'settings file not found'
        : code === 'EISDIR'
          ? 'settings path is a directory, not a file'
          : `settings file cannot be read: ${error instanceof Error ? error.message : String(error)}`;
    const fix =
      code === 'ENOENT'
        ? 'check the path given to --settings (relative paths are resolved against the working directory)'
        : code === 'EISDIR'
          ? 'point to the JSON file itself'
          : 'make the file readable, or remove it';
    return { kind: 'failed', issue: { file: source.file, path: '', message, fix } };
  }
}

/**
 * Loads the settings of every layer (managed policy, user, project, local, then each
 * `--settings` file; see `settingsSources` for the paths and `EffectiveSettings` for how they
 * merge). Files are read in parallel; a missing layer file is skipped, a missing `--settings`
 * file is an error, and a path already read by an earlier layer is read once. Every issue of
 * every file is collected: when there is any, throws one `SettingsError` listing them all.
 */
export async function loadSettings(options: SettingsDiscoveryOptions): Promise<EffectiveSettings> {
  const sources = settingsSources(options);
  const seen = new Set<string>();
  const duplicates = sources.map((source) => {
    const duplicate = seen.has(source.file);
    seen.add(source.file);
    return duplicate;
  });
  const outcomes = await Promise.all(
    sources.map((source, index) =>
      duplicates[index] === true ? Promise.resolve(undefined) : readSource(source),
    ),
  );

  const issues: SettingsIssue[] = [];
  const parsedFiles: ParsedSettingsFile[] = [];
  const files: SettingsFileStatus[] = [];
  sources.forEach((source, index) => {
    const outcome = outcomes[index];
    const base = { layer: source.layer, file: source.file };
    if (outcome === undefined) files.push({ ...base, status: 'duplicate' });
    else if (outcome.kind === 'missing') files.push({ ...base, status: 'missing' });
    else if (outcome.kind === 'failed') issues.push(outcome.issue);
    else {
      const result = readSettingsText(outcome.text, base);
      issues.push(...result.issues);
      if (result.parsed !== undefined) parsedFiles.push(result.parsed);
      files.push({ ...base, status: 'loaded' });
    }
  });
  if (issues.length > 0) throw new SettingsError(issues);
  return { ...mergeSettingsFiles(parsedFiles), files };
}
