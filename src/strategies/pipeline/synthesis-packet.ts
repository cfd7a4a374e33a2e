/** The pipeline's view of the closed catalog for its model steps. */

import { buildPacket, type Packet } from "../../core/synthesis/packet.js";
import { describeScope } from "../../host/publication.js";
import type { RunHost } from "../../host/run-host.js";
import type { PacketSource, SynthesisInput } from "../../ports/model.js";
import type { SearchCallRecord, SourceRecord } from "../../ports/store.js";

/**
 * The persisted sources in the order a search ranked them: those the bootstrap search listed
 * first, by its rank, then the others by the best rank any search gave them, then by identity.
 * Not in id order: ids follow when each read finished, which varies between identical runs, and
 * the packet's order decides what a model (or the offline engine's planner) reads first.
 */
export function readingOrder(sources: readonly SourceRecord[], calls: readonly SearchCallRecord[]): SourceRecord[] {
  const bootstrap = new Set(calls.filter((call) => call.origin === "bootstrap").map((call) => call.id));
  const key = (source: SourceRecord): [number, number, string] => {
    const ranks = (from: (queryId: string) => boolean): number =>
      Math.min(...source.provenance.filter((entry) => from(entry.queryId)).map((entry) => entry.rank), Infinity);
    const first = ranks((id) => bootstrap.has(id));
    return Number.isFinite(first) ? [0, first, source.canonicalAnchor] : [1, ranks(() => true), source.canonicalAnchor];
  };
  return sources
    .map((source) => ({ source, key: key(source) }))
    .sort(
      (a, b) => a.key[0] - b.key[0] || a.key[1] - b.key[1] || (a.key[2] < b.key[2] ? -1 : a.key[2] > b.key[2] ? 1 : 0),
    )
    .map(({ source }) => source);
}

const candidates = (host: RunHost) =>
  readingOrder(host.sources(), host.searchCalls()).map((source) => ({
    id: source.id,
    title: source.title,
    location: source.path ?? source.url ?? source.canonicalAnchor,
    chunks: source.chunks,
  }));

/** The packet for synthesis, within the run's packet budget. */
export function packetFor(host: RunHost): Packet {
  return buildPacket(host.question, candidates(host), host.request.budgets.maxPacketChars);
}

/** The persisted sources so far, bounded like a packet (for an extractive planner's feedback). */
export function packetSources(host: RunHost): readonly PacketSource[] {
  return packetFor(host).sources;
}

export function synthesisInput(host: RunHost, packet: Packet): SynthesisInput {
  const times = host
    .sources()
    .map((source) => source.capturedAt)
    .sort();
  return {
    question: host.question,
    language: host.request.language,
    scope: describeScope(host),
    boundary: `The sources were read between ${times[0] ?? "—"} and ${times.at(-1) ?? "—"}.`,
    sources: packet.sources,
    read: candidates(host),
  };
}
