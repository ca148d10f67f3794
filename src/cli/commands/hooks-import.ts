import { writeStdout } from '../output/stdout.ts';
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { importGroups, readDialectFiles } from '../../hook-kinds/dialects/import-settings.ts';
import { DIALECT_NAMES, type DialectName } from '../../hook-kinds/dialects/vocabulary.ts';
import { readSettingsText, formatSettingsIssues } from '../../hook-kinds/settings/index.ts';
import { CliError } from '../cli-error.ts';
import {
  assertProjectDir,
  projectDirOf,
  type SettingsCommandOptions,
} from '../settings-options.ts';

/** Options of `hookwire hooks import`. */
export interface HooksImportOptions extends Pick<SettingsCommandOptions, 'cwd'> {
  /** `--from claude|gemini|codex|kimi|copilot|cursor|windsurf`. */
  readonly from: string;
  /** `--write FILE`: write the settings there (a new file) instead of printing them. */
  readonly write?: string;
}

/**
 * `hookwire hooks import --from DIALECT [--write FILE]`: converts the hooks of that tool's files
 * (user, project and local, as the dialect layers read them) to one hookwire settings file
 * (see `importGroups`), checked by hookwire's own strict reader before it is printed or written.
 * What could not be carried, and why, goes to stderr, one line each. Returns 0; 1 (CliError) for
 * an unknown dialect, no file to import, or an existing `--write` file.
 */
export async function hooksImportCommand(options: HooksImportOptions): Promise<number> {
  if (!(DIALECT_NAMES as readonly string[]).includes(options.from))
    throw new CliError(
      `--from ${options.from}: unknown tool; use one of ${DIALECT_NAMES.join(', ')}.`,
    );
  const dialect = options.from as DialectName;
  await assertProjectDir(options);
  const projectDir = projectDirOf(options);
  const read = await readDialectFiles(dialect, { projectDir });
  if (read.files.length === 0)
    throw new CliError(
      `--from ${dialect}: no ${dialect} settings file found for ${projectDir} (looked where hookwire reads them; see "Hooks from other tools" in the README).`,
    );
  const imported = importGroups(read.groups);
  const text = JSON.stringify(imported.settings, null, 2) + '\n';
  const target = options.write === undefined ? undefined : resolve(options.write);
  const check = readSettingsText(text, { file: target ?? '<import>', layer: 'project' });
  if (check.issues.length > 0)
    throw new CliError(
      `the imported settings do not validate:\n${formatSettingsIssues(check.issues)}`,
    );
  for (const line of [...read.warnings, ...imported.notes])
    process.stderr.write(`hookwire: not imported: ${line}\n`);
  if (target === undefined) writeStdout(text);
  else {
    try {
      await writeFile(target, text, { flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST')
        throw new CliError(
          `--write ${options.write}: the file exists; hookwire does not overwrite it (choose a new file, or merge by hand).`,
        );
      throw error;
    }
    process.stderr.write(`hookwire: wrote ${target} from ${read.files.join(', ')}\n`);
  }
  return 0;
}
