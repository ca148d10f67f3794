import { writeStdout } from '../output/stdout.ts';
import { listEffectiveHooks } from '../../hook-kinds/settings/list-effective-hooks.ts';
import {
  loadCommandSettings,
  printSettingsWarnings,
  type SettingsCommandOptions,
} from '../settings-options.ts';

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/**
 * `hookwire hooks validate`: loads every layer and `--settings` file. Valid: prints one line,
 * `N hooks in M files are valid` (N counts every hook as listed by `hooks list`, ignored ones
 * included; M the settings files read), and returns 0. Invalid: the `SettingsError` carrying
 * every issue propagates, and the CLI prints them all to stderr and exits 1.
 */
export async function hooksValidateCommand(options: SettingsCommandOptions): Promise<number> {
  const settings = await loadCommandSettings(options);
  printSettingsWarnings(settings);
  const hooks = listEffectiveHooks(settings).length;
  const files = settings.files.filter((file) => file.status === 'loaded').length;
  writeStdout(
    `${plural(hooks, 'hook')} in ${plural(files, 'file')} ${hooks === 1 ? 'is' : 'are'} valid\n`,
  );
  return 0;
}
