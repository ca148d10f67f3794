/** Commander's collector for repeatable options (`--settings A --settings B`), in order. */
export function collectRepeated(value: string, previous: readonly string[] | undefined): string[] {
  return [...(previous ?? []), value];
}
