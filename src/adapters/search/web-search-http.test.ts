/**
 * The shared HTTP exchange with an injected fetch: deadlines, network failures, long
 * Retry-After values, oversized bodies, and the pure status reading.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ExternalServiceError, UserError } from "../../core/errors.js";
import { createWebClient, redact, retryAfterMs, statusFailure, type WebRequest } from "./web-search-http.js";

const request: WebRequest = {
  url: new URL("https://search.example/api"),
  method: "GET",
  headers: {},
  redirect: "manual",
};
const reading = { schema: z.object({ ok: z.literal(true) }) };

/** A fetch answering with `steps` in turn and counting calls. */
function scriptedFetch(steps: ((init: RequestInit | undefined) => Promise<Response>)[]) {
  const calls: (RequestInit | undefined)[] = [];
  const fetch: typeof globalThis.fetch = (_input, init) => {
    calls.push(init);
    const step = steps.shift();
    if (!step) throw new Error("unexpected request");
    return step(init);
  };
  return { fetch, calls };
}

const json =
  (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  () =>
    Promise.resolve(new Response(JSON.stringify(body), { status, headers }));
const refused = () => Promise.reject(new TypeError("fetch failed", { cause: new Error("connect ECONNREFUSED") }));
const hang = (init: RequestInit | undefined) =>
  new Promise<Response>((_resolve, reject) =>
    init?.signal?.addEventListener("abort", () => reject(init.signal?.reason)),
  );

describe("createWebClient", () => {
  it("retries a network failure and succeeds", async () => {
    const { fetch, calls } = scriptedFetch([refused, json({ ok: true })]);
    const client = createWebClient("Example", { fetch, retryBaseDelayMs: 1 }, []);
    expect(await client.get(request, reading)).toEqual({ ok: true });
    expect(calls).toHaveLength(2);
  });

  it("does not retry a host name that does not resolve", async () => {
    const unresolved = () => {
      throw new TypeError("fetch failed", {
        cause: Object.assign(new Error("getaddrinfo ENOTFOUND x.invalid"), { code: "ENOTFOUND" }),
      });
    };
    const { fetch, calls } = scriptedFetch([unresolved, json({ ok: true })]);
    const failure = await createWebClient("Example", { fetch, retryBaseDelayMs: 1 }, [])
      .get(request, reading)
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ isRetryable: false, message: expect.stringContaining("ENOTFOUND") });
    expect(calls).toHaveLength(1);
  });

  it("gives up after maxRetries with a retryable error naming the cause", async () => {
    const { fetch, calls } = scriptedFetch([refused, refused]);
    const client = createWebClient("Example", { fetch, maxRetries: 1, retryBaseDelayMs: 1 }, []);
    const failure = await client.get(request, reading).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ExternalServiceError);
    expect(failure).toMatchObject({ isRetryable: true, message: expect.stringContaining("ECONNREFUSED") });
    expect(calls).toHaveLength(2);
  });

  it("fails with a timeout when the server does not answer", async () => {
    const { fetch } = scriptedFetch([hang]);
    const client = createWebClient("Example", { fetch, timeoutMs: 50 }, []);
    const failure = await client.get(request, reading).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ExternalServiceError);
    expect(failure).toMatchObject({ isRetryable: true, message: "Example did not answer within 50 ms" });
  });

  it("rejects with the caller's reason when it aborts during a backoff", async () => {
    const { fetch } = scriptedFetch([json({}, 503)]);
    const client = createWebClient("Example", { fetch, retryBaseDelayMs: 5_000 }, []);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("stopped")), 20);
    await expect(client.get(request, reading, controller.signal)).rejects.toThrow("stopped");
  });

  // Waiting the 60 s asked for would overrun the test's limit (a guard, not the assertion).
  it("does not wait for a Retry-After above 10 s and says how long the provider asks", async () => {
    const { fetch, calls } = scriptedFetch([json({}, 429, { "retry-after": "60" })]);
    const client = createWebClient("Example", { fetch }, []);
    await expect(client.get(request, reading)).rejects.toThrow("Example answered HTTP 429; it asks to wait 60 s");
    expect(calls).toHaveLength(1);
  }, 20_000);

  it("does not retry when maxRetries is 0", async () => {
    const { fetch, calls } = scriptedFetch([json({}, 500)]);
    const client = createWebClient("Example", { fetch, maxRetries: 0 }, []);
    await expect(client.get(request, reading)).rejects.toMatchObject({ isRetryable: true });
    expect(calls).toHaveLength(1);
  });

  it("refuses a body over 5 MB", async () => {
    const big = () => Promise.resolve(new Response("x".repeat(5_000_001)));
    const client = createWebClient("Example", { fetch: scriptedFetch([big]).fetch }, []);
    await expect(client.get(request, reading)).rejects.toThrow(/larger than 5000000 bytes/);
  });

  it("sends the method, headers, body and redirect mode", async () => {
    const { fetch, calls } = scriptedFetch([json({ ok: true })]);
    const post: WebRequest = { ...request, method: "POST", headers: { "x-api-key": "k" }, body: "{}" };
    await createWebClient("Example", { fetch }, []).get(post, reading);
    expect(calls[0]).toMatchObject({ method: "POST", headers: { "x-api-key": "k" }, body: "{}", redirect: "manual" });
  });
});

describe("statusFailure", () => {
  const none = new Headers();
  it("never retries 400, 401, 403 or 404, and blames the key on 401 and 403", () => {
    for (const status of [400, 404, 422]) expect(statusFailure("X", status, {}, none).retryable).toBe(false);
    for (const status of [401, 403]) {
      expect(statusFailure("X", status, {}, none)).toMatchObject({ retryable: false, userFault: true });
      expect(statusFailure("X", status, {}, none).message).toContain("the API key is missing or wrong");
      // A provider without a key has refused this client: neither a key to blame nor the user's fault.
      const keyless = statusFailure("X", status, {}, none, false);
      expect(keyless).toEqual({ message: `X refused the request (HTTP ${status})`, retryable: false });
    }
  });

  it("retries 408, 429 and 5xx, with a 503's Retry-After", () => {
    for (const status of [408, 429, 500, 502]) expect(statusFailure("X", status, {}, none).retryable).toBe(true);
    expect(statusFailure("X", 503, { text: "busy" }, new Headers({ "retry-after": "2" }))).toEqual({
      message: "X answered HTTP 503: busy",
      retryable: true,
      retryAfterMs: 2_000,
    });
  });
});

describe("retryAfterMs and redact", () => {
  it("reads seconds and HTTP dates", () => {
    const now = Date.parse("2026-01-15T09:00:00Z");
    expect(retryAfterMs("1", now)).toBe(1_000);
    expect(retryAfterMs("Thu, 15 Jan 2026 09:00:03 GMT", now)).toBe(3_000);
    expect(retryAfterMs("soon", now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });

  it("replaces secrets and keeps one bounded line", () => {
    expect(redact("bad key sk-123456\n  again sk-123456", ["sk-123456"])).toBe("bad key [redacted] again [redacted]");
    expect(redact("x".repeat(500), []).length).toBe(300);
  });

  it("turns a user-fault status into a UserError: a 401 to a client with a key, not to a keyless one", async () => {
    const keyed = scriptedFetch([json({}, 401)]);
    await expect(
      createWebClient("Example", { fetch: keyed.fetch }, ["sk-key-1234"]).get(request, reading),
    ).rejects.toBeInstanceOf(UserError);
    const keyless = scriptedFetch([json({}, 401)]);
    await expect(createWebClient("Example", { fetch: keyless.fetch }, []).get(request, reading)).rejects.toBeInstanceOf(
      ExternalServiceError,
    );
  });
});
