/**
 * The identity of a scholarly work and how a report names it (pure). A paper reached through
 * arXiv, OpenAlex or PubMed is one work: identified by its DOI when one is known, else its
 * arXiv id, else its PMID. What a provider lists about it (authors, venue, year) is discovery
 * metadata, shown as such and never cited as evidence.
 */
import type { WorkMetadata } from "../ports/search-provider.js";

/** A DOI as written anywhere (`https://doi.org/10.…`, `doi:10.…`), lower-cased and bare; undefined when it is not one. Pure. */
export function normalizeDoi(text: string | null | undefined): string | undefined {
  const match = /10\.\d{4,9}\/\S+/u.exec(text?.trim() ?? "");
  return match ? match[0].replace(/[.,;]+$/u, "").toLowerCase() : undefined;
}

/** The identity of a work: `doi:…`, else `arxiv:…`, else `pmid:…`; undefined without any. Pure. */
export function workIdentity(work: WorkMetadata | undefined): string | undefined {
  if (!work) return undefined;
  if (work.doi) return `doi:${work.doi}`;
  if (work.arxivId) return `arxiv:${work.arxivId}`;
  if (work.pmid) return `pmid:${work.pmid}`;
  return undefined;
}

/**
 * The anchor a work is kept under as a source, whichever provider led to it: its DOI's
 * resolver URL, else its arXiv abstract page, else its PubMed page. Two hits of one work
 * from two providers become one source with both provenance rows. Pure.
 */
export function workAnchor(work: WorkMetadata | undefined): string | undefined {
  if (!work) return undefined;
  if (work.doi) return `https://doi.org/${work.doi}`;
  if (work.arxivId) return `https://arxiv.org/abs/${work.arxivId}`;
  if (work.pmid) return `https://pubmed.ncbi.nlm.nih.gov/${work.pmid}/`;
  return undefined;
}

/** One work as two listings describe it: the first's fields, the second's where the first has none. Pure. */
export function mergeWorks(a: WorkMetadata | undefined, b: WorkMetadata | undefined): WorkMetadata | undefined {
  if (!a) return b;
  if (!b) return a;
  const doi = a.doi ?? b.doi;
  const arxivId = a.arxivId ?? b.arxivId;
  const pmid = a.pmid ?? b.pmid;
  const venue = a.venue ?? b.venue;
  const year = a.year ?? b.year;
  const merged: WorkMetadata = {
    ...(doi === undefined ? {} : { doi }),
    ...(arxivId === undefined ? {} : { arxivId }),
    ...(pmid === undefined ? {} : { pmid }),
    authors: a.authors.length > 0 ? a.authors : b.authors,
    ...(venue === undefined ? {} : { venue }),
    ...(year === undefined ? {} : { year }),
  };
  return merged;
}

const MAX_AUTHORS = 3;

/** "A. Vaswani, N. Shazeer, N. Parmar et al. · NeurIPS · 2017 · doi:10.48550/arxiv.1706.03762", or "" when nothing is listed. Pure. */
export function workLine(work: WorkMetadata): string {
  const authors =
    work.authors.length === 0
      ? ""
      : `${work.authors.slice(0, MAX_AUTHORS).join(", ")}${work.authors.length > MAX_AUTHORS ? " et al." : ""}`;
  return [
    authors,
    work.venue ?? "",
    work.year === undefined ? "" : String(work.year),
    work.doi ? `doi:${work.doi}` : "",
  ]
    .filter((part) => part !== "")
    .join(" · ");
}
