/** The pipeline's view of the closed catalog for its model steps. */

import { buildPacket, type Packet } from "../../core/synthesis/packet.js";
import { describeScope } from "../../host/publication.js";
import type { RunHost } from "../../host/run-host.js";
import type { PacketSource, SynthesisInput } from "../../ports/model.js";

const candidates = (host: RunHost) =>
  host.sources().map((source) => ({
    id: source.id,
    title: source.title,
    location: source.path ?? source.url ?? source.canonicalAnchor,
    chunks: source.chunks,
  }));

/** The packet for synthesis, within the run's packet budget. */
export function packetFor(host: RunHost): Packet {
  return buildPacket(host.request.question, candidates(host), host.request.budgets.maxPacketChars);
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
    question: host.request.question,
    language: host.request.language,
    scope: describeScope(host),
    boundary: `The sources were read between ${times[0] ?? "—"} and ${times.at(-1) ?? "—"}.`,
    sources: packet.sources,
    read: candidates(host),
  };
}
