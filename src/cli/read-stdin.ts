/**
 * Reads standard input to its end as UTF-8 text. Used for `hookwire run` without a prompt
 * argument and `hookwire hooks fire --input -`; the caller decides whether a TTY is read.
 */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
