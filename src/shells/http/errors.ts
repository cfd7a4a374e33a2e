/** The HTTP API's error bodies: `{ error: { code, message, field? } }`, one class to throw them. */
import type { Context } from "hono";
import type { z } from "zod";

export interface ErrorBody {
  error: { code: string; message: string; field?: string };
}

/** An answer other than success: thrown by handlers, turned into its JSON body by the app's error handler. */
export class HttpError extends Error {
  readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 429 | 500 | 503;
  readonly code: string;
  readonly field: string | undefined;
  readonly headers: Record<string, string>;

  constructor(
    status: HttpError["status"],
    code: string,
    message: string,
    options: { field?: string; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = "HttpError";
    this.status = status;
    this.code = code;
    this.field = options.field;
    this.headers = options.headers ?? {};
  }
}

export function errorBody(code: string, message: string, field?: string): ErrorBody {
  return { error: { code, message, ...(field === undefined ? {} : { field }) } };
}

export function errorResponse(c: Context, error: HttpError): Response {
  for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
  return c.json(errorBody(error.code, error.message, error.field), error.status);
}

/** 404 for a run that does not exist or is another user's: the answer never reveals which. */
export function runNotFound(runId: number | string): HttpError {
  return new HttpError(404, "run_not_found", `there is no run ${runId} of yours; GET /api/runs lists them`);
}

/** `value` parsed by `schema`, or a 400 `invalid_request` naming the first wrong field (prefixed with `where`). */
export function parsed<T extends z.ZodType>(schema: T, value: unknown, where: string): z.infer<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues;
  const first = issues[0];
  const path = (issue: (typeof issues)[number]) =>
    [where, ...issue.path.map(String), ...(issue.code === "unrecognized_keys" ? issue.keys.slice(0, 1) : [])]
      .filter((part) => part !== "")
      .join(".");
  throw new HttpError(
    400,
    "invalid_request",
    issues.map((issue) => `${path(issue) || where || "body"}: ${issue.message}`).join("; "),
    first ? { field: path(first) || where || "body" } : {},
  );
}
