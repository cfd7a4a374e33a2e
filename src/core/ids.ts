/**
 * Host-assigned identities (pure). A model or strategy never makes these up.
 * Sources: s_001; chunks: s_001.p01; search queries: sq_001.
 */
const pad = (n: number, width: number): string => String(n).padStart(width, "0");

export const sourceId = (n: number): string => `s_${pad(n, 3)}`;
export const chunkId = (source: string, n: number): string => `${source}.p${pad(n, 2)}`;
export const queryId = (n: number): string => `sq_${pad(n, 3)}`;

/** The number of an id made by one of the functions above, or undefined. */
export function idNumber(id: string): number | undefined {
  const match = /^(?:s|sq)_(\d+)$/.exec(id);
  return match ? Number(match[1]) : undefined;
}
