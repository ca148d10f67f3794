import { z } from 'zod';
import { lazy } from './lazy.ts';

/** The version of the hook wire this library speaks. */
export const WIRE_VERSION = 2;

function versionMessage(value: unknown): string {
  if (value === undefined) return 'required field is missing: `version: 2`';
  if (value === 1)
    return 'version 1 is not supported: hookwire speaks the v2 wire (`version: 2`); migrate v1 payloads (messages → contents, candidates → content, toolConfig → toolChoice, parts → blocks, role → speaker)';
  return `version ${JSON.stringify(value)} is not supported: hookwire speaks the v2 wire (\`version: 2\`, or omit it)`;
}

/** `version: 2`, or absent on what a hook returns (a decoder reads it as 2). */
export const wireVersionSchema = lazy(() =>
  z.literal(WIRE_VERSION, {
    error: (issue) => versionMessage(issue.input),
  }),
);
