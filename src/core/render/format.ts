/** Reader-facing formatting shared by both projections (pure). */

/** `2026-12-02T10:44:26.726Z` -> `2026-12-02 10:44 UTC`; anything else is returned as is. */
export function readableTime(iso: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(iso);
  return match ? `${match[1]} ${match[2]} UTC` : iso;
}

/** `[2: passage 3]`, `[2: passages 3, 5; 4: passage 1]`: reader-safe citation text. Pure. */
export function citationText(citations: readonly { number: number; passages: readonly number[] }[]): string {
  const parts = citations.map(
    (citation) =>
      `${citation.number}: passage${citation.passages.length > 1 ? "s" : ""} ${citation.passages.join(", ")}`,
  );
  return `[${parts.join("; ")}]`;
}

/** "finding 1", "findings 1 and 3", "findings 1, 2 and 4". */
export function findingList(numbers: readonly number[]): string {
  if (numbers.length === 1) return `finding ${numbers[0]}`;
  return `findings ${numbers.slice(0, -1).join(", ")} and ${numbers.at(-1)}`;
}
