/**
 * Turns a model's text reply into a schema-checked value. Pure; never throws.
 *
 * The reply may be a bare JSON object, one inside a ```json fence, or one surrounded by
 * prose (and by a `<think>` block from reasoning models). The value is then checked
 * against the zod wire schema; nothing is cast.
 */
import type { z } from "zod";
import { err, ok, type Result } from "../../../core/result.js";

const MAX_CANDIDATES = 20;
const MAX_ISSUES = 12;

/** JSON.parse behind a Result. */
export function safeParseJson(text: string): Result<unknown> {
  try {
    return ok(JSON.parse(text));
  } catch (error) {
    return err(`invalid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The index just past the `}` that closes the object opening at `start`, or -1. */
function closingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index += 1) {
    const character = text[index];
    if (inString) {
      if (character === "\\") index += 1;
      else if (character === '"') inString = false;
    } else if (character === '"') inString = true;
    else if (character === "{") depth += 1;
    else if (character === "}") {
      depth -= 1;
      if (depth === 0) return index + 1;
    }
  }
  return -1;
}

function candidates(text: string): string[] {
  const found: string[] = [];
  const trimmed = text.trim();
  if (trimmed.startsWith("{")) found.push(trimmed);
  for (const fence of trimmed.matchAll(/```[A-Za-z]*[^\S\n]*\n([\s\S]*?)```/g)) {
    const body = fence[1]?.trim();
    if (body) found.push(body);
  }
  for (let start = trimmed.indexOf("{"); start >= 0 && found.length < MAX_CANDIDATES; ) {
    const end = closingBrace(trimmed, start);
    if (end < 0) break;
    found.push(trimmed.slice(start, end));
    start = trimmed.indexOf("{", start + 1);
  }
  return found;
}

/** The first JSON object found in `text`: bare, fenced or inside prose. */
export function extractJsonObject(text: string): Result<Record<string, unknown>> {
  const withoutThinking = text.replace(/<think>[\s\S]*?<\/think>/gi, "");
  let firstProblem: string | undefined;
  for (const candidate of candidates(withoutThinking)) {
    const parsed = safeParseJson(candidate);
    if (parsed.ok && isPlainObject(parsed.value)) return ok(parsed.value);
    firstProblem ??= parsed.ok ? "the JSON value is not an object" : parsed.error;
  }
  if (withoutThinking.trim() === "") return err("the reply was empty");
  return err(firstProblem ?? "the reply contains no JSON object");
}

/**
 * Removes object properties whose value is null, recursively: strict structured-output
 * modes require every property, so optional ones arrive as null. Pure.
 */
export function dropNullProperties(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropNullProperties);
  if (!isPlainObject(value)) return value;
  const entries = Object.entries(value).filter(([, property]) => property !== null);
  return Object.fromEntries(entries.map(([key, property]) => [key, dropNullProperties(property)]));
}

function issuePath(path: readonly PropertyKey[]): string {
  let text = "";
  for (const segment of path) {
    text += typeof segment === "number" ? `[${segment}]` : text === "" ? String(segment) : `.${String(segment)}`;
  }
  return text === "" ? "(root)" : text;
}

/** A short, line-per-issue description of a validation failure, for logs and the repair round. */
export function describeIssues(error: z.ZodError): string {
  const lines = error.issues.slice(0, MAX_ISSUES).map((issue) => `- ${issuePath(issue.path)}: ${issue.message}`);
  const more = error.issues.length - MAX_ISSUES;
  return more > 0 ? [...lines, `- and ${more} more`].join("\n") : lines.join("\n");
}

/** The reply parsed and validated against `schema`. */
export function parseReply<T>(text: string, schema: z.ZodType<T>): Result<T> {
  const extracted = extractJsonObject(text);
  if (!extracted.ok) return extracted;
  const checked = schema.safeParse(dropNullProperties(extracted.value));
  if (!checked.success) return err(`the JSON object does not match the schema:\n${describeIssues(checked.error)}`);
  return ok(checked.data);
}
