/**
 * The new-research form: its fields read from a posted form, turned into the API's create-run
 * body (the same schema and checks as `POST /api/runs`), and the folders it offers.
 */
import { readdir } from "node:fs/promises";
import { basename, join } from "node:path";
import { HttpError } from "../http/errors.js";
import { EMPTY_FORM, type NewRunForm } from "./pages.js";

/** The form's fields from a parsed form body (unknown fields ignored, missing ones empty). */
export function formFields(body: Record<string, unknown>): NewRunForm {
  const text = (name: keyof NewRunForm): string => {
    const value = body[name];
    return typeof value === "string" ? value : EMPTY_FORM[name];
  };
  return {
    question: text("question"),
    scope: ((value) => (value === "web" || value === "hybrid" || value === "library" ? value : "corpus"))(
      text("scope"),
    ),
    corpus: text("corpus"),
    provider: text("provider"),
    strategy: text("strategy"),
    model: text("model").trim(),
    language: text("language").trim(),
    maxSources: text("maxSources").trim(),
    maxSearchCalls: text("maxSearchCalls").trim(),
    wallClockSeconds: text("wallClockSeconds").trim(),
  };
}

function wholeNumber(value: string, label: string, field: string): number | undefined {
  if (value === "") return undefined;
  if (!/^\d{1,9}$/.test(value))
    throw new HttpError(400, "invalid_request", `${label}: expected a whole number, got "${value}"`, { field });
  return Number(value);
}

/** The create-run body the form describes (validated afterwards by the API's schema). Pure. */
export function bodyFromForm(form: NewRunForm): Record<string, unknown> {
  const budgets: Record<string, number> = {};
  const maxSources = wholeNumber(form.maxSources, "Most sources", "budgets.maxSources");
  const maxSearchCalls = wholeNumber(form.maxSearchCalls, "Most searches", "budgets.maxSearchCalls");
  const seconds = wholeNumber(form.wallClockSeconds, "Time limit", "budgets.wallClockMs");
  if (maxSources !== undefined) budgets.maxSources = maxSources;
  if (maxSearchCalls !== undefined) budgets.maxSearchCalls = maxSearchCalls;
  if (seconds !== undefined) budgets.wallClockMs = seconds * 1000;
  if ((form.scope === "corpus" || form.scope === "hybrid") && form.corpus === "")
    throw new HttpError(400, "invalid_request", "choose a folder to research, or the web", { field: "scope.path" });
  const provider = form.provider === "" ? {} : { provider: form.provider };
  return {
    question: form.question,
    scope:
      form.scope === "web"
        ? { kind: "web", ...provider }
        : form.scope === "library"
          ? { kind: "library" }
          : form.scope === "hybrid"
            ? { kind: "hybrid", path: form.corpus, ...provider }
            : { kind: "corpus", path: form.corpus },
    strategy: form.strategy,
    ...(form.model === "" ? {} : { model: form.model }),
    language: form.language === "" ? "en" : form.language,
    ...(Object.keys(budgets).length === 0 ? {} : { budgets }),
  };
}

/**
 * The folders a corpus run may read, as the form offers them: each root's subfolders (hidden
 * ones left out), and a root itself when it holds files. Values are what `scope.path` accepts:
 * relative to the first root, absolute for the others.
 */
export async function corpusChoices(roots: readonly string[]): Promise<{ value: string; label: string }[]> {
  const choices: { value: string; label: string }[] = [];
  for (const [index, root] of roots.entries()) {
    let entries: { name: string; isDirectory(): boolean; isFile(): boolean }[];
    try {
      entries = await readdir(root, { withFileTypes: true });
    } catch {
      continue;
    }
    const value = (name: string) => (index === 0 ? name : join(root, name));
    if (entries.some((entry) => entry.isFile() && !entry.name.startsWith(".")))
      choices.push({ value: index === 0 ? "." : root, label: basename(root) });
    for (const entry of entries
      .filter((item) => item.isDirectory() && !item.name.startsWith("."))
      .sort((a, b) => a.name.localeCompare(b.name))) {
      choices.push({ value: value(entry.name), label: `${basename(root)}/${entry.name}` });
    }
  }
  return choices;
}
