import { jsonOutput } from './json-output.ts';
import type { OutputFormat, RunOutput } from './run-output.ts';
import { streamJsonOutput } from './stream-json-output.ts';
import { textOutput } from './text-output.ts';

/** The `RunOutput` of an `--output-format`. */
export function createRunOutput(format: OutputFormat): RunOutput {
  switch (format) {
    case 'text':
      return textOutput();
    case 'json':
      return jsonOutput();
    case 'stream-json':
      return streamJsonOutput();
  }
}
