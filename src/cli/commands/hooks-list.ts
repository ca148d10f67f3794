import { writeStdout } from '../output/stdout.ts';
import { listEffectiveHooks } from '../../hook-kinds/settings/list-effective-hooks.ts';
import { formatHooksTable } from '../output/hooks-table.ts';
import {
  loadCommandSettings,
  printSettingsWarnings,
  type SettingsCommandOptions,
} from '../settings-options.ts';

/** Options of `hookwire hooks list`. */
export interface HooksListOptions extends SettingsCommandOptions {
  /** Print the rows as one JSON array instead of a table. */
  readonly json?: boolean;
}

/**
 * `hookwire hooks list`: the effective hooks of every layer with the layer each came from, as a
 * table or (`--json`) as the `EffectiveHookRow[]` of `listEffectiveHooks`. Hooks a managed
 * `allowManagedHooksOnly` policy ignores are listed with status `ignored` and the reason.
 * Returns the exit status (0); settings errors propagate.
 */
export async function hooksListCommand(options: HooksListOptions): Promise<number> {
  const settings = await loadCommandSettings(options);
  printSettingsWarnings(settings);
  const rows = listEffectiveHooks(settings);
  writeStdout(
    options.json === true
      ? JSON.stringify(rows, null, 2) + '\n'
      : formatHooksTable(rows, settings.files),
  );
  return 0;
}
