import { jsonOutput } from './json-output.ts';
import type { OutputFormat, RunOutput } from './run-output.ts';
import { streamJsonOutput } from './stream-json-output.ts';
import { textOutput } from './text-output.ts';

/** The `RunOutput` of an `--output-format`; `quiet` (`--quiet`) drops the text output's decision lines. */
export function createRunOutput(
  format: OutputFormat,
  options: { readonly quiet?: boolean } = {},
): RunOutput {
  switch (format) {
    case 'text':
      return textOutput({ decisions: options.quiet !== true });
    case 'json':
      return jsonOutput();
    case 'stream-json':
      return streamJsonOutput();
  }
}
