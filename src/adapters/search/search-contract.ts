/**
 * The contract every web SearchProvider passes, against a loopback HTTP server that speaks
 * the provider's wire format. Run it from a provider's test file with a subject that builds
 * the provider for a base URL and writes a successful reply in that provider's format.
 * Providers that build their anchors from ids or titles say which anchor each result gets
 * (`anchorFor`); those whose search takes several requests give one reply for each.
 */
import { afterEach, describe, expect, it } from "vitest";
import { ExternalServiceError } from "../../core/errors.js";
import type { SearchProvider } from "../../ports/search-provider.js";
import { type Loopback, NEVER_MS, type ScriptedReply, startLoopback } from "../../testing/loopback-http.js";
import { until } from "../../testing/until.js";

export interface ContractResult {
  url: string;
  title: string;
  snippet: string;
}

export interface SearchContractSubject {
  /** The provider under test, pointed at `baseUrl`, with `apiKey` as its key and short backoffs. */
  create(settings: { baseUrl: string; apiKey: string }): SearchProvider;
  /**
   * A successful reply in the provider's wire format listing `results` in order; with
   * `requestsPerSearch` above 1, the replies to a search's requests, in order.
   */
  reply(results: readonly ContractResult[]): ScriptedReply | unknown;
  /**
   * The anchor the provider gives `result`, or undefined when it drops it. Default: the URL,
   * when it is http(s). Providers that anchor at an id read it with `contractPage(result.url)`.
   */
  anchorFor?: (result: ContractResult, baseUrl: string) => string | undefined;
  /** How many requests a successful search makes (PubMed: ESearch, then ESummary). Default 1. */
  requestsPerSearch?: number;
  /**
   * Two malformed replies (a body that does not parse, then one of another shape) and what
   * the failures say (one pattern for both, or one each); JSON providers leave the default
   * (`<html>not json`, then `{unexpected}`).
   */
  malformed?: { replies: [ScriptedReply, ScriptedReply]; message: RegExp | [RegExp, RegExp] };
}

/** A subject's replies to one search as scripted ones: JSON bodies as `body`, XML and HTML ones as given. */
function scripted(subject: SearchContractSubject, results: readonly ContractResult[]): ScriptedReply[] {
  const reply = subject.reply(results);
  const replies = (subject.requestsPerSearch ?? 1) > 1 ? (reply as unknown[]) : [reply];
  return replies.map((one) => (isScriptedText(one) ? one : { body: one }));
}

/** A reply already written as text (`{ raw, headers }`), as the XML and HTML providers give theirs. */
export function textReply(raw: string, contentType: string): ScriptedReply {
  return { raw, headers: { "content-type": contentType } };
}

const isScriptedText = (value: unknown): value is ScriptedReply =>
  typeof value === "object" && value !== null && "raw" in value && typeof (value as { raw: unknown }).raw === "string";

export const CONTRACT_KEY = "sk-contract-9f3b2a7c1d5e";

const result = (index: number, url = `https://example.org/page-${index}`, title = `Page ${index}`): ContractResult => ({
  url,
  title,
  snippet: `Snippet of page ${index}.`,
});

/**
 * The page number an http(s) URL of the contract carries (`…/page-3…` is 3): equal for equal
 * URLs, different for different ones; undefined for one that is not http(s). Providers that
 * anchor at ids list a result under an id made from it, and one without it under an id they drop.
 */
export function contractPage(url: string): number | undefined {
  const match = /^https?:\/\/[^/]+\/page-(\d+)/.exec(url);
  return match ? Number(match[1]) : undefined;
}

const webUrl = (result: ContractResult): string | undefined =>
  /^https?:\/\//.test(result.url) ? result.url : undefined;

export function runSearchContract(name: string, subject: SearchContractSubject): void {
  describe(`SearchProvider contract: ${name}`, () => {
    const servers: Loopback[] = [];
    afterEach(async () => {
      await Promise.all(servers.splice(0).map((server) => server.close()));
    });
    const serve = async (replies: ScriptedReply[]) => {
      const server = await startLoopback(replies);
      servers.push(server);
      return { server, provider: subject.create({ baseUrl: server.baseUrl, apiKey: CONTRACT_KEY }) };
    };
    const text = { kind: "text", text: "lithium iron phosphate cycle life" } as const;
    const requests = subject.requestsPerSearch ?? 1;

    it("ranks hits 1..n, drops results without a usable anchor and keeps the first of each anchor", async () => {
      const results = [
        result(1),
        result(2, "ftp://example.org/file.txt"),
        result(3, "http://example.net/page-3?b=c"),
        result(4, "https://example.org/page-1"),
        result(5, "javascript:alert(1)"),
        result(6),
        // Another address with the title of the one before: kept where anchors are URLs, not where they are titles.
        result(7, "https://example.org/page-7", "Page 6"),
      ];
      const { server, provider } = await serve(scripted(subject, results));
      const hits = await provider.search(text, { limit: 10 });
      const anchors = results.map((one) => (subject.anchorFor ?? webUrl)(one, server.baseUrl));
      const expected = [...new Set(anchors.filter((anchor) => anchor !== undefined))];
      // Whatever builds the anchors, some results are left without one or share one, and several keep theirs.
      expect(expected.length).toBeGreaterThanOrEqual(3);
      expect(expected.length).toBeLessThan(results.length);
      expect(hits.map((hit) => hit.anchor)).toEqual(expected);
      expect(hits.map((hit) => hit.rank)).toEqual(expected.map((_, index) => index + 1));
      expect(hits[0]).toMatchObject({ title: "Page 1", snippet: "Snippet of page 1." });
      for (const hit of hits) expect(Number.isFinite(hit.score)).toBe(true);
      expect(server.seen).toHaveLength(requests);
    });

    it("returns at most `limit` hits", async () => {
      const { server, provider } = await serve(
        scripted(
          subject,
          [1, 2, 3, 4, 5].map((index) => result(index)),
        ),
      );
      const hits = await provider.search(text, { limit: 3 });
      expect(hits.map((hit) => hit.rank)).toEqual([1, 2, 3]);
      expect(server.seen).toHaveLength(requests);
    });

    it("rejects when the signal is already aborted, without a request", async () => {
      const { server, provider } = await serve(scripted(subject, [result(1)]));
      const controller = new AbortController();
      controller.abort(new Error("cancelled by the caller"));
      await expect(provider.search(text, { limit: 5, signal: controller.signal })).rejects.toThrow(
        "cancelled by the caller",
      );
      expect(server.seen).toHaveLength(0);
    });

    it("rejects when the signal aborts during any of its requests, without waiting for the reply", async () => {
      for (let pending = 0; pending < requests; pending += 1) {
        // That reply never comes while the test runs; the abort is sent once the server has the request.
        const replies = scripted(subject, [result(1)]).map((reply, index) =>
          index === pending ? { ...reply, delayMs: NEVER_MS } : reply,
        );
        const { server, provider } = await serve(replies);
        const controller = new AbortController();
        const searched = provider.search(text, { limit: 5, signal: controller.signal });
        await until(() => server.seen.length === pending + 1, 10_000, `request ${pending + 1} to reach the server`);
        controller.abort(new Error("deadline"));
        await expect(searched).rejects.toThrow("deadline");
        expect(server.seen).toHaveLength(pending + 1);
      }
    });

    it("retries an HTTP 500 on each of its requests and succeeds", async () => {
      const { server, provider } = await serve(
        scripted(subject, [result(1)]).flatMap((reply, index) => [
          index === 0
            ? { status: 500, body: { error: "internal error" } }
            : { status: 500, raw: "<html>Internal Server Error</html>" },
          reply,
        ]),
      );
      const hits = await provider.search(text, { limit: 5 });
      expect(hits).toHaveLength(1);
      expect(server.seen).toHaveLength(2 * requests);
    });

    it("waits for a 429's Retry-After, then retries", async () => {
      const { server, provider } = await serve([
        { status: 429, body: { error: "too many requests" }, headers: { "retry-after": "1" } },
        ...scripted(subject, [result(1)]),
      ]);
      const started = Date.now();
      const hits = await provider.search(text, { limit: 5 });
      expect(Date.now() - started).toBeGreaterThanOrEqual(950);
      expect(hits).toHaveLength(1);
      expect(server.seen).toHaveLength(requests + 1);
    });

    it("fails on a 401 without retrying, and the message does not carry the key", async () => {
      const { server, provider } = await serve([
        { status: 401, body: { message: `invalid key ${CONTRACT_KEY}`, error: `invalid key ${CONTRACT_KEY}` } },
      ]);
      const failure = await provider.search(text, { limit: 5 }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(Error);
      expect(String(failure)).toContain("401");
      expect(String(failure)).not.toContain(CONTRACT_KEY);
      expect(server.seen).toHaveLength(1);
    });

    it("fails with ExternalServiceError on a body that does not parse, and on one of another shape", async () => {
      const malformed = subject.malformed ?? {
        replies: [{ raw: "<html>not json" }, { body: { unexpected: true } }],
        message: [/answered with a body that is not JSON/, /answered with JSON of an unexpected shape/],
      };
      const messages = Array.isArray(malformed.message) ? malformed.message : [malformed.message, malformed.message];
      const { server, provider } = await serve([...malformed.replies]);
      for (const message of messages) {
        const failure = provider.search(text, { limit: 5 });
        await expect(failure).rejects.toBeInstanceOf(ExternalServiceError);
        await expect(failure).rejects.toThrow(message);
      }
      expect(server.seen).toHaveLength(2);
    });

    it("refuses pattern queries and empty text in checkQuery", async () => {
      const { server, provider } = await serve([]);
      expect(provider.checkQuery({ kind: "pattern", pattern: "LiFePO4|LFP" })).toBe(
        "pattern queries need a local corpus scope",
      );
      expect(provider.checkQuery({ kind: "text", text: "   " })).toBe("the query is empty");
      expect(provider.checkQuery(text)).toBeUndefined();
      await expect(provider.search({ kind: "pattern", pattern: "LFP" }, { limit: 5 })).rejects.toThrow(
        "pattern queries need a local corpus scope",
      );
      expect(server.seen).toHaveLength(0);
    });
  });
}

/**
 * Registers cleanup for the loopback servers a describe block starts, and returns the
 * function that starts one with the given replies.
 */
export function loopbackServers(): (...replies: ScriptedReply[]) => Promise<Loopback> {
  const servers: Loopback[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
  return async (...replies) => {
    const server = await startLoopback(replies);
    servers.push(server);
    return server;
  };
}
