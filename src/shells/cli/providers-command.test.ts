/**
 * `assay providers` in a child process: keyed providers are usable only with their key set,
 * SearXNG only when the instance answers (a loopback stand-in, then a closed port), and the
 * auto line says what `--search auto` would pick.
 */
import { afterEach, describe, expect, it } from "vitest";
import { runCli } from "../../testing/cli.js";
import { type Loopback, startLoopback } from "../../testing/loopback-http.js";
import { tempDir } from "../../testing/temp-dir.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

interface Status {
  providers: { provider: string; usable: boolean; detail: string }[];
  auto: string;
}

describe("assay providers", () => {
  it("lists each provider as usable or not and why, and what auto picks", async () => {
    const dir = tempDir("assay-providers-");
    cleanups.push(dir.cleanup);
    const searxng: Loopback = await startLoopback([{ body: { query: "assay", results: [] } }]);
    cleanups.push(() => searxng.close());
    const env = { TAVILY_API_KEY: "tvly-secret-123456", BRAVE_API_KEY: "", SERPER_API_KEY: "" };
    const found = await runCli(["providers", "--json", "--searxng", searxng.baseUrl], { home: dir.path, env });
    expect(found.code, found.stderr).toBe(0);
    const status = JSON.parse(found.stdout) as Status;
    const of = (name: string) => status.providers.find((item) => item.provider === name);
    expect(of("searxng")).toMatchObject({ usable: true, detail: `the instance at ${searxng.baseUrl} answered` });
    expect(of("tavily")).toEqual({ provider: "tavily", name: "Tavily", usable: true, detail: "TAVILY_API_KEY is set" });
    expect(of("brave")).toMatchObject({ usable: false, detail: "needs BRAVE_API_KEY (not set)" });
    for (const name of ["duckduckgo", "wikipedia", "arxiv", "openalex", "pubmed"]) expect(of(name)?.usable).toBe(true);
    expect(status.auto).toBe(`auto uses SearXNG at ${searxng.baseUrl}`);
    expect(found.stdout).not.toContain("tvly-secret-123456");

    const none = await runCli(["providers", "--searxng", "http://127.0.0.1:9"], { home: dir.path, env });
    expect(none.code, none.stderr).toBe(0);
    expect(none.stdout).toMatch(/^searxng +missing +the instance at http:\/\/127\.0\.0\.1:9 did not answer/m);
    expect(none.stdout).toMatch(
      /^auto uses DuckDuckGo and Wikipedia \(SearXNG at http:\/\/127\.0\.0\.1:9 did not answer\)\.$/m,
    );
  });
});
