import { visibleText } from './visible-text.ts';
import type { EffectiveHookRow, SettingsFileStatus } from '../../hook-kinds/settings/index.ts';

const HEADINGS = [
  'EVENT',
  'MATCHER',
  'NAME',
  'LAYER',
  'TIMEOUT',
  'OPTIONS',
  'STATUS',
  'TRUST',
  'COMMAND',
];

function optionsOf(row: EffectiveHookRow): string {
  const options: string[] = [];
  if (row.failClosed) options.push('fail-closed');
  if (row.sequential) options.push('sequential');
  if (row.sandbox === true) options.push('sandbox');
  if (row.environment === 'scrubbed') options.push('scrubbed-env');
  if (row.if !== undefined) options.push(`if=${row.if}`);
  return options.length === 0 ? '-' : options.join(',');
}

function cellsOf(row: EffectiveHookRow): string[] {
  const event = row.registeredAs === row.event ? row.event : `${row.event} (${row.registeredAs})`;
  return [
    event,
    row.matcher,
    row.name,
    row.dialect === undefined ? row.layer : `${row.layer}/${row.dialect}`,
    row.timeout,
    optionsOf(row),
    row.status,
    row.trust === 'not-required' ? '-' : row.trust,
    row.command,
  ].map(visibleText);
}

/** Pads every column but the last to its widest cell, two spaces apart. */
function alignColumns(lines: readonly (readonly string[])[]): string[] {
  const widths: number[] = [];
  for (const cells of lines) {
    cells.forEach((cell, index) => {
      widths[index] = Math.max(widths[index] ?? 0, cell.length);
    });
  }
  return lines.map((cells) =>
    cells
      .map((cell, index) => (index === cells.length - 1 ? cell : cell.padEnd(widths[index] ?? 0)))
      .join('  ')
      .trimEnd(),
  );
}

/**
 * The readable form of `hookwire hooks list`: one aligned row per hook (events in catalogue
 * order, hooks in the order they apply, ignored hooks last within their event), then where each
 * hook is defined (file and JSON path, duplicates, why an ignored hook does not run), then the
 * settings files consulted with their status.
 */
export function formatHooksTable(
  rows: readonly EffectiveHookRow[],
  files: readonly SettingsFileStatus[],
): string {
  const out: string[] = [];
  if (rows.length === 0) out.push('No hooks configured.');
  else {
    out.push(...alignColumns([HEADINGS, ...rows.map(cellsOf)]));
    out.push('', 'Defined in:');
    rows.forEach((row) => {
      const dialect = row.dialect === undefined ? '' : ` (${row.dialect} dialect)`;
      out.push(`  ${row.event} ${row.name}: ${row.file} at ${row.path}${dialect}`);
      for (const other of row.alsoDefinedIn) out.push(`    also defined in ${other} (runs once)`);
      if (row.ignoredReason !== undefined) out.push(`    ignored: ${row.ignoredReason}`);
    });
  }
  const untrusted = rows.filter((row) => row.trust === 'untrusted').length;
  if (untrusted > 0)
    out.push(
      '',
      `${untrusted} hook${untrusted === 1 ? ' is' : 's are'} not trusted and do${untrusted === 1 ? 'es' : ''} not run: review, then run "hookwire hooks trust".`,
    );
  out.push('', 'Settings files:');
  out.push(
    ...alignColumns(
      files.map((file) => [
        `  ${file.layer}`,
        file.status === 'loaded' ? 'loaded' : file.status,
        file.dialect === undefined ? file.file : `${file.file} (${file.dialect})`,
      ]),
    ),
  );
  // Every line visible: a command's terminal escapes or carriage returns cannot hide a part of it.
  return out.map(visibleText).join('\n') + '\n';
}
