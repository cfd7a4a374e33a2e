/**
 * The Atom feed arXiv returns for `GET /api/query`, per its API user manual
 * (info.arxiv.org/help/api/user-manual.html, "The API Response" and "Errors"): a `feed` of
 * `entry` elements, each with `id` (its abstract page, `http://arxiv.org/abs/<id>v<n>`),
 * `title`, `summary` (the abstract), `published` (the first version), `updated`, `author`s
 * with a `name`, `link`s (abstract page, PDF, DOI) and arXiv's extension elements
 * (`arxiv:doi`, `arxiv:journal_ref`, `arxiv:comment`, `arxiv:primary_category`). A search
 * that finds nothing is a feed without entries.
 *
 * The feed is parsed with fast-xml-parser after a well-formedness check, namespace prefixes
 * removed (`arxiv:doi` is `doi`, whichever prefix the feed binds) and every value kept as
 * text (an id like `2202.12139` is not a number). Only the fields Assay reads are checked.
 *
 * A refused query is a feed whose single entry has an id under `https://arxiv.org/api/errors`
 * and the title "Error", with the message in `summary`; arXiv sends it with HTTP 400 today and
 * sent it with HTTP 200 before.
 */
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { z } from "zod";

/**
 * An element's text: a string, or the `#text` of an element that also has attributes
 * (`<title type="html">…</title>`); an element with attributes only reads as "".
 */
const text = z.union([
  z.string(),
  z.object({ "#text": z.string().optional() }).transform((node) => node["#text"] ?? ""),
]);

export const arxivEntrySchema = z.object({
  id: text,
  title: text.optional(),
  summary: text.optional(),
  published: text.optional(),
  author: z.array(z.object({ name: text.optional() })).optional(),
  doi: text.optional(),
  journal_ref: text.optional(),
});

export type ArxivEntry = z.infer<typeof arxivEntrySchema>;

export const arxivFeedSchema = z.object({
  feed: z.object({ entry: z.array(arxivEntrySchema).optional() }),
});

export type ArxivFeed = z.infer<typeof arxivFeedSchema>;

/** The elements that may repeat, always read as arrays (one entry, one author, one link alike). */
const REPEATED = new Set(["feed.entry", "feed.entry.author", "feed.entry.link"]);

/** An Atom document as the schemas above read it; throws on a body that is not well-formed XML. */
export function parseAtom(body: string): unknown {
  const valid = XMLValidator.validate(body);
  if (valid !== true) throw new Error(`${valid.err.msg} (line ${valid.err.line})`);
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "@_",
    removeNSPrefix: true,
    parseTagValue: false,
    parseAttributeValue: false,
    isArray: (_name, path) => typeof path === "string" && REPEATED.has(path),
  });
  return parser.parse(body);
}

const ABSTRACT_PAGE =
  /^https?:\/\/(?:www\.|export\.)?arxiv\.org\/abs\/(\d{4}\.\d{4,5}|[a-z]+(?:-[a-z]+)*(?:\.[A-Z]{2})?\/\d{7})(?:v\d+)?$/;

/**
 * The arXiv id in an abstract page's URL, without its version: new-style `2202.12139` (four
 * digits, a dot, four or five digits) or old-style `hep-th/9901001` (an archive, optionally
 * with a subject class as in `math.GT/0309136`, a slash and seven digits); undefined for any
 * other URL. Pure.
 */
export function arxivIdOf(url: string): string | undefined {
  const match = ABSTRACT_PAGE.exec(url.trim());
  return match?.[1];
}

/** The single entry of an error feed: its id, title and message. */
const arxivErrorFeedSchema = z.object({
  feed: z.object({
    entry: z.tuple([z.object({ id: text, title: text.optional(), summary: text.optional() })]),
  }),
});

const ERROR_ID = /^https?:\/\/(?:export\.)?arxiv\.org\/api\/errors(?:#|$)/;

/**
 * What an error feed says ("incorrect id format for abc"), or undefined for any other
 * document. Its entry counts when the id is under `/api/errors`, or when it is titled "Error"
 * and its id is not an abstract page; an error entry with neither a message nor that title
 * (which older releases sent for an empty result) says nothing. Pure.
 */
export function arxivErrorMessage(document: unknown): string | undefined {
  const parsed = arxivErrorFeedSchema.safeParse(document);
  if (!parsed.success) return undefined;
  const [entry] = parsed.data.feed.entry;
  const id = entry.id.trim();
  const titled = entry.title?.trim() === "Error";
  if (!ERROR_ID.test(id) && !(titled && arxivIdOf(id) === undefined)) return undefined;
  const message = entry.summary?.trim() ?? "";
  if (message !== "") return message;
  return titled ? "no reason given" : undefined;
}
