import { JSDOM } from "jsdom";
import { describe, expect, it } from "vitest";
import type { Claim, ClaimSource, LedgerSource, QuestionStatus, Transition } from "../../core/investigative/types.js";
import { EMPTY_INVESTIGATION, type NotesVersion, type StoredInvestigation } from "../../ports/investigation-store.js";
import { at, challenge, question } from "../../testing/investigation-rows.js";
import { INVESTIGATION_CSS, type InvestigationViewInput, investigationSections } from "./investigation-view.js";

/** One transition row; `from` '' for the creation. */
function transition(
  questionId: string,
  seq: number,
  from: QuestionStatus | "",
  to: QuestionStatus,
  trigger: Transition["trigger"],
  second: number,
  extra: Partial<Transition> = {},
): Transition {
  return {
    questionId,
    seq,
    fromStatus: from,
    toStatus: to,
    trigger,
    actor: "agent",
    reason: "",
    priority: 0.5,
    attempts: 0,
    causedBy: "",
    stateSeq: 0,
    createdAt: at(second),
    ...extra,
  };
}

function claim(id: string, status: Claim["status"], extra: Partial<Claim> = {}): Claim {
  return {
    id,
    questionId: "q_002",
    kind: "claim",
    text: `Claim ${id}.`,
    value: "",
    unit: "",
    status,
    check: "",
    independence: "",
    createdAt: at(0),
    updatedAt: at(0),
    ...extra,
  };
}

const link = (claimId: string, sourceId: string, stance: ClaimSource["stance"]): ClaimSource => ({
  claimId,
  sourceId,
  stance,
  chunkIds: [],
});

const source = (id: string, title: string, location: string): LedgerSource => ({
  id,
  location,
  domain: "",
  title,
  note: "",
});

const notesVersion = (seq: number, reason: NotesVersion["reason"], text: string): NotesVersion => ({
  seq,
  stateSeq: seq,
  reason,
  text,
  createdAt: at(seq * 10),
});

function investigation(extra: Partial<StoredInvestigation> = {}): StoredInvestigation {
  return { ...EMPTY_INVESTIGATION, ...extra };
}

const QUESTIONS = [
  question("q_001", null, "in_progress", { priority: 1, question: "When was the lithium-ion battery commercialised?" }),
  question("q_002", "q_001", "resolved", { priority: 0.8, answer: "Sony, 1991", reopens: 1 }),
  question("q_003", "q_001", "pruned", { priority: 0.3, answer: "off topic" }),
  question("q_004", "q_002", "unresolvable", { depth: 2, answer: "assumed 1991" }),
  question("q_005", "q_001", "blocked"),
];

const TRANSITIONS = [
  transition("q_001", 1, "", "pending", "created", 0, { actor: "code" }),
  transition("q_001", 2, "pending", "in_progress", "selected", 1, { actor: "code" }),
  transition("q_002", 1, "", "pending", "created", 2),
  transition("q_003", 1, "", "pending", "created", 3),
  transition("q_002", 2, "pending", "resolved", "resolved", 4, { reason: "Sony press release" }),
  transition("q_003", 2, "pending", "pruned", "pruned_branch", 5, { reason: "off topic" }),
  transition("q_002", 3, "resolved", "pending", "reopened", 6, { reason: "a source says 1992", causedBy: "ch_002" }),
  transition("q_004", 1, "", "pending", "created", 7),
  transition("q_005", 1, "", "pending", "created", 7),
  transition("q_002", 4, "pending", "resolved", "resolved", 8),
  transition("q_004", 2, "pending", "unresolvable", "attempts_exhausted", 9, { actor: "code" }),
  transition("q_005", 2, "pending", "blocked", "dependency_failed", 9, { actor: "code", causedBy: "q_004" }),
];

const SOURCES = [
  source("s_001", "Sony history", "https://example.com/sony"),
  source("s_002", "Press release", "history/press.md"),
  source("s_003", "Other view", "https://other.org/1992"),
];

const FULL = investigation({
  questions: QUESTIONS,
  transitions: TRANSITIONS,
  sources: SOURCES,
  claims: [
    claim("c_001", "VERIFIED", { text: "Sony sold the first lithium-ion battery." }),
    claim("c_002", "REFUTED", { text: "It was sold in 1992." }),
    claim("d_003", "UNVERIFIED", {
      kind: "datapoint",
      text: "Cell voltage",
      value: "3.6",
      unit: "V",
      questionId: "q_004",
    }),
  ],
  claimSources: [
    link("c_001", "s_001", "supports"),
    link("c_001", "s_002", "supports"),
    link("c_002", "s_002", "supports"),
    link("c_002", "s_003", "contradicts"),
    link("d_003", "s_404", "supports"),
  ],
  challenges: [
    challenge("ch_001", { sourceIds: ["s_001"] }),
    challenge("ch_002", {
      strategy: "discrepancy",
      targetId: "c_002",
      outcome: "refuted",
      evidence: "the press release says 1991",
      sourceIds: ["s_002"],
    }),
    challenge("ch_003", {
      strategy: "discrepancy",
      targetType: "question_answer",
      targetId: "q_002",
      status: "open",
      outcome: "",
    }),
    challenge("ch_004", { targetType: "conclusion", targetId: "", outcome: "inconclusive" }),
  ],
  notesVersions: 2,
});

const NOTES = [
  notesVersion(1, "notes_append", "# Notes\nfirst draft"),
  notesVersion(2, "consolidation", "# Notes\nsecond"),
];

function page(input: Partial<InvestigationViewInput> = {}): Document {
  const html = investigationSections({ investigation: FULL, notes: NOTES, finishedAt: at(20), ...input });
  return new JSDOM(`<!doctype html><body>${html}`).window.document;
}

const textOf = (element: Element | null | undefined): string => element?.textContent?.replace(/\s+/g, " ").trim() ?? "";

/** The cells of each body row of the table inside `selector`, as text. */
const rowsOf = (document: Document, selector: string): string[][] =>
  [...document.querySelectorAll(`${selector} tbody tr`)].map((row) => [...row.children].map((cell) => textOf(cell)));

describe("investigationSections", () => {
  it("renders five sections in order, each with a heading", () => {
    const document = page();
    const sections = [...document.querySelectorAll("body > section")];
    expect(sections.map((section) => section.id)).toEqual(["frontier", "transitions", "ledger", "challenges", "notes"]);
    expect(sections.map((section) => textOf(section.querySelector("h2")))).toEqual([
      "Frontier",
      "Transitions",
      "Claim ledger",
      "Challenges",
      "Notes versions",
    ]);
    expect(document.querySelectorAll("script, style, [style]")).toHaveLength(0);
    for (const th of document.querySelectorAll("thead th")) expect(th.getAttribute("scope")).toBe("col");
  });

  it("nests the question tree inside each parent's item, with status, priority, depth, reopens and outcome", () => {
    const document = page();
    const item = (id: string): Element | null => document.querySelector(`li[data-question="${id}"]`);
    const parentOf = (id: string): string | undefined =>
      item(id)?.parentElement?.closest("li")?.getAttribute("data-question") ?? undefined;
    const top = document.querySelectorAll("#frontier > ul.tree > li");
    expect([...top].map((li) => li.getAttribute("data-question"))).toEqual(["q_001"]);
    expect(["q_002", "q_003", "q_005"].map(parentOf)).toEqual(["q_001", "q_001", "q_001"]);
    expect(parentOf("q_004")).toBe("q_002");
    expect(QUESTIONS.map((row) => item(row.id)?.getAttribute("data-status"))).toEqual([
      "in_progress",
      "resolved",
      "pruned",
      "unresolvable",
      "blocked",
    ]);
    expect(item("q_003")?.querySelector(".status")?.className).toBe("status status-pruned");

    // Parents fold with a focusable summary; leaves have no details.
    const rootSummary = item("q_001")?.querySelector(":scope > details[open] > summary");
    expect(textOf(rootSummary)).toContain("When was the lithium-ion battery commercialised?");
    expect(textOf(rootSummary)).toContain("P 1.00 · depth 0");
    expect(textOf(rootSummary)).not.toContain("Question q_002?");
    expect(item("q_004")?.querySelector("details")).toBeNull();
    // Folding a parent's details hides its subtree.
    expect(item("q_002")?.closest("details")?.parentElement).toBe(item("q_001"));
    expect(item("q_004")?.closest("details")?.parentElement).toBe(item("q_002"));

    const q002 = textOf(item("q_002")?.querySelector("summary"));
    expect(q002).toContain("P 0.80 · depth 1 · reopened 1×");
    expect(q002).toContain("answer: Sony, 1991");
    expect(textOf(item("q_003"))).toContain("pruned by agent (pruned_branch): off topic");
    expect(textOf(item("q_004"))).toContain("assumption: assumed 1991");
    expect(textOf(item("q_005"))).not.toContain("reopened");

    expect(textOf(document.querySelector("#frontier > p"))).toBe(
      "5 questions: in_progress 1, resolved 1, blocked 1, unresolvable 1, pruned 1",
    );
    // q_001 is in progress from 1 s until the run ended at 20 s.
    expect(textOf(document.querySelector("#frontier > p.meta"))).toContain("in_progress 19s");
  });

  it("lists the transitions in write order with time, question, statuses, trigger, actor and reason", () => {
    const document = page();
    const rows = rowsOf(document, "#transitions");
    expect(rows).toHaveLength(TRANSITIONS.length);
    expect(rows.map((cells) => cells[1]?.split(" ").at(-1))).toEqual(TRANSITIONS.map((row) => row.questionId));
    expect(rows[0]).toEqual([
      "12:03:00",
      "When was the lithium-ion battery commercialised? q_001",
      "(new) → pending",
      "created",
      "code",
      "",
    ]);
    expect(rows[6]).toEqual([
      "12:03:06",
      "Question q_002? q_002",
      "resolved → pending",
      "reopened",
      "agent",
      "a source says 1992 caused by ch_002",
    ]);
    expect(document.querySelector("#transitions time")?.getAttribute("datetime")).toBe(at(0));
    expect(document.querySelector("#transitions .table-scroll > table > caption")).not.toBeNull();
  });

  it("shows the claim ledger with statuses, values and the sources by title, linking only web locations", () => {
    const document = page();
    const rows = [...document.querySelectorAll("#ledger tbody tr")];
    expect(rows.map((row) => row.querySelector(".status")?.className)).toEqual([
      "status status-verified",
      "status status-refuted",
      "status status-unverified",
    ]);
    const cells = rowsOf(document, "#ledger");
    expect(cells[0]?.[1]).toBe("Sony sold the first lithium-ion battery. c_001");
    const supporting = [...(rows[0]?.querySelectorAll("td:nth-child(3) li") ?? [])].map((li) => textOf(li));
    expect(supporting).toEqual(["Sony history s_001 https://example.com/sony", "Press release s_002 history/press.md"]);
    expect(cells[0]?.[3]).toBe("—");
    expect(cells[1]?.[3]).toBe("Other view s_003 https://other.org/1992");
    expect(cells[2]?.[1]).toBe("Cell voltage = 3.6 V d_003");
    expect(cells[2]?.[2]).toBe("s_404");
    expect(cells[2]?.[4]).toBe("Question q_004? q_004");

    const links = [...document.querySelectorAll("#ledger a")];
    expect(links.map((a) => a.getAttribute("href"))).toEqual(["https://example.com/sony", "https://other.org/1992"]);
    expect(links.every((a) => a.getAttribute("rel") === "noopener noreferrer nofollow")).toBe(true);
    expect(textOf(rows[0]?.querySelector("code"))).toBe("history/press.md");
  });

  it("counts challenges by strategy × outcome and lists each with its target, outcome and sources", () => {
    const document = page();
    const counts = [...document.querySelectorAll("#challenges table")][0];
    expect([...(counts?.querySelectorAll("thead th") ?? [])].map((th) => textOf(th))).toEqual([
      "Strategy",
      "survived",
      "weakened",
      "refuted",
      "inconclusive",
      "open",
      "total",
    ]);
    const byStrategy = [...(counts?.querySelectorAll("tbody tr, tfoot tr") ?? [])].map((row) =>
      [...row.children].map((cell) => textOf(cell)),
    );
    expect(byStrategy).toEqual([
      ["negation", "1", "0", "0", "1", "0", "2"],
      ["discrepancy", "0", "0", "1", "0", "1", "2"],
      ["Total", "1", "0", "1", "1", "1", "4"],
    ]);
    expect(document.querySelector("#challenges .warning")).toBeNull();

    const list = [...document.querySelectorAll("#challenges table")][1];
    const rows = [...(list?.querySelectorAll("tbody tr") ?? [])].map((row) => [...row.children].map((c) => textOf(c)));
    expect(rows.map((cells) => cells[0])).toEqual([
      "Sony sold the first lithium-ion battery. c_001",
      "It was sold in 1992. c_002",
      "Question q_002? q_002",
      "conclusion",
    ]);
    expect(rows.map((cells) => cells[3])).toEqual([
      "survived ch_001",
      "refuted ch_002",
      "open ch_003",
      "inconclusive ch_004",
    ]);
    expect(rows[1]?.[1]).toBe("discrepancy");
    expect(rows[1]?.[2]).toContain("Query: query ch_002");
    expect(rows[1]?.[2]).toContain("Evidence: the press release says 1991");
    expect(rows[1]?.[4]).toBe("Press release s_002 history/press.md");
  });

  it("warns when every challenge survived with one strategy", () => {
    const suspect = investigation({ challenges: [challenge("ch_001"), challenge("ch_002", { targetId: "c_404" })] });
    const document = page({ investigation: suspect });
    expect(textOf(document.querySelector("#challenges p.warning"))).toBe(
      "Suspect: all 2 challenges survived, all with one strategy (negation)",
    );
    expect(rowsOf(document, "#challenges .table-scroll:last-of-type").map((cells) => cells[0])).toEqual([
      "claim c_001",
      "claim c_404",
    ]);
  });

  it("lists notes versions newest first, only the newest open", () => {
    const document = page();
    const versions = [...document.querySelectorAll("#notes details")];
    expect(versions.map((details) => textOf(details.querySelector("summary")))).toEqual([
      "Version 2 · consolidation · 2026-01-15 12:03 UTC",
      "Version 1 · notes_append · 2026-01-15 12:03 UTC",
    ]);
    expect(versions.map((details) => details.hasAttribute("open"))).toEqual([true, false]);
    expect(versions[0]?.querySelector("pre.notes")?.textContent).toBe("# Notes\nsecond");
    expect(versions[0]?.querySelector("time")?.getAttribute("datetime")).toBe(at(20));
  });

  it("says so in each section when nothing was recorded", () => {
    const document = page({ investigation: investigation(), notes: [] });
    expect([...document.querySelectorAll("section")].map((section) => textOf(section.querySelector("p")))).toEqual([
      "No question was recorded.",
      "No transition was recorded.",
      "No claim was recorded.",
      "No challenge was recorded.",
      "No notes version was recorded.",
    ]);
    expect(document.querySelectorAll("table, ul.tree, details")).toHaveLength(0);
  });
});

describe("investigationSections with hostile text", () => {
  const HOSTILE = `<script>alert(1)</script><img src=x onerror=alert(1)>`;
  const ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;";
  const hostile = investigation({
    questions: [
      question("q_001", null, "resolved", { question: HOSTILE, answer: HOSTILE }),
      question("q_002", "q_001", "pruned", { question: `x" data-x="${HOSTILE}`, answer: HOSTILE }),
    ],
    transitions: [transition("q_001", 1, "", "pending", "created", 0, { reason: HOSTILE, causedBy: HOSTILE })],
    sources: [
      source("s_001", HOSTILE, "javascript:alert(1)"),
      source("s_002", HOSTILE, `https://example.com/" onmouseover="alert(1)`),
      source("s_003", HOSTILE, `<img src=x onerror=alert(1)>`),
    ],
    claims: [claim("c_001", "VERIFIED", { text: HOSTILE, questionId: "q_001" })],
    claimSources: [
      link("c_001", "s_001", "supports"),
      link("c_001", "s_002", "supports"),
      link("c_001", "s_003", "contradicts"),
    ],
    challenges: [challenge("ch_001", { evidence: HOSTILE, query: HOSTILE, sourceIds: ["s_001", "s_002"] })],
  });
  const html = investigationSections({
    investigation: hostile,
    notes: [notesVersion(1, "notes_append", `${HOSTILE}\njavascript:alert(1)`)],
  });

  it("escapes every piece of row text: no tag, event handler or script link gets through", () => {
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img/i);
    // `onerror=` only inside escaped text: no raw tag carries it (escaped text has no raw `<`).
    expect(html).not.toMatch(/<[^<>]*\sonerror=/i);
    expect(html).not.toMatch(/href="javascript:/i);
    expect(html.split(ESCAPED).length - 1).toBeGreaterThanOrEqual(8);

    const document = new JSDOM(`<!doctype html><body>${html}`).window.document;
    expect(document.querySelectorAll("script, img")).toHaveLength(0);
    for (const element of document.querySelectorAll("*")) {
      for (const attribute of element.getAttributeNames()) expect(attribute).not.toMatch(/^on/);
    }
    expect(document.querySelector("[data-x]")).toBeNull();
    expect(document.querySelector('li[data-question="q_001"] summary')?.textContent).toContain(HOSTILE);
    expect(document.querySelector("#notes pre")?.textContent).toBe(`${HOSTILE}\njavascript:alert(1)`);
  });

  it("links only http(s) locations, shows the rest as code, and keeps the link's quotes inside href", () => {
    const document = new JSDOM(`<!doctype html><body>${html}`).window.document;
    const links = [...document.querySelectorAll("a")];
    expect(links.map((a) => a.getAttribute("href"))).toEqual([
      `https://example.com/" onmouseover="alert(1)`,
      `https://example.com/" onmouseover="alert(1)`,
    ]);
    expect(links.every((a) => a.getAttributeNames().join(",") === "href,rel")).toBe(true);
    const codes = [...document.querySelectorAll("#ledger code")].map((code) => code.textContent);
    expect(codes).toEqual(["javascript:alert(1)", "<img src=x onerror=alert(1)>"]);
  });
});

describe("INVESTIGATION_CSS", () => {
  it("styles the classes the sections use, tables scrolling sideways", () => {
    for (const name of [
      "tree",
      "status",
      "status-pruned",
      "status-verified",
      "table-scroll",
      "id",
      "meta",
      "outcome",
    ]) {
      expect(INVESTIGATION_CSS).toContain(`.${name}`);
    }
    expect(INVESTIGATION_CSS).toMatch(/\.table-scroll\{overflow-x:auto/);
    expect(INVESTIGATION_CSS).not.toMatch(/url\(|@import|expression/i);
  });
});
