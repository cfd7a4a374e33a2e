/**
 * Evaluation cases in the format of ../shared/eval/README.md: one JSON object per line,
 * `{"id", "question", "answers"?, "gold", "gold_sentences"?, "label"?, ...}`. Extra fields
 * are kept out; a malformed line is an error that names the line.
 */
import { readFile } from "node:fs/promises";
import { z } from "zod";
import { UserError } from "../core/errors.js";
import type { SciFactLabel } from "./eval-types.js";

const caseSchema = z.object({
  id: z.union([z.string().min(1).max(200), z.number()]).transform(String),
  question: z.string().trim().min(1).max(4_000),
  answers: z
    .array(z.union([z.string(), z.number()]).transform(String))
    .max(100)
    .optional(),
  gold: z.array(z.string().min(1).max(1_000)).max(200),
  gold_sentences: z.record(z.string(), z.array(z.string())).optional(),
  label: z.enum(["SUPPORT", "CONTRADICT", "NOT_ENOUGH_INFO"]).optional(),
  fault_fixture: z.boolean().optional(),
});

export interface EvalCase {
  id: string;
  question: string;
  /** Accepted short answers (aliases included); empty when the case has none. */
  answers: string[];
  /** Corpus-relative paths of the documents that hold the evidence. */
  gold: string[];
  /** Gold evidence sentences, by document. */
  goldSentences: Record<string, string[]>;
  /** SciFact's label for the claim, when the case has one. */
  label: SciFactLabel | null;
  /** Marked as a case the deterministic faults run on. */
  faultFixture: boolean;
}

/** Parses the text of a cases file. Throws UserError naming the first bad line. */
export function parseCases(text: string, file: string): EvalCase[] {
  const cases: EvalCase[] = [];
  const ids = new Set<string>();
  text.split("\n").forEach((line, index) => {
    if (line.trim() === "") return;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      throw new UserError(`${file}:${index + 1}: not a JSON object`);
    }
    const parsed = caseSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new UserError(
        `${file}:${index + 1}: ${issue ? `${issue.path.join(".") || "case"}: ${issue.message}` : "not a case"} (see the case format in docs/eval.md)`,
      );
    }
    const value = parsed.data;
    if (ids.has(value.id)) throw new UserError(`${file}:${index + 1}: the case id "${value.id}" is used twice`);
    ids.add(value.id);
    cases.push({
      id: value.id,
      question: value.question,
      answers: value.answers ?? [],
      gold: value.gold.map((path) => path.replace(/\\/g, "/").replace(/^\.\//, "")),
      goldSentences: value.gold_sentences ?? {},
      label: value.label ?? null,
      faultFixture: value.fault_fixture === true,
    });
  });
  if (cases.length === 0) throw new UserError(`${file} holds no cases`);
  return cases;
}

export async function loadCases(file: string): Promise<EvalCase[]> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UserError(`cannot read the cases file ${file}${code ? ` (${code})` : ""}`);
  }
  return parseCases(text, file);
}
