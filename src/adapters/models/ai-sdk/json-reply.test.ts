import { describe, expect, it } from "vitest";
import { plannerOutputSchema } from "../../../core/synthesis/proposals.js";
import { dropNullProperties, extractJsonObject, parseReply, safeParseJson } from "./json-reply.js";

describe("safeParseJson", () => {
  it("returns a Result instead of throwing", () => {
    expect(safeParseJson('{"a":1}')).toEqual({ ok: true, value: { a: 1 } });
    expect(safeParseJson("{a:1}")).toMatchObject({ ok: false });
  });
});

describe("extractJsonObject", () => {
  it("reads a bare object", () => {
    expect(extractJsonObject(' {"queries": []} ')).toEqual({ ok: true, value: { queries: [] } });
  });

  it("reads an object inside a fence surrounded by prose", () => {
    const text = 'Sure.\n```json\n{"queries": [{"text": "a"}]}\n```\nDone.';
    expect(extractJsonObject(text)).toEqual({ ok: true, value: { queries: [{ text: "a" }] } });
  });

  it("reads an object inside prose without a fence, with braces inside strings", () => {
    const text = 'The answer is {"queries": [{"text": "a } b { c"}]} as requested.';
    expect(extractJsonObject(text)).toEqual({ ok: true, value: { queries: [{ text: "a } b { c" }] } });
  });

  it("skips a reasoning block", () => {
    const text = '<think>maybe {"queries": 1}</think>{"queries": []}';
    expect(extractJsonObject(text)).toEqual({ ok: true, value: { queries: [] } });
  });

  it("skips a brace that opens no valid JSON before the object", () => {
    expect(extractJsonObject('use {braces} like {"queries": []}')).toEqual({ ok: true, value: { queries: [] } });
  });

  it("says why nothing was found", () => {
    expect(extractJsonObject("")).toEqual({ ok: false, error: "the reply was empty" });
    expect(extractJsonObject("no object here")).toEqual({ ok: false, error: "the reply contains no JSON object" });
    expect(extractJsonObject("[1, 2]")).toMatchObject({ ok: false });
    expect(extractJsonObject('{"queries": [')).toMatchObject({
      ok: false,
      error: expect.stringContaining("invalid JSON"),
    });
  });
});

describe("parseReply", () => {
  it("validates against the zod schema after dropping nulls", () => {
    const text = '{"queries": [{"text": "a", "pattern": null, "pathPrefix": null}]}';
    expect(parseReply(text, plannerOutputSchema)).toEqual({ ok: true, value: { queries: [{ text: "a" }] } });
  });

  it("names the paths of the issues", () => {
    const result = parseReply('{"queries": [{"text": 3}]}', plannerOutputSchema);
    expect(result.ok).toBe(false);
    expect(result.ok || result.error).toContain("queries[0].text");
  });

  it("does not let __proto__ keys reach the value", () => {
    const result = parseReply('{"queries": [], "__proto__": {"polluted": true}}', plannerOutputSchema);
    expect(result).toEqual({ ok: true, value: { queries: [] } });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("dropNullProperties", () => {
  it("removes null properties at every depth and keeps nulls in arrays", () => {
    expect(dropNullProperties({ a: null, b: { c: null, d: 1 }, e: [null, { f: null }] })).toEqual({
      b: { d: 1 },
      e: [null, {}],
    });
  });
});
