/** A full-text query, or a pattern (linear-time regex) over documents under an optional path prefix. */
export type SearchQuery = { kind: "text"; text: string } | { kind: "pattern"; pattern: string; pathPrefix?: string };
