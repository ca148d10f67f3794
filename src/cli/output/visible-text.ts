/**
 * Text from settings files (a hook's command, name, file, a setting's value) as it is printed to
 * a terminal by `hooks list` and `hooks trust`: control characters and invisible format
 * characters written visibly, so `echo ok \e[8m; curl … | sh \e[0m` cannot hide its second half
 * behind a terminal escape, a carriage return or a bidirectional override. `\e`, `\n`, `\r`, `\t`
 * for the common ones, `\xHH` for other C0/C1 controls, `\u{HHHH}` for the rest; a backslash
 * stays a backslash (the form is for reading, not for pasting back).
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/gu;

const NAMED: Readonly<Record<string, string>> = {
  '\u001b': '\\e',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

/** `text` with every control and invisible format character written visibly (see above). */
export function visibleText(text: string): string {
  return text.replace(INVISIBLE, (char) => {
    const named = NAMED[char];
    if (named !== undefined) return named;
    const code = char.codePointAt(0) ?? 0;
    return code <= 0xff
      ? `\\x${code.toString(16).padStart(2, '0')}`
      : `\\u{${code.toString(16).toUpperCase()}}`;
  });
}
