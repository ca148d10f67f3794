/**
 * Reading a transcript back streams it line by line (issue 27): a line over the cap per record is
 * skipped with a warning naming it, never read into one string (a 512 MiB transcript used to end
 * in `RangeError: Invalid string length`); a large file reads whole, records cut across the
 * reader's chunks (multi-byte characters included) intact.
 */
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { readTranscript, type TranscriptRecord } from '../../src/loop/index.ts';
import { testTempDir } from '../support/temp-dir.ts';

const report = (text: string): TranscriptRecord => ({
  type: 'hook-report',
  report: { level: 'message', text },
  time: '2026-12-02T00:00:00.000Z',
});

/** Writes `records` (and raw lines) as a JSONL file, one write each. */
async function writeLines(path: string, lines: readonly (TranscriptRecord | string)[]) {
  const handle = await open(path, 'w');
  try {
    for (const line of lines)
      await handle.write(`${typeof line === 'string' ? line : JSON.stringify(line)}\n`);
  } finally {
    await handle.close();
  }
}

it('skips a record over the cap with a warning naming its line and size, and reads the records after it', async () => {
  const path = join(await testTempDir('transcript-read'), 'big-line.jsonl');
  const huge = report('x'.repeat(3 * 1024 * 1024));
  await writeLines(path, [report('before'), huge, report('after')]);
  const contents = await readTranscript(path, { maxRecordBytes: 1024 * 1024 });
  expect(contents.records).toEqual([report('before'), report('after')]);
  const size = JSON.stringify(huge).length;
  expect(contents.warnings).toEqual([
    `${path}:2: skipped a record of ${size} bytes, over the 1048576 bytes a record may have; the session continues without it`,
  ]);
  // Under the default cap (64 MiB) the same record reads.
  expect((await readTranscript(path)).records).toHaveLength(3);
});

it('reads a large transcript whole, records and multi-byte characters cut across its read chunks intact', async () => {
  const path = join(await testTempDir('transcript-read'), 'large.jsonl');
  // ~24 MiB: records of varied sizes (so that lines straddle the 1 MiB chunks at every offset),
  // holding two-, three- and four-byte characters.
  const records: TranscriptRecord[] = [];
  for (let index = 0; index < 3000; index++)
    records.push(report(`${index} ${'é€😀'.repeat(100 + ((index * 7919) % 1500))}`));
  await writeLines(path, records);
  const contents = await readTranscript(path);
  expect(contents.warnings).toEqual([]);
  expect(contents.records).toHaveLength(records.length);
  expect(contents.records).toEqual(records);
});

it('reads a last line cut short as a warning, as before', async () => {
  const path = join(await testTempDir('transcript-read'), 'cut.jsonl');
  await writeLines(path, [report('whole')]);
  const handle = await open(path, 'a');
  await handle.write('{"type":"hook-rep');
  await handle.close();
  const contents = await readTranscript(path);
  expect(contents.records).toEqual([report('whole')]);
  expect(contents.warnings).toEqual([
    `${path}:2: skipped a truncated last line (17 characters); the session continues from the records before it`,
  ]);
});
