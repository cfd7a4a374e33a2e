/**
 * `assay check`'s core: a draft's claims with the sources they cite (numbered references,
 * links), JSON Lines checked against their schema line by line, and one verdict per claim
 * over its sources, contradiction first.
 */
import { describe, expect, it } from "vitest";
import { englishLanguage } from "../../adapters/language/english-language.js";
import { checkClaim, parseClaimLines, parseDraft, passagesOf, type ReadSource } from "./claim-check.js";
import { createJudge } from "./judge.js";

const judge = createJudge(englishLanguage());
const source = (label: string, text: string): ReadSource => ({
  ok: true,
  label,
  title: "",
  passages: passagesOf(text),
});

describe("parseDraft", () => {
  it("reads sentences citing numbered references and links, their marks removed", () => {
    const { claims, problems } = parseDraft(
      "# Draft\n\nThe bridge opened in 1932 [1]. Nothing is cited here. It is painted green ([register](notes/register.md)). The arch spans 503 metres [1, 3].\n\n## References\n\n[1]: sources/bridge.md\n2. https://example.org/ignored\n",
    );
    expect(claims).toEqual([
      { id: "claim-1", claim: "The bridge opened in 1932.", sources: [{ kind: "path", path: "sources/bridge.md" }] },
      { id: "claim-2", claim: "It is painted green.", sources: [{ kind: "path", path: "notes/register.md" }] },
      { id: "claim-3", claim: "The arch spans 503 metres.", sources: [{ kind: "path", path: "sources/bridge.md" }] },
    ]);
    expect(problems).toEqual(["“The arch spans 503 metres [1, 3].” cites [3], which the reference list does not give"]);
  });
});

describe("parseClaimLines", () => {
  it("takes claims with text, path or URL sources, and names the lines that are not one", () => {
    const { claims, problems } = parseClaimLines(
      [
        JSON.stringify({
          id: "a",
          claim: "Hesby has 2150 residents.",
          sources: [{ text: "Hesby has 2,150 residents." }],
        }),
        "not json",
        JSON.stringify({ id: 7, claim: "X", sources: [{ url: "https://example.org/x" }, { path: "a.md" }] }),
        JSON.stringify({ id: "b", claim: "Y", sources: [] }),
      ].join("\n"),
    );
    expect(claims.map((claim) => [claim.id, claim.sources.map((s) => s.kind)])).toEqual([
      ["a", ["text"]],
      ["7", ["url", "path"]],
    ]);
    expect(problems[0]).toBe("line 2: not a JSON object");
    expect(problems[1]).toMatch(/^line 4: sources: /);
  });
});

describe("checkClaim", () => {
  const claim = { id: "c", claim: "The Fjell Tunnel is 4.2 km long.", sources: [] };
  it("is supported by a source that states it in other units", () => {
    const result = checkClaim(claim, [source("a.md", "The Fjell Tunnel is 2.6 miles long.")], judge);
    expect(result).toMatchObject({ verdict: "supported", quotes: [{ source: "a.md", stance: "supports" }] });
  });

  it("is contradicted when one source says otherwise, whatever another states", () => {
    const result = checkClaim(
      claim,
      [source("a.md", "The Fjell Tunnel is 2.6 miles long."), source("b.md", "The Fjell Tunnel is 6.1 km long.")],
      judge,
    );
    expect(result.verdict).toBe("contradicted");
    expect(result.quotes).toEqual([
      { source: "b.md", text: "The Fjell Tunnel is 6.1 km long.", stance: "contradicts" },
    ]);
  });

  it("is partly supported by a hedge, and not found where nothing is read", () => {
    expect(
      checkClaim(claim, [source("a.md", "Some surveys suggest that the Fjell Tunnel is 4.2 km long.")], judge).verdict,
    ).toBe("partial");
    const unread = checkClaim(claim, [{ ok: false, label: "gone.md", error: "no such document" }], judge);
    expect(unread).toMatchObject({ verdict: "not-found", unread: [{ source: "gone.md", error: "no such document" }] });
    expect(unread.reason).toContain("No source it cites could be read");
  });
});
