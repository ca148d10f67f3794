import { z } from 'zod';
import { lazy } from '../wire/lazy.ts';
import { DURATION_PATTERN } from './duration.ts';

/** The `timeout` of a hook (every kind): seconds as a number, or a string with its unit. */
export const timeoutSchema = lazy(() =>
  z.union([z.number().positive(), z.string().regex(DURATION_PATTERN)]).meta({
    id: 'SettingsTimeout',
    description:
      'Deadline of the hook process: a number of seconds (30), or a string with its unit ("500ms", "30s", "2m", "1h"). Default 60 seconds.',
  }),
);
