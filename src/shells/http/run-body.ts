/**
 * A create-run body turned into a `RunRequest` with the CLI's own resolution (`buildRequest`):
 * the same budgets, knobs, settings file and checks as `assay run`. A corpus folder must lie
 * under one of the server's corpus roots; a web run uses the server's search settings.
 */

import { realpath, stat } from "node:fs/promises";
import { basename, isAbsolute, resolve, sep } from "node:path";
import { type Budgets, DEFAULT_BUDGETS } from "../../core/budgets.js";
import { UserError } from "../../core/errors.js";
import { hybridScopeLabel } from "../../core/render/format.js";
import type { RunRequest } from "../../ports/store.js";
import type { ConfigFile } from "../cli/config-file.js";
import { buildRequest, type RunCommandOptions } from "../cli/run-request.js";
import { HttpError } from "./errors.js";
import type { CreateRunBody } from "./schemas.js";

const inside = (root: string, path: string): boolean =>
  path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);

/** The real path of `path` when it is a folder under one of `roots` (real paths); else a 400 naming `scope.path`. */
export async function allowedCorpus(path: string, roots: readonly string[]): Promise<string> {
  const field = "scope.path";
  const first = roots[0];
  if (first === undefined)
    throw new HttpError(400, "corpus_not_allowed", "this server reads no folders: start it with --corpus-root DIR", {
      field,
    });
  const outside = new HttpError(
    400,
    "corpus_not_allowed",
    `the corpus folder ${path} is outside the folders this server may read (its --corpus-root folders)`,
    { field },
  );
  const absolute = isAbsolute(path) ? resolve(path) : resolve(first, path);
  // Refused before the file system is asked: the answer says nothing of folders outside the roots.
  if (!roots.some((root) => inside(root, absolute))) throw outside;
  let real: string;
  try {
    real = await realpath(absolute);
  } catch {
    throw new HttpError(400, "invalid_request", `the corpus folder ${path} does not exist or cannot be read`, {
      field,
    });
  }
  if (!roots.some((root) => inside(root, real))) throw outside;
  if (!(await stat(real)).isDirectory())
    throw new HttpError(400, "invalid_request", `the corpus ${path} is not a folder`, { field });
  return real;
}

export function definedBudgets(budgets: NonNullable<CreateRunBody["budgets"]>): Partial<Budgets> {
  const defined: Partial<Budgets> = {};
  for (const [name, value] of Object.entries(budgets)) if (value !== undefined) defined[name as keyof Budgets] = value;
  return defined;
}

/** Which field a `buildRequest` refusal is about, from its message. */
function fieldOf(message: string): string {
  if (/--set|knob|max_iterations|investigat/i.test(message)) return "investigation";
  if (/corpus|--web|--search|environment variable/i.test(message)) return "scope";
  if (/question/.test(message)) return "question";
  const budget = Object.keys(DEFAULT_BUDGETS).find((name) => new RegExp(`\\b${name}\\b`).test(message));
  return budget === undefined ? "budgets" : `budgets.${budget}`;
}

export async function requestFromBody(
  body: CreateRunBody,
  context: {
    model: string;
    corpusRoots: readonly string[];
    file: ConfigFile | undefined;
    search?: string;
    /** The caller: a library run reads this user's library. */
    userId: string;
  },
): Promise<RunRequest> {
  const options: RunCommandOptions = {
    strategy: body.strategy,
    language: body.language,
    ...(body.budgets === undefined ? {} : { budget: definedBudgets(body.budgets) }),
    ...(body.investigation === undefined
      ? {}
      : { set: Object.entries(body.investigation).map(([name, value]) => `${name}=${value}`) }),
  };
  let label = "";
  if (body.scope.kind === "library") options.library = true;
  else if (body.scope.kind !== "web") {
    options.corpus = await allowedCorpus(body.scope.path, context.corpusRoots);
    // "." (the first root itself, as the web UI offers it) is labelled with the folder's name.
    label = body.scope.path === "." ? basename(options.corpus) : body.scope.path;
  }
  if (body.scope.kind === "web" || body.scope.kind === "hybrid") {
    options.web = true;
    // The provider's URL is the server's: a remote user may not point the server at an address of their choice.
    const provider = body.scope.provider;
    const server = context.search;
    const search = provider === undefined || server?.split(":")[0] === provider ? (server ?? provider) : provider;
    if (search !== undefined) options.search = search;
  }
  try {
    const request = await buildRequest(body.question, options, { model: context.model, file: context.file });
    if (request.scope.kind === "library") return { ...request, scope: { ...request.scope, userId: context.userId } };
    return labelled(request, label);
  } catch (error) {
    if (error instanceof UserError)
      throw new HttpError(400, "invalid_request", error.message, { field: fieldOf(error.message) });
    throw error;
  }
}

/** The request with its folder named as the user chose it (not the server's real path). */
function labelled(request: RunRequest, label: string): RunRequest {
  const { scope } = request;
  if (scope.kind === "corpus") return { ...request, scope: { ...scope, label } };
  if (scope.kind === "hybrid") {
    const corpus = { ...scope.corpus, label };
    return { ...request, scope: { ...scope, corpus, label: hybridScopeLabel(label, scope.web.label) } };
  }
  return request;
}
