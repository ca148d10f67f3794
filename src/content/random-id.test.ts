import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { randomBytes, randomHex, randomUUID } from './random-id.ts';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('randomUUID', () => {
  it('gives version-4 UUIDs in the form crypto.randomUUID gives, none repeated', () => {
    const ids = Array.from({ length: 5000 }, () => randomUUID());
    for (const id of ids) expect(id).toMatch(UUID_V4);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('uses every hex digit at every free position (the bytes are random, not a counter)', () => {
    const seen = Array.from({ length: 32 }, () => new Set<string>());
    for (let i = 0; i < 2000; i++) {
      const hex = randomUUID().replaceAll('-', '');
      for (let at = 0; at < hex.length; at++) seen[at]?.add(hex.charAt(at));
    }
    seen.forEach((digits, at) => {
      if (at === 12) expect([...digits]).toEqual(['4']);
      else if (at === 16) expect([...digits].sort()).toEqual(['8', '9', 'a', 'b']);
      else expect(digits.size).toBe(16);
    });
  });
});

describe('randomBytes and randomHex', () => {
  it('hand out fresh bytes of the asked length, also past the pool and beyond its size', () => {
    const chunks = Array.from({ length: 100 }, () => randomBytes(24));
    for (const chunk of chunks) expect(chunk).toHaveLength(24);
    expect(new Set(chunks.map((chunk) => chunk.toString('hex'))).size).toBe(100);
    const big = randomBytes(4096);
    expect(big).toHaveLength(4096);
    expect(new Set(big).size).toBeGreaterThan(200);
    expect(randomHex(6)).toMatch(/^[0-9a-f]{12}$/);
  });

  it('a handed-out buffer is the caller’s own: writing it changes no later id', () => {
    const first = randomBytes(16);
    first.fill(0);
    expect(randomBytes(16).equals(Buffer.alloc(16))).toBe(false);
  });
});

describe('where /dev/urandom cannot be read', () => {
  // Scripts run from files: `node -e` itself loads node:crypto.
  const directory = mkdtempSync(join(tmpdir(), 'hookwire-random-id-'));
  afterAll(() => {
    rmSync(directory, { recursive: true, force: true });
  });
  const runScript = (name: string, script: string) => {
    const file = join(directory, name);
    writeFileSync(file, script);
    return spawnSync(process.execPath, [file], { encoding: 'utf8' });
  };

  it('falls back to node:crypto and still gives valid, distinct ids', () => {
    // A child process whose fs.openSync refuses the device: the module must fall back, not throw.
    const script = `
      const fs = require('node:fs');
      const open = fs.openSync;
      fs.openSync = (path, ...rest) => {
        if (path === '/dev/urandom') throw Object.assign(new Error('EACCES'), { code: 'EACCES' });
        return open(path, ...rest);
      };
      import(${JSON.stringify(new URL('./random-id.ts', import.meta.url).href)}).then((m) => {
        const ids = [m.randomUUID(), m.randomUUID(), m.randomHex(600)];
        console.log(JSON.stringify({ ids, crypto: process.moduleLoadList.includes('NativeModule crypto') }));
      });
    `;
    const child = runScript('fallback.cjs', script);
    expect(child.stderr).toBe('');
    const { ids, crypto } = JSON.parse(child.stdout) as { ids: string[]; crypto: boolean };
    expect(ids[0]).toMatch(UUID_V4);
    expect(ids[1]).toMatch(UUID_V4);
    expect(ids[0]).not.toBe(ids[1]);
    expect(ids[2]).toMatch(/^[0-9a-f]{1200}$/);
    expect(crypto).toBe(true);
  });

  it('does not load node:crypto when the device is there', () => {
    const script = `
      import(${JSON.stringify(new URL('./random-id.ts', import.meta.url).href)}).then((m) => {
        m.randomUUID(); m.randomHex(6); m.randomBytes(2048);
        console.log(process.moduleLoadList.includes('NativeModule crypto'));
      });
    `;
    const child = runScript('device.mjs', script);
    expect(child.stderr).toBe('');
    expect(child.stdout.trim()).toBe('false');
  });
});
