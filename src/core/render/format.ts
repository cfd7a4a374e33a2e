/** Reader-facing formatting shared by both projections (pure). */

/** `2026-12-02T10:44:26.726Z` -> `2026-12-02 10:44 UTC`; anything else is returned as is. */
export function readableTime(iso: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(iso);
  return match ? `${match[1]} ${match[2]} UTC` : iso;
}
