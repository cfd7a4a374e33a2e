/**
 * The pipeline strategy (seed 004): bootstrap search with the complete request, the
 * reserved part of the source budget fetched at once, a preliminary source-backed report,
 * then the remaining source budget spent on the ranked bootstrap catalog.
 */
import { acquireAll, candidatesOf, search } from "../../host/acquisition.js";
import { buildFromPersisted, publish } from "../../host/publication.js";
import type { RunHost } from "../../host/run-host.js";
import type { Strategy } from "../strategy.js";

export const pipelineStrategy: Strategy = {
  name: "pipeline",
  async run(host: RunHost): Promise<void> {
    await host.stage("bootstrap");
    const previous = host.searchCalls().find((call) => call.origin === "bootstrap" && call.status === "ok");
    const bootstrap = previous ?? (await search(host, { kind: "text", text: host.request.question }, "bootstrap"));
    if (bootstrap === undefined || bootstrap.status !== "ok") return;
    const candidates = candidatesOf(bootstrap);

    const reserve = Math.max(0, host.request.budgets.bootstrapSources - host.sources().length);
    if (reserve > 0) await acquireAll(host, candidates, { wantSources: reserve });
    if (host.sources().length > 0 && !host.signal.aborted) {
      await publish(host, await buildFromPersisted(host, "preliminary"), "preliminary");
    }

    await host.stage("acquisition");
    await acquireAll(host, candidates);
  },
};
