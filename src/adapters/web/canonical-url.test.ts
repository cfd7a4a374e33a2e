import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalFor, isTrackingParameter, normalizeUrl, registrableDomain } from "./canonical-url.js";

const normalized = (input: string): string => {
  const result = normalizeUrl(input);
  if (!result.ok) throw new Error(result.error);
  return result.value;
};

describe("normalizeUrl", () => {
  it("lower-cases scheme and host, drops default ports, fragments and credentials", () => {
    expect(normalized("HTTPS://User:Secret@Example.COM:443/Path/Page#section")).toBe("https://example.com/Path/Page");
    expect(normalized("http://example.com:80")).toBe("http://example.com/");
    expect(normalized("http://example.com:8080/a")).toBe("http://example.com:8080/a");
    expect(normalized("https://example.com./a")).toBe("https://example.com/a");
  });

  it("removes tracking parameters, sorts the rest stably and drops an empty query", () => {
    expect(normalized("https://example.com/a?utm_source=x&b=2&UTM_Medium=y&a=1&gclid=z&fbclid=q&a=0#top")).toBe(
      "https://example.com/a?a=1&a=0&b=2",
    );
    expect(normalized("https://example.com/a?utm_campaign=x&_ga=1&msclkid=2&mc_cid=3&mc_eid=4&yclid=5&igshid=6")).toBe(
      "https://example.com/a",
    );
    expect(normalized("https://example.com/a?")).toBe("https://example.com/a");
    expect(normalized("https://example.com/search?q=lithium%20cells&page=2")).toBe(
      "https://example.com/search?page=2&q=lithium+cells",
    );
  });

  it("normalizes percent-encoding and IDNs through the WHATWG parser", () => {
    expect(normalized("https://example.com/a b/ü")).toBe("https://example.com/a%20b/%C3%BC");
    expect(normalized("https://bücher.example/")).toBe("https://xn--bcher-kva.example/");
    expect(normalized("http://[::1]:80/")).toBe("http://[::1]/");
  });

  it("accepts only http and https URLs", () => {
    for (const bad of ["ftp://example.com/", "file:///etc/passwd", "javascript:alert(1)", "not a url", "", "data:,x"]) {
      expect(normalizeUrl(bad).ok, bad).toBe(false);
    }
    expect(normalizeUrl("mailto:a@b.c")).toEqual({
      ok: false,
      error: 'unsupported scheme "mailto" (only http and https)',
    });
  });

  it("is idempotent and strips every utm_ parameter", () => {
    fc.assert(
      fc.property(
        fc.webUrl({ withQueryParameters: true, withFragments: true }),
        fc.string({ maxLength: 8 }),
        (url, value) => {
          const tracked = new URL(url);
          tracked.searchParams.append("utm_content", value);
          const once = normalized(tracked.href);
          expect(normalized(once)).toBe(once);
          expect(new URL(once).searchParams.has("utm_content")).toBe(false);
          expect(once).not.toContain("#");
        },
      ),
    );
  });
});

describe("isTrackingParameter", () => {
  it("knows tracking names and leaves content parameters alone", () => {
    for (const name of ["utm_source", "utm_anything", "gclid", "fbclid", "ref_src", "_ga", "mc_eid"]) {
      expect(isTrackingParameter(name), name).toBe(true);
    }
    // `ref` selects content on some sites (a git branch), so it is kept.
    for (const name of ["q", "id", "page", "reference", "utm", "v", "ref"])
      expect(isTrackingParameter(name), name).toBe(false);
  });
});

describe("registrableDomain", () => {
  it("is public-suffix aware", () => {
    expect(registrableDomain("https://news.bbc.co.uk/a")).toBe("bbc.co.uk");
    expect(registrableDomain("https://www.example.com/")).toBe("example.com");
    expect(registrableDomain("https://someone.github.io/x")).toBe("someone.github.io");
  });

  it("returns IPs and bare hosts as they are, '' for a non-URL", () => {
    expect(registrableDomain("http://127.0.0.1:8080/")).toBe("127.0.0.1");
    expect(registrableDomain("http://[2001:db8::1]/")).toBe("2001:db8::1");
    expect(registrableDomain("http://localhost/")).toBe("localhost");
    expect(registrableDomain("nope")).toBe("");
  });
});

describe("canonicalFor", () => {
  it("takes a same-site <link rel=canonical>, resolved against the final URL", () => {
    expect(canonicalFor("https://m.example.com/a?utm_source=x", "https://www.example.com/article#x")).toBe(
      "https://www.example.com/article",
    );
    expect(canonicalFor("https://example.com/a/b?id=1", "/story?id=1&utm_medium=rss")).toBe(
      "https://example.com/story?id=1",
    );
  });

  it("ignores a cross-site, non-http or broken canonical", () => {
    const final = "https://blog.example.com/post?b=1&a=2&fbclid=x";
    const clean = "https://blog.example.com/post?a=2&b=1";
    expect(canonicalFor(final)).toBe(clean);
    expect(canonicalFor(final, "https://attacker.example.net/post")).toBe(clean);
    expect(canonicalFor(final, "javascript:alert(1)")).toBe(clean);
    expect(canonicalFor(final, "http://[broken")).toBe(clean);
    expect(canonicalFor(final, "   ")).toBe(clean);
    expect(canonicalFor("https://alice.github.io/p", "https://bob.github.io/p")).toBe("https://alice.github.io/p");
  });
});
