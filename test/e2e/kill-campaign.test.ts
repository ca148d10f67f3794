/**
 * The `kill -9` campaign (scripts/kill-campaign.ts) with a few kills, so CI runs it on every
 * change: the real CLI against a loopback server that rejects a broken tool-call pairing, killed
 * at random points of a multi-step run with tool calls, then resumed. The seed is printed (set
 * KILL_CAMPAIGN_SEED to replay one); `node scripts/kill-campaign.ts --kills 20` runs the full one.
 */
import { expect, it } from 'vitest';
import { campaignPassed, formatFigures, runKillCampaign } from '../../scripts/kill-campaign.ts';

const KILLS = 4;

it(`leaves no unreadable transcript, no failed resume and no tool effect without a record after ${KILLS} kill -9 at random points`, async () => {
  const seed = Number(process.env['KILL_CAMPAIGN_SEED'] ?? Math.floor(Math.random() * 2 ** 32));
  console.log(`kill campaign seed ${seed} (replay: KILL_CAMPAIGN_SEED=${seed})`);
  const figures = await runKillCampaign({ kills: KILLS, seed });
  const report = `${formatFigures(figures)}\n${figures.failures.join('\n')}`;
  expect(figures.kills, report).toBe(KILLS);
  expect(figures.transcriptsRead, report).toBeGreaterThanOrEqual(KILLS + 2);
  expect(figures.unreadableTranscripts, report).toBe(0);
  expect(figures.resumeFailures, report).toBe(0);
  expect(figures.effectsWithoutRecord, report).toBe(0);
  expect(figures.effectsWithoutResult, report).toBe(0);
  expect(figures.resultsWithoutEffect, report).toBe(0);
  expect(figures.effects, report).toBeGreaterThan(0);
  expect(campaignPassed(figures), report).toBe(true);
}, 180_000);
