/**
 * The disk-full campaign (scripts/disk-full-campaign.ts) with a few runs, so CI runs it on every
 * change: the built CLI on a project whose sessions live on a small tmpfs filled at a seeded
 * random point, 0 effects without their record and 0 runs reported `completed` that lost records;
 * each failed session resumes once space is freed. The seed is printed (set DISK_FULL_SEED to
 * replay one); `node scripts/disk-full-campaign.ts --runs 20` runs the full one. Root only (it
 * mounts a tmpfs): elsewhere it says SKIP and why.
 */
import { expect, it } from 'vitest';
import {
  diskFullCampaignPassed,
  formatDiskFullFigures,
  runDiskFullCampaign,
} from '../../scripts/disk-full-campaign.ts';

const RUNS = 5;

it(`loses no record on a full disk over ${RUNS} runs filled at random points`, async (context) => {
  const seed = Number(process.env['DISK_FULL_SEED'] ?? Math.floor(Math.random() * 2 ** 32));
  console.log(`disk-full campaign seed ${seed} (replay: DISK_FULL_SEED=${seed})`);
  const figures = await runDiskFullCampaign({ runs: RUNS, seed });
  if (typeof figures === 'string') {
    console.log(`SKIP disk-full campaign: ${figures}`);
    context.skip();
    return;
  }
  const report = `${formatDiskFullFigures(figures)}\n${figures.failures.join('\n')}`;
  expect(figures.runs, report).toBe(RUNS);
  expect(figures.effectsWithoutRecord, report).toBe(0);
  expect(figures.completedRunsThatLostRecords, report).toBe(0);
  expect(figures.unexplainedFailures, report).toBe(0);
  expect(figures.resumeFailures, report).toBe(0);
  expect(figures.effects, report).toBeGreaterThan(0);
  expect(diskFullCampaignPassed(figures), report).toBe(true);
}, 240_000);
