/** The HTTP API's error bodies: `{ error: { code, message, field? } }`, one class to throw them. */
import type { Context } from "hono";

export interface ErrorBody {
  error: { code: string; message: string; field?: string };
}

/** An answer other than success: thrown by handlers, turned into its JSON body by the app's error handler. */
export class HttpError extends Error {
  readonly status: 400 | 401 | 404 | 409 | 413 | 429 | 500 | 503;
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
