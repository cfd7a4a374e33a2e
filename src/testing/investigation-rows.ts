/** Hand-built rows of a stored investigation for tests of its readers (views, exports, stats). */
import type { Challenge, Question, QuestionStatus } from "../core/investigative/types.js";

/** 2026-01-15 12:03:<second> UTC, as ISO text. */
export const at = (second: number): string => new Date(Date.UTC(2026, 0, 15, 12, 3, second)).toISOString();

/** A question row: depth 0 for a root, else 1; `extra` overrides any field. */
export function question(
  id: string,
  parentId: string | null,
  status: QuestionStatus,
  extra: Partial<Question> = {},
): Question {
  return {
    id,
    parentId,
    depth: parentId === null ? 0 : 1,
    kind: "question",
    question: `Question ${id}?`,
    rationale: "",
    priority: 0.5,
    status,
    validationCriteria: "",
    targetSources: [],
    answer: "",
    claimIds: [],
    exemption: "",
    claimedBy: null,
    agent: 0,
    reopens: 0,
    createdAt: at(0),
    updatedAt: at(0),
    ...extra,
  };
}

/** A closed, survived challenge of claim c_001 under q_002; `extra` overrides any field. */
export function challenge(id: string, extra: Partial<Challenge> = {}): Challenge {
  return {
    id,
    questionId: "q_002",
    targetType: "claim",
    targetId: "c_001",
    negation: "not so",
    strategy: "negation",
    expectedIfFalse: "a source saying otherwise",
    query: `query ${id}`,
    attempt: null,
    status: "closed",
    outcome: "survived",
    evidence: "nothing against it",
    sourceIds: [],
    resultClaimId: null,
    createdAt: at(0),
    closedAt: at(1),
    ...extra,
  };
}
