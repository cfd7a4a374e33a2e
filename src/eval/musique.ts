/**
 * MuSiQue (Trivedi et al., TACL 2022: multi-hop questions composed of single-hop ones) as an
 * evaluation set over a closed corpus, in the format `assay eval` reads (docs/eval.md): the
 * answerable questions as cases, and the paragraphs given with them as the corpus, one Markdown
 * document each, the supporting ones as each case's gold. Pure: the caller reads the data (kept
 * outside the repository) and writes the files (scripts/make-musique-corpus.mjs).
 */
import { z } from "zod";
import { UserError } from "../core/errors.js";

const sampleSchema = z.object({
  id: z.string().min(1),
  question: z.string().min(1),
  answer: z.string(),
  answer_aliases: z.array(z.string()).optional(),
  answerable: z.boolean().optional(),
  paragraphs: z.array(
    z.object({
      title: z.string(),
      paragraph_text: z.string(),
      is_supporting: z.boolean().optional(),
    }),
  ),
});

export type MusiqueSample = z.infer<typeof sampleSchema>;

/**
 * The samples of a MuSiQue file's text: the JSON Lines of the release (`musique_ans_v1.0_dev.jsonl`)
 * or a JSON array of the same objects. Throws a reader's error naming the file and the sample.
 */
export function musiqueSamples(text: string, file: string): MusiqueSample[] {
  const trimmed = text.trim();
  let rows: unknown[];
  try {
    rows = trimmed.startsWith("[")
      ? (JSON.parse(trimmed) as unknown[])
      : trimmed
          .split("\n")
          .filter((line) => line.trim() !== "")
          .map((line) => JSON.parse(line) as unknown);
  } catch (error) {
    throw new UserError(`${file} is neither JSON Lines nor a JSON array (${(error as Error).message}).`);
  }
  return rows.map((row, index) => {
    const parsed = sampleSchema.safeParse(row);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new UserError(
        `${file}: sample ${index + 1} is not a MuSiQue question (${issue ? `${issue.path.join(".") || "sample"}: ${issue.message}` : "unknown shape"}).`,
      );
    }
    return parsed.data;
  });
}

/** A case line of the evaluation format. */
export interface MusiqueCase {
  id: string;
  question: string;
  answers: string[];
  /** "2hop", "3hop1", …: how many single-hop questions compose it. */
  type: string;
  gold: string[];
}

export interface MusiqueCorpus {
  cases: MusiqueCase[];
  /** Corpus-relative path → Markdown text. */
  documents: Map<string, string>;
}

/** A file name for a title: lower case, words joined by hyphens ("Lilu (mythology)" → "lilu-mythology"). */
const slugOf = (title: string): string =>
  title
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80) || "untitled";

/**
 * The answerable samples as cases over one corpus of every paragraph given with them. A paragraph
 * given with several questions is one document; two paragraphs under one title with different
 * texts are two ("little-league-world-series.md", "little-league-world-series-2.md").
 */
export function musiqueCorpus(samples: readonly MusiqueSample[]): MusiqueCorpus {
  const documents = new Map<string, string>();
  const pathOf = new Map<string, string>();
  const cases: MusiqueCase[] = [];
  const ids = new Set<string>();
  for (const sample of samples) {
    if (sample.answerable === false || ids.has(sample.id)) continue;
    ids.add(sample.id);
    const gold: string[] = [];
    for (const paragraph of sample.paragraphs) {
      const title = paragraph.title.trim();
      const text = paragraph.paragraph_text.trim();
      const key = `${title}\n${text}`;
      let path = pathOf.get(key);
      if (path === undefined) {
        const slug = slugOf(title);
        let candidate = `${slug}.md`;
        for (let n = 2; documents.has(candidate); n++) candidate = `${slug}-${n}.md`;
        path = candidate;
        pathOf.set(key, path);
        documents.set(path, `# ${title}\n\n${text}\n`);
      }
      if (paragraph.is_supporting && !gold.includes(path)) gold.push(path);
    }
    cases.push({
      id: sample.id,
      question: sample.question,
      answers: [...new Set([sample.answer, ...(sample.answer_aliases ?? [])].filter((answer) => answer.trim() !== ""))],
      type: sample.id.split("__")[0] ?? "",
      gold,
    });
  }
  return { cases, documents };
}
