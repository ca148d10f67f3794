import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const STDOUT_MODULE = new URL('./stdout.ts', import.meta.url).href;

/** Runs `script` (an ES module) in a child with piped stdout; stdout is read only once the child says so on stderr. */
function runChild(
  script: string,
): Promise<{ stdout: Buffer; stderr: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const chunks: Buffer[] = [];
    let stderr = '';
    child.stdout.pause();
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes('queued')) child.stdout.resume();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      resolve({ stdout: Buffer.concat(chunks), stderr, code });
    });
  });
}

describe('writeStdout', () => {
  it('writes in order, whole, through a full non-blocking pipe nobody reads yet (EAGAIN: the rest goes through process.stdout)', async () => {
    // Touching process.stdout makes libuv set the pipe non-blocking: direct writes then fail with
    // EAGAIN once the pipe is full, which is what a descriptor left non-blocking by another
    // program does.
    const script = `
      const { writeStdout } = await import(${JSON.stringify(STDOUT_MODULE)});
      void process.stdout.isTTY;
      for (let line = 0; line < 20000; line++) writeStdout(line + ' ' + 'x'.repeat(200) + '\\n');
      process.stderr.write('queued');
    `;
    const { stdout, stderr, code } = await runChild(script);
    expect(stderr).toBe('queued');
    expect(code).toBe(0);
    const lines = stdout.toString().split('\n');
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(20000);
    lines.forEach((line, index) => {
      expect(line).toBe(`${index} ${'x'.repeat(200)}`);
    });
  });

  it('does not build process.stdout for a plain write', async () => {
    const script = `
      const { writeStdout } = await import(${JSON.stringify(STDOUT_MODULE)});
      writeStdout('hello\\n');
      const net = process.moduleLoadList.includes('NativeModule net');
      process.stderr.write(net ? 'net ' : '');
      process.stderr.write('queued');
    `;
    const { stdout, stderr, code } = await runChild(script);
    expect({ stdout: stdout.toString(), stderr, code }).toEqual({
      stdout: 'hello\n',
      stderr: 'queued',
      code: 0,
    });
  });
});
