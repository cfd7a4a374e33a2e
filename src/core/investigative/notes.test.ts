import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  formatNotes,
  NOTES_FILE_PATTERN,
  NOTES_SECTIONS,
  type NotesDocument,
  type NotesInput,
  notesDocument,
  notesFileName,
  notesTokens,
  overBudget,
  parseNotes,
  renderNotes,
  singleLine,
} from "./notes.js";
import {
  type Claim,
  type ClaimSource,
  type ClaimStatus,
  type Contradiction,
  DEFAULT_INVESTIGATION_CONFIG,
  type LedgerSource,
  type Question,
  type QuestionStatus,
} from "./types.js";

const NOW = "2025-01-01T00:00:00.000Z";

function claim(fields: Partial<Claim> & Pick<Claim, "id" | "text">): Claim {
  return {
    questionId: null,
    kind: "claim",
    value: "",
    unit: "",
    status: "UNVERIFIED",
    check: "",
    independence: "",
    createdAt: NOW,
    updatedAt: NOW,
    ...fields,
  };
}

function question(id: string, status: QuestionStatus, answer: string): Question {
  return {
    id,
    parentId: null,
    depth: 1,
    kind: "question",
    question: `question ${id}`,
    rationale: "",
    priority: 0.5,
    status,
    validationCriteria: "",
    targetSources: [],
    answer,
    claimIds: [],
    exemption: "",
    claimedBy: null,
    agent: 0,
    reopens: 0,
    createdAt: NOW,
    updatedAt: NOW,
  };
}

const supports = (claimId: string, sourceId: string): ClaimSource => ({
  claimId,
  sourceId,
  stance: "supports",
  chunkIds: [],
});

const EXAMPLE: NotesInput = {
  objective: "How much VRAM does the model need?",
  ledger: {
    sources: [
      { id: "s_001", location: "https://gpu.example.com/spec", domain: "example.com", title: "Spec", note: "" },
      { id: "s_003", location: "https://arxiv.org/abs/1", domain: "arxiv.org", title: "Title", note: "" },
      {
        id: "s_004",
        location: "papers/memory notes.pdf",
        domain: "corpus:papers/memory notes.pdf",
        title: "Memory",
        note: "read, nothing relevant",
      },
      {
        id: "s_005",
        location: "https://blog.example.org/x",
        domain: "example.org",
        title: 'A "quoted" title',
        note: "",
      },
    ],
    claims: [
      claim({ id: "c_007", text: "The model needs 11.2 GB at fp16.", status: "VERIFIED", check: "ignored" }),
      claim({ id: "c_009", text: "Skip connections add ~18% memory.", check: "independent benchmark" }),
      claim({ id: "c_010", text: "Refuted.", status: "REFUTED" }),
      claim({ id: "c_011", text: "Retracted.", status: "RETRACTED" }),
      claim({ id: "d_002", kind: "datapoint", value: "16", unit: "GB", text: "VRAM budget of the target GPU" }),
      claim({ id: "d_003", kind: "datapoint", value: "1", unit: "x", text: "refuted", status: "REFUTED" }),
    ],
    claimSources: [
      supports("c_007", "s_003"),
      supports("c_007", "s_005"),
      { claimId: "c_007", sourceId: "s_004", stance: "contradicts", chunkIds: [] },
      supports("c_009", "s_004"),
      supports("d_002", "s_001"),
    ],
    contradictions: [
      { claimId: "c_007", otherClaimId: "c_011", questionId: "q_044", addressed: false },
      { claimId: "c_007", otherClaimId: "c_009", questionId: "", addressed: false },
      { claimId: "c_009", otherClaimId: "c_010", questionId: "q_045", addressed: true },
    ],
  },
  frontier: {
    questions: [
      question("q_030", "resolved", "answered"),
      question("q_031", "unresolvable", "no public figure found; assumed ~2x of baseline"),
    ],
  },
  scratch: "plan: check the\nbenchmarks next",
};

const EXAMPLE_TEXT = `# Notes: How much VRAM does the model need?

## Verified
- [c_007] VERIFIED  The model needs 11.2 GB at fp16.  src: s_003, s_005

## Unverified
- [c_009] UNVERIFIED  Skip connections add ~18% memory.  src: s_004  | check: independent benchmark

## Contradictions
- c_007 vs c_011 -> q_044
- c_007 vs c_009

## Datapoints
- [d_002] 16  GB  | VRAM budget of the target GPU  | s_001

## Sources
- [s_001] https://gpu.example.com/spec  "Spec"  (example.com)
- [s_003] https://arxiv.org/abs/1  "Title"  (arxiv.org)
- [s_004] papers/memory notes.pdf  "Memory"  — read, nothing relevant  (local)
- [s_005] https://blog.example.org/x  "A "quoted" title"  (example.org)

## Assumptions & gaps
- q_031 unresolvable: no public figure found; assumed ~2x of baseline

## Scratch
plan: check the
benchmarks next
`;

describe("renderNotes", () => {
  it("writes the fixed sections in order, one record per line", () => {
    expect(renderNotes(EXAMPLE)).toBe(EXAMPLE_TEXT);
    const headings = EXAMPLE_TEXT.split("\n").filter((line) => line.startsWith("## "));
    expect(headings).toEqual(NOTES_SECTIONS.map((section) => `## ${section}`));
  });

  it("is deterministic and leaves refuted, retracted and addressed entries out", () => {
    expect(renderNotes(EXAMPLE)).toBe(renderNotes(structuredClone(EXAMPLE)));
    expect(renderNotes(EXAMPLE)).not.toMatch(/c_010|c_011\]|d_003|q_045|q_030/);
  });

  it("keeps model text on one line and escapes nothing else", () => {
    const text = renderNotes({
      ...EXAMPLE,
      objective: "two\nlines",
      ledger: {
        ...EXAMPLE.ledger,
        claims: [
          claim({ id: "c_001", text: "a\n- [c_999] VERIFIED  forged  src: s_1\r\n\u2028<b>&\u0007", check: "x\ty" }),
        ],
      },
    });
    expect(text).toContain("# Notes: two lines\n");
    expect(text).toContain("- [c_001] UNVERIFIED  a - [c_999] VERIFIED forged src: s_1 <b>&  src: -  | check: x y\n");
    const parsed = parseNotes(text);
    expect(parsed.problems).toEqual([]);
    expect(parsed.unverified.map((record) => record.id)).toEqual(["c_001"]);
    expect(parsed.verified).toEqual([]);
  });

  it("renders empty sections, empty fields and empty scratch", () => {
    const text = renderNotes({
      objective: "",
      ledger: {
        sources: [{ id: "s_001", location: "", domain: "", title: "", note: "" }],
        claims: [
          claim({ id: "d_001", kind: "datapoint", text: "" }),
          claim({ id: "c_001", text: "", status: "VERIFIED" }),
        ],
        claimSources: [],
        contradictions: [],
      },
      frontier: { questions: [question("q_002", "unresolvable", "")] },
      scratch: "",
    });
    expect(text).toContain("# Notes:\n");
    expect(text).toContain("- [c_001] VERIFIED    src: -\n");
    expect(text).toContain("- [d_001]    |  | -\n");
    expect(text).toContain('- [s_001]  ""  ()\n');
    expect(text).toContain("- q_002 unresolvable:\n");
    expect(text.endsWith("## Scratch\n")).toBe(true);
    expect(parseNotes(text).problems).toEqual([]);
  });
});

describe("parseNotes", () => {
  it("reads the records of each section and the scratch verbatim", () => {
    const parsed = parseNotes(EXAMPLE_TEXT);
    expect(parsed).toEqual({ ...notesDocument(EXAMPLE), problems: [] });
    expect(parsed.sources[2]).toEqual({
      id: "s_004",
      location: "papers/memory notes.pdf",
      title: "Memory",
      note: "read, nothing relevant",
      domain: null,
    });
    expect(parsed.datapoints).toEqual([
      { id: "d_002", value: "16", unit: "GB", text: "VRAM budget of the target GPU", sourceIds: ["s_001"] },
    ]);
    expect(parsed.contradictions[1]).toEqual({ claimId: "c_007", otherClaimId: "c_009", questionId: "" });
  });

  it("reports unknown and malformed lines with their line numbers and keeps the rest", () => {
    const text = [
      "stray line", // 1
      "# Notes: x", // 2
      "## Verified", // 3
      "- [c_001] VERIFIED  ok  src: s_1", // 4
      "- [c_002] UNVERIFIED  wrong section  src: s_1", // 5
      "- [c_003] VERIFIED  has a check  src: s_1  | check: y", // 6
      "- [c_004] VERIFIED  no sources", // 7
      "- [c_005] VERIFIED single spaced src: s_1", // 8
      "## Unverified", // 9
      "- [c_006] UNVERIFIED  t  src: s_1, bad id", // 10
      "- [c_007] UNVERIFIED  t  src: s_1  | check:", // 11
      "## Contradictions", // 12
      "- c_1 versus c_2", // 13
      "## Datapoints", // 14
      "- [d_001] 16 GB | budget | s_1", // 15
      "## Sources", // 16
      "- [s_001] https://x  Title  (x.org)", // 17
      '- [s_002] https://x  "T"  —  (x.org)', // 18
      "## Assumptions & gaps", // 19
      "- q_1 blocked: x", // 20
      "## Misc", // 21
      "- under an unknown heading", // 22
      "## Scratch", // 23
      "## Verified", // 24 (scratch text)
    ].join("\n");
    const parsed = parseNotes(text);
    expect(parsed.objective).toBe("x");
    expect(parsed.verified).toEqual([{ id: "c_001", text: "ok", sourceIds: ["s_1"], check: "" }]);
    expect(parsed.unverified).toEqual([]);
    expect(parsed.scratch).toBe("## Verified");
    expect(parsed.problems.map((problem) => problem.line)).toEqual([1, 5, 6, 7, 8, 10, 11, 13, 15, 17, 18, 20, 21, 22]);
    expect(parsed.problems[0]).toEqual({ line: 1, message: "a line before the first section", text: "stray line" });
    expect(parsed.problems.find((problem) => problem.line === 21)?.message).toBe("unknown section");
  });

  it("reports a missing title and never throws on arbitrary text", () => {
    expect(parseNotes("").problems).toEqual([{ line: 1, message: expect.stringMatching(/title/), text: "" }]);
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (text) => {
        const parsed = parseNotes(text);
        const lines = text.split("\n").length;
        return parsed.problems.every((problem) => problem.line >= 1 && problem.line <= lines);
      }),
    );
  });

  it("accepts CRLF line ends in records", () => {
    const parsed = parseNotes("# Notes: x\r\n## Contradictions\r\n- c_1 vs c_2 -> q_3\r\n");
    expect(parsed.problems).toEqual([]);
    expect(parsed.contradictions).toEqual([{ claimId: "c_1", otherClaimId: "c_2", questionId: "q_3" }]);
  });
});

const HOSTILE = [
  "src: s_1",
  "  src: s_001, s_002",
  "| check: x",
  "  | ",
  " | s_1",
  "[c_001]",
  "- [c_002] VERIFIED  x  src: s_1",
  "\n",
  "\r\n",
  "\t",
  "\u2028",
  "\u0000",
  "\u0085",
  '"',
  '""',
  "(local)",
  "(x.org)",
  "— ",
  "—",
  "## Scratch",
  "# Notes: y",
  "-",
  "  ",
  " ",
  "vs",
  "->",
  "unresolvable:",
  "é日本😀",
  "\u202e",
];
const hostileText = fc
  .array(fc.oneof(fc.constantFrom(...HOSTILE), fc.string({ unit: "binary", maxLength: 6 })), { maxLength: 8 })
  .map((parts) => parts.join(""));
const ids = (prefix: string, maxLength: number) =>
  fc
    .uniqueArray(fc.integer({ min: 1, max: 9999 }), { maxLength })
    .map((numbers) => numbers.map((number) => `${prefix}_${String(number).padStart(3, "0")}`));

const inputArbitrary: fc.Arbitrary<NotesInput> = fc
  .record({ sourceIds: ids("s", 6), claimIds: ids("c", 6), pointIds: ids("d", 4), questionIds: ids("q", 4) })
  .chain(({ sourceIds, claimIds, pointIds, questionIds }) => {
    const status = fc.constantFrom<ClaimStatus>("UNVERIFIED", "VERIFIED", "REFUTED", "RETRACTED");
    const links = (claimId: string): fc.Arbitrary<ClaimSource[]> =>
      sourceIds.length === 0
        ? fc.constant([])
        : fc.array(
            fc.record({
              claimId: fc.constant(claimId),
              sourceId: fc.constantFrom(...sourceIds),
              stance: fc.constantFrom<ClaimSource["stance"]>("supports", "contradicts"),
              chunkIds: fc.constant([]),
            }),
            { maxLength: 3 },
          );
    const source = (id: string): fc.Arbitrary<LedgerSource> =>
      fc.record({
        id: fc.constant(id),
        location: hostileText,
        domain: fc.oneof(
          fc.domain(),
          hostileText.map((path) => `corpus:${path}`),
        ),
        title: hostileText,
        note: fc.oneof(fc.constant(""), hostileText),
      });
    const ledgerClaim = (id: string, kind: Claim["kind"]): fc.Arbitrary<Claim> =>
      fc
        .record({ text: hostileText, value: hostileText, unit: hostileText, check: hostileText, status })
        .map((fields) => claim({ id, kind, ...fields }));
    const contradiction: fc.Arbitrary<Contradiction> =
      claimIds.length === 0
        ? fc.constant({ claimId: "c_1", otherClaimId: "c_2", questionId: "", addressed: false })
        : fc.record({
            claimId: fc.constantFrom(...claimIds),
            otherClaimId: fc.constantFrom(...claimIds),
            questionId: fc.oneof(fc.constant(""), fc.constantFrom("q_044", "q_1")),
            addressed: fc.boolean(),
          });
    const frontierQuestion = (id: string): fc.Arbitrary<Question> =>
      fc
        .record({ status: fc.constantFrom<QuestionStatus>("unresolvable", "resolved", "pending"), answer: hostileText })
        .map(({ status: questionStatus, answer }) => question(id, questionStatus, answer));
    const everyClaim = [
      ...claimIds.map((id) => ledgerClaim(id, "claim")),
      ...pointIds.map((id) => ledgerClaim(id, "datapoint")),
    ];
    return fc.record({
      objective: hostileText,
      scratch: hostileText,
      ledger: fc.record({
        sources: fc.tuple(...sourceIds.map(source)),
        claims: fc.tuple(...everyClaim),
        claimSources: fc.tuple(...[...claimIds, ...pointIds].map(links)).map((lists) => lists.flat()),
        contradictions: fc.array(contradiction, { maxLength: 3 }),
      }),
      frontier: fc.record({ questions: fc.tuple(...questionIds.map(frontierQuestion)) }),
    });
  });

describe("round trip", () => {
  it("parseNotes(renderNotes(x)) gives back the rendered records, with no problems", () => {
    fc.assert(
      fc.property(inputArbitrary, (input) => {
        const text = renderNotes(input);
        expect(parseNotes(text)).toEqual({ ...notesDocument(input), problems: [] });
      }),
      { numRuns: 300 },
    );
  });

  it("formatNotes and parseNotes round-trip any single-lined document", () => {
    const line = hostileText.map(singleLine);
    const idList = (prefix: string) => ids(prefix, 3);
    const documentArbitrary: fc.Arbitrary<NotesDocument> = fc.record({
      objective: line,
      verified: fc.array(
        fc.record({ id: fc.constant("c_1"), text: line, sourceIds: idList("s"), check: fc.constant("") }),
      ),
      unverified: fc.array(fc.record({ id: fc.constant("c_2"), text: line, sourceIds: idList("s"), check: line })),
      contradictions: fc.array(
        fc.record({
          claimId: fc.constant("c_1"),
          otherClaimId: fc.constant("c_2"),
          questionId: fc.constantFrom("", "q_9"),
        }),
      ),
      datapoints: fc.array(
        fc.record({ id: fc.constant("d_1"), value: line, unit: line, text: line, sourceIds: idList("s") }),
      ),
      sources: fc.array(
        fc.record({
          id: fc.constant("s_1"),
          location: line,
          title: line,
          note: line,
          domain: fc.oneof(fc.constant(null), fc.domain()),
        }),
      ),
      gaps: fc.array(fc.record({ questionId: fc.constant("q_1"), assumption: line })),
      scratch: fc.string({ unit: "binary" }),
    });
    fc.assert(
      fc.property(documentArbitrary, (document) => {
        expect(parseNotes(formatNotes(document))).toEqual({ ...document, problems: [] });
      }),
      { numRuns: 300 },
    );
  });

  it("single-lined text has no line breaks, control characters or double spaces", () => {
    fc.assert(
      fc.property(hostileText, (text) => {
        const line = singleLine(text);
        // biome-ignore lint/suspicious/noControlCharactersInRegex: checking for control characters is the point.
        return !/[\n\r\u2028\u2029\u0000-\u001f\u007f-\u009f]| {2}|^ | $/.test(line) && singleLine(line) === line;
      }),
    );
  });
});

describe("size", () => {
  it("approximates tokens as ceil(code points / 4)", () => {
    expect(notesTokens("")).toBe(0);
    expect(notesTokens("abcd")).toBe(1);
    expect(notesTokens("abcde")).toBe(2);
    expect(notesTokens("😀😀😀😀")).toBe(1);
  });

  it("is over budget past notes_max_tokens", () => {
    expect(overBudget("x".repeat(24_000), DEFAULT_INVESTIGATION_CONFIG)).toBe(false);
    expect(overBudget("x".repeat(24_001), DEFAULT_INVESTIGATION_CONFIG)).toBe(true);
    expect(overBudget("abcde", { notesMaxTokens: 1 })).toBe(true);
  });
});

describe("notesFileName", () => {
  const NOTES_ID = "0123456789abcdef0123456789abcdef";

  it("names the file notes_<user>_<run>_<notes_id>.md", () => {
    expect(notesFileName("alice.b-c_d", 42, NOTES_ID)).toEqual({
      ok: true,
      value: `notes_alice.b-c_d_42_${NOTES_ID}.md`,
    });
    expect(notesFileName("", 0, NOTES_ID)).toEqual({ ok: true, value: `notes__0_${NOTES_ID}.md` });
  });

  it("sanitizes the user id and cuts it to 64 characters", () => {
    const userId = `../../etc/passwd 日本語😀\\${"x/".repeat(100)}`.slice(0, 200);
    expect(userId).toHaveLength(200);
    const name = notesFileName(userId, 7, NOTES_ID);
    expect(name.ok).toBe(true);
    if (!name.ok) return;
    const user = name.value.slice("notes_".length, -`_7_${NOTES_ID}.md`.length);
    expect(user).toHaveLength(64);
    expect(user).toMatch(/^[A-Za-z0-9._-]+$/);
    // One `_` per code point: the space, 日, 本, 語, 😀 and the backslash.
    expect(user.startsWith(".._.._etc_passwd______x_x_")).toBe(true);
    expect(name.value).not.toMatch(/[/\\]/);
    expect(NOTES_FILE_PATTERN.test(name.value)).toBe(true);
  });

  it("makes a valid name for any user id", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), fc.nat(), (userId, runId) => {
        const name = notesFileName(userId, runId, NOTES_ID);
        return name.ok && NOTES_FILE_PATTERN.test(name.value);
      }),
    );
  });

  it("refuses a notes id that is not 32 lowercase hex characters, and a bad run id", () => {
    for (const notesId of [NOTES_ID.toUpperCase(), NOTES_ID.slice(1), `${NOTES_ID}0`, `${NOTES_ID.slice(1)}g`, ""]) {
      expect(notesFileName("u", 1, notesId).ok).toBe(false);
    }
    expect(notesFileName("u", -1, NOTES_ID).ok).toBe(false);
    expect(notesFileName("u", 1.5, NOTES_ID).ok).toBe(false);
  });
});
