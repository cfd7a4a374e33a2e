/**
 * The synthesis packet: the closed catalog of persisted sources, with the passages that fit
 * the packet budget (pure). Passages are taken by relevance, one source at a time in turn,
 * so every source gets its best passage before any source gets a second one. A passage's
 * relevance counts the headings it stands under (its location), so on a page longer than the
 * packet the sections whose headings match the question are chosen first.
 */
import { passageScore } from "../report/excerpts.js";
import { keyTerms } from "../text.js";

/** A stored chunk as a packet, a loop page and core/answer read it: its text and the headings it stands under (`section`, the chunk's `location`). */
export const passageOf = (chunk: { id: string; text: string; location?: string | undefined }) => ({
  id: chunk.id,
  text: chunk.text,
  ...(chunk.location ? { section: chunk.location } : {}),
});

export interface PacketCandidate {
  id: string;
  title: string;
  location: string;
  chunks: readonly { id: string; seq: number; text: string; location?: string }[];
}

export interface Packet {
  sources: {
    id: string;
    title: string;
    location: string;
    /** `section`: where the passage stands in its document ("Exceptions › json.JSONDecodeError"), when it says. */
    chunks: { id: string; text: string; section?: string }[];
  }[];
  /** Characters of passage text in the packet. */
  chars: number;
  /** Passages left out for lack of room, per source id. */
  omitted: { sourceId: string; chunks: number }[];
}

export function buildPacket(question: string, candidates: readonly PacketCandidate[], maxChars: number): Packet {
  const terms = keyTerms(question);
  const queues = candidates.map((source) =>
    [...source.chunks]
      .map((chunk) => ({ chunk, score: passageScore(terms, chunk) }))
      .sort((a, b) => b.score - a.score || a.chunk.seq - b.chunk.seq)
      .map((entry) => entry.chunk),
  );
  const chosen = candidates.map(() => [] as PacketCandidate["chunks"][number][]);
  let chars = 0;
  let added = true;
  while (added) {
    added = false;
    queues.forEach((queue, index) => {
      const next = queue[0];
      if (!next) return;
      if (chars + next.text.length > maxChars) {
        // Too long for the room left: try this source's shorter passages in later rounds.
        const fitting = queue.findIndex((chunk) => chars + chunk.text.length <= maxChars);
        if (fitting < 0) return;
        const [chunk] = queue.splice(fitting, 1);
        if (chunk) {
          chosen[index]?.push(chunk);
          chars += chunk.text.length;
          added = true;
        }
        return;
      }
      queue.shift();
      chosen[index]?.push(next);
      chars += next.text.length;
      added = true;
    });
  }
  const sources: Packet["sources"] = [];
  const omitted: Packet["omitted"] = [];
  candidates.forEach((source, index) => {
    const picked = (chosen[index] ?? []).sort((a, b) => a.seq - b.seq);
    const left = source.chunks.length - picked.length;
    if (left > 0) omitted.push({ sourceId: source.id, chunks: left });
    if (picked.length > 0) {
      sources.push({
        id: source.id,
        title: source.title,
        location: source.location,
        chunks: picked.map(passageOf),
      });
    }
  });
  return { sources, chars, omitted };
}
