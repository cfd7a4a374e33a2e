/**
 * HTML projection of a ReportDocument (pure): one self-contained page, all text escaped,
 * no script, a strict Content-Security-Policy, readable on a phone and printable.
 */
import type { Citation, Quote, ReportDocument, SourceEntry, Verification } from "../report/report-document.js";
import {
  answerEntries,
  citationLabel,
  citationText,
  type EvidencedItem,
  type EvidenceNote,
  evidenceNotes,
  evidenceRemark,
  findingList,
  lineageText,
  passageName,
  quotedPlaces,
  quotePlace,
  quoteText,
  readableTime,
  spokenList,
  textFragmentUrl,
  VERIFICATION_LABEL,
  verificationLines,
  verificationSummary,
} from "./format.js";

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

const SAFE_URL = /^https?:\/\//i;

/** The report's stylesheet (the web UI serves it too, with its own rules after it). */
export const REPORT_STYLE = `
:root{color-scheme:light dark;--fg:#1b1b1b;--muted:#5b5b5b;--bg:#fff;--card:#f6f6f3;--rule:#ddd;--accent:#0b5cad}
@media (prefers-color-scheme:dark){:root{--fg:#e8e8e8;--muted:#a8a8a8;--bg:#151515;--card:#1f1f1f;--rule:#333;--accent:#7fb2ff}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.6 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:46rem;margin:0 auto;padding:1.5rem 1rem 3rem}
h1{font-size:1.6rem;line-height:1.25;margin:.5rem 0 1rem;overflow-wrap:anywhere}
h2{font-size:1.2rem;margin:2rem 0 .75rem;border-bottom:1px solid var(--rule);padding-bottom:.25rem}
h3{font-size:1.05rem;margin:1.25rem 0 .25rem;overflow-wrap:anywhere}
.notice{background:var(--card);border-left:4px solid var(--accent);padding:.75rem 1rem;margin:1rem 0}
.meta,.where{color:var(--muted);font-size:.9rem;overflow-wrap:anywhere}
blockquote{margin:.5rem 0 1rem;padding:.5rem 1rem;background:var(--card);border-radius:4px}
blockquote p{margin:0 0 .25rem}
p{overflow-wrap:anywhere}
blockquote footer{color:var(--muted);font-size:.85rem}
code{font-size:.9em;overflow-wrap:anywhere}
ol,ul{padding-left:1.5rem}
li{margin:.25rem 0;overflow-wrap:anywhere}
a{color:var(--accent)}
.cite{font-size:.85em;white-space:nowrap}.basis,.conditions,.related{color:var(--muted)}.recommendation{border-left:3px solid var(--accent);padding-left:.5rem;list-style:none}.produced-by{color:var(--muted)}
.verification{color:var(--muted);font-size:.9rem;margin:.15rem 0 .5rem;padding-left:1.25rem}.status-contested{color:#b35900}.status-unverified{color:var(--muted)}
.evidence{margin:.25rem 0 .5rem}.evidence summary{cursor:pointer;color:var(--accent);font-size:.9rem;overflow-wrap:anywhere}.evidence summary:focus-visible{outline:2px solid var(--accent);outline-offset:2px}
.evidence blockquote{margin:.35rem 0;font-size:.95rem}.evidence[data-role="contradicting"] summary,.evidence-label.contradicting{color:#b35900}.remark{color:var(--muted);font-size:.85rem;margin:.25rem 0}
.evidence-print{display:none}.evidence-label{font-size:.9rem;margin:.25rem 0 0}.quoted-at{color:var(--muted);font-size:.9rem}
@media print{body{font-size:11pt;background:#fff;color:#000}main{max-width:none;padding:0}.notice,blockquote{background:none;border:1px solid #999}a{color:#000}a[href]::after{content:" (" attr(href) ")";font-size:.85em}a.cite::after,a.open-at::after,.evidence-print a::after{content:none}h2,h3{break-after:avoid}blockquote{break-inside:avoid}details.evidence{display:none}.evidence-print{display:block}}
`;

/** Whether `url` may be a link's target: http(s) only (never `javascript:`, `data:`, a path). */
export const isSafeUrl = (url: string): boolean => SAFE_URL.test(url);

/** A link to `href` (already checked); one that leaves the page shares nothing with where it goes. */
function link(href: string, label: string, options: { className?: string; external: boolean }): string {
  const className = options.className ? ` class="${options.className}"` : "";
  const rel = options.external ? ' rel="noopener noreferrer nofollow"' : "";
  return `<a${className} href="${escapeHtml(href)}"${rel}>${escapeHtml(label)}</a>`;
}

/** A source's location as the pages show it: an http(s) URL as a link, anything else (a path) as code, "" as nothing. */
export function locationHtml(location: string): string {
  if (location === "") return "";
  if (isSafeUrl(location)) return link(location, location, { external: true });
  return `<code>${escapeHtml(location)}</code>`;
}

const location = (source: SourceEntry): string => locationHtml(source.url ?? source.path ?? "");

/** How a page that shows a report links into Assay's stored copy of a source (the web UI's source view). */
export interface ReportLinks {
  /** The address of source `number`'s stored text, at `passage` when given. */
  sourceView?: (number: number, passage?: number) => string;
}

/**
 * Where a quote can be opened: the web UI's stored copy at the passage, else a web source's
 * page at the quoted words (a text fragment), else nowhere (a corpus file in a standalone page).
 */
function openAt(source: SourceEntry, quotes: readonly Quote[], links: ReportLinks): string | undefined {
  const [first] = quotes;
  if (links.sourceView) return links.sourceView(source.number, first?.passage);
  if (source.url !== undefined && isSafeUrl(source.url) && first) return textFragmentUrl(source.url, quotes);
  return undefined;
}

/** A cited source's line in the sources list: where the report quotes it, and a link there when there is one. */
function quotedAt(source: SourceEntry, quotes: readonly Quote[] | undefined, links: ReportLinks): string {
  if (!quotes || quotes.length === 0) return "";
  const href = openAt(source, quotes, links);
  const places = spokenList(quotes.map(quotePlace));
  const open = href
    ? ` ${link(href, "open at the quoted words", { className: "open-at", external: !links.sourceView })}`
    : "";
  return ` <span class="quoted-at">· quoted from <span class="places">${escapeHtml(places)}</span>${open}</span>`;
}

function sourceItem(source: SourceEntry, quotes: readonly Quote[] | undefined, links: ReportLinks): string {
  const view =
    links.sourceView && !quotes?.length
      ? ` ${link(links.sourceView(source.number), "the text read", { className: "open-at", external: false })}`
      : "";
  return `<li id="source-${source.number}" value="${source.number}"><span class="title">${escapeHtml(source.title)}</span> — <span class="where">${location(source)}</span> <span class="meta">(read <time datetime="${escapeHtml(source.capturedAt)}">${escapeHtml(readableTime(source.capturedAt))}</time>${source.listedAs === undefined ? "" : `; <span class="listed" title="as a search listed it: discovery metadata, not evidence">listed as: ${escapeHtml(source.listedAs)}</span>`})</span>${quotedAt(source, quotes, links)}${view}</li>`;
}

/**
 * One citation's evidence: its quotes (each a blockquote whose footer names the passage and
 * links to it) and what the limits left out. The same markup goes in the disclosure and in
 * the block printed instead of it.
 */
function evidenceContent(note: EvidenceNote, source: SourceEntry | undefined, links: ReportLinks): string {
  const open = (quotes: readonly Quote[]): string => {
    const href = source ? openAt(source, quotes, links) : undefined;
    return href ? ` · ${link(href, "open at these words", { className: "open-at", external: !links.sourceView })}` : "";
  };
  const quotes = note.verbatim
    ? []
    : note.evidence.quotes.map(
        (quote) =>
          `<blockquote><p>${escapeHtml(quoteText(quote))}</p><footer><a href="#source-${note.citation.number}">[${note.citation.number}]</a> ${escapeHtml(quotePlace(quote))}${open([quote])}</footer></blockquote>`,
      );
  const remark = evidenceRemark(note);
  const remarkOpen = note.verbatim ? open(note.evidence.quotes) : "";
  return `${quotes.join("")}${remark ? `<p class="remark">${escapeHtml(remark)}${remarkOpen}</p>` : ""}`;
}

/** The report's content (what goes inside `<main>`): title, notice, findings, …, sources. Pure. */
export function reportBody(doc: ReportDocument, links: ReportLinks = {}): string {
  const byId = new Map([...doc.sources, ...doc.reviewedSources].map((source) => [source.id, source]));
  const places = quotedPlaces(doc);
  const body: string[] = [
    `<h1>${escapeHtml(doc.title)}</h1>`,
    `<p class="notice" data-status="${escapeHtml(doc.status)}">${escapeHtml(doc.notice)}</p>`,
    ...(doc.question === doc.title
      ? []
      : [`<p class="question"><strong>Question:</strong> ${escapeHtml(doc.question)}</p>`]),
    `<p class="boundary"><strong>Evidence scope:</strong> ${escapeHtml(doc.boundary.statement)}</p>`,
  ];
  const lineage = lineageText(doc);
  if (lineage) body.push(`<p class="lineage"><strong>Continues:</strong> ${escapeHtml(lineage.lead)}</p>`);
  if (doc.producedBy) body.push(`<p class="produced-by"><em>${escapeHtml(doc.producedBy)}</em></p>`);
  const summary = verificationSummary(doc);
  if (summary) body.push(`<p class="verification-summary"><strong>${escapeHtml(summary)}</strong></p>`);
  if (lineage)
    body.push(
      `<section id="changes"><h2>${escapeHtml(lineage.heading)}</h2><ul>${lineage.lines.map((line) => `<li>${escapeHtml(line)}</li>`).join("")}</ul></section>`,
    );
  // One link per source cited, so that each source a finding names can be opened.
  const cite = (citations: readonly Citation[]): string => {
    const [first] = citations;
    if (citations.length <= 1) {
      const target = first ? `#source-${first.number}` : "#sources";
      return `<a class="cite" href="${target}">${escapeHtml(citationText(citations))}</a>`;
    }
    const links = citations.map(
      (citation) => `<a class="cite" href="#source-${citation.number}">${escapeHtml(citationLabel(citation))}</a>`,
    );
    return `<span class="cites">[${links.join("; ")}]</span>`;
  };
  const label = (item: { verification: Verification }): string => {
    const word = VERIFICATION_LABEL[item.verification.status];
    return word ? `<strong class="status status-${item.verification.status}">${word}:</strong> ` : "";
  };
  const checked = (verification: Verification): string => {
    const lines = verificationLines(verification);
    if (lines.length === 0) return "";
    const items = lines.map((line) => {
      const cited = line.citations.length > 0 ? ` ${cite(line.citations)}` : "";
      return `<li>${escapeHtml(line.lead)}${cited}</li>`;
    });
    return `<ul class="verification">${items.join("")}</ul>`;
  };
  // Each citation's evidence as a disclosure (closed on screen), and all of them printed open.
  const evidence = (item: EvidencedItem): string => {
    const notes = evidenceNotes(item);
    if (notes.length === 0) return "";
    const parts = notes.map((note) => ({
      head: `${escapeHtml(note.label)} ${escapeHtml(citationText([note.citation]))}`,
      content: evidenceContent(note, byId.get(note.citation.sourceId), links),
      role: note.role,
    }));
    const disclosures = parts.map(
      (part) =>
        `<details class="evidence" data-role="${part.role}"><summary>${part.head}</summary>${part.content}</details>`,
    );
    const printed = parts.map(
      (part) =>
        `<p class="evidence-label${part.role === "contradicting" ? " contradicting" : ""}">${part.head}</p>${part.content}`,
    );
    return `${disclosures.join("")}<div class="evidence-print">${printed.join("")}</div>`;
  };
  const finding = (item: ReportDocument["findings"][number]): string => {
    const basis =
      item.kind === "derivation"
        ? ` <span class="basis">(derived from ${findingList(item.basedOn)}${item.method ? `: ${escapeHtml(item.method)}` : ""})</span>`
        : "";
    return `<li value="${item.number}" data-kind="${item.kind}" data-verification="${item.verification.status}">${label(item)}<span class="text">${escapeHtml(item.text)}</span>${basis} ${cite(item.citations)}${checked(item.verification)}${evidence(item)}</li>`;
  };
  const answers = answerEntries(doc);
  if (answers.length > 0) {
    const entry = (item: (typeof answers)[number]): string => {
      const related =
        item.relatedSources.length > 0
          ? ` (see ${item.relatedSources.map((n) => `<a href="#source-${n}">[${n}]</a>`).join(", ")})`
          : "";
      const statement = item.statement ? ` <span class="statement">${escapeHtml(item.statement)}</span>${related}` : "";
      const lines = item.lines.map((line) => {
        const marked = line.mark ? `<mark>${escapeHtml(line.mark)}</mark>` : "";
        const word = line.label ? `<strong class="label">${escapeHtml(line.label)}:</strong> ` : "";
        const against = line.against.map(
          (side) =>
            `<li class="against">${escapeHtml(side.lead)} “${escapeHtml(side.text)}” ${cite([side.citation])}</li>`,
        );
        return `<li><span class="lead">${escapeHtml(line.lead)}</span> ${word}${escapeHtml(line.before)}${marked}${escapeHtml(line.after)} ${cite(line.citations)}${against.length > 0 ? `<ul>${against.join("")}</ul>` : ""}</li>`;
      });
      return `<li><strong class="asked">${escapeHtml(item.asked)}</strong>${statement}${lines.length > 0 ? `<ul>${lines.join("")}</ul>` : ""}</li>`;
    };
    body.push(`<section id="answer"><h2>Answer</h2><ul class="answer">${answers.map(entry).join("")}</ul></section>`);
  }
  if (doc.directFindings.length > 0) {
    body.push(
      `<section id="direct-findings"><h2>Direct findings</h2><ol>${doc.directFindings.map(finding).join("")}</ol></section>`,
    );
  }
  if (doc.findings.length > 0) {
    body.push(
      `<section id="findings"><h2>Further findings</h2><ol>${doc.findings.map(finding).join("")}</ol></section>`,
    );
  }
  if (doc.recommendations.length > 0) {
    body.push(`<section id="recommendations"><h2>Recommendations</h2><ul>`);
    for (const item of doc.recommendations) {
      const conditions =
        item.conditions.length > 0
          ? ` <span class="conditions">When: ${item.conditions.map(escapeHtml).join("; ")}.</span>`
          : "";
      body.push(
        `<li class="recommendation" data-verification="${item.verification.status}"><strong>Recommendation:</strong> ${label(item)}<span class="text">${escapeHtml(item.text)}</span> <span class="basis">(based on ${findingList(item.basedOn)}).</span>${conditions} ${cite(item.citations)}${checked(item.verification)}${evidence(item)}</li>`,
      );
    }
    body.push(`</ul></section>`);
  }
  if (doc.gaps.length > 0) {
    body.push(`<section id="gaps"><h2>Gaps</h2><ul>`);
    for (const gap of doc.gaps) {
      const related =
        gap.relatedSources.length > 0
          ? ` <span class="related">(related: ${gap.relatedSources.map((n) => `<a href="#source-${n}">[${n}]</a>`).join(", ")})</span>`
          : "";
      body.push(`<li><span class="text">${escapeHtml(gap.text)}</span>${related}</li>`);
    }
    body.push(`</ul></section>`);
  }
  if (doc.sourceCards.length > 0) {
    body.push(`<section id="excerpts"><h2>Source excerpts</h2>`);
    for (const card of doc.sourceCards) {
      const source = byId.get(card.sourceId);
      if (source === undefined) continue;
      body.push(`<article class="card" data-source="${source.number}">`);
      body.push(`<h3>[${source.number}] ${escapeHtml(source.title)}</h3>`);
      body.push(
        `<p class="where">${location(source)} · read <time datetime="${escapeHtml(source.capturedAt)}">${escapeHtml(readableTime(source.capturedAt))}</time></p>`,
      );
      for (const excerpt of card.excerpts) {
        body.push(
          `<blockquote><p>${escapeHtml(quoteText(excerpt))}</p><footer>${escapeHtml(passageName(excerpt))} <a href="#source-${source.number}">[${source.number}]</a>${links.sourceView ? ` · ${link(links.sourceView(source.number, excerpt.passage), "open at the passage", { className: "open-at", external: false })}` : ""}</footer></blockquote>`,
        );
      }
      body.push(`</article>`);
    }
    body.push(`</section>`);
  }
  if (doc.acquisitionBoundaries.length > 0) {
    body.push(`<section id="limits"><h2>Limits of this research</h2><ul>`);
    for (const line of doc.acquisitionBoundaries) body.push(`<li>${escapeHtml(line)}</li>`);
    body.push(`</ul></section>`);
  }
  body.push(`<section id="searches"><h2>Searches run</h2>`);
  if (doc.attemptedQueries.length === 0) body.push(`<p>No search was run.</p>`);
  else body.push(`<ul>${doc.attemptedQueries.map((query) => `<li>${escapeHtml(query)}</li>`).join("")}</ul>`);
  body.push(`</section>`);
  if (doc.sources.length > 0) {
    body.push(
      `<section id="sources"><h2>Sources</h2><ol>${doc.sources.map((source) => sourceItem(source, places.get(source.id), links)).join("")}</ol></section>`,
    );
  }
  if (doc.reviewedSources.length > 0) {
    body.push(
      `<section id="reviewed"><h2>Also read (not cited)</h2><ol>${doc.reviewedSources.map((source) => sourceItem(source, undefined, links)).join("")}</ol></section>`,
    );
  }
  body.push(
    `<footer class="meta"><p>Generated by Assay on <time datetime="${escapeHtml(doc.generatedAt)}">${escapeHtml(readableTime(doc.generatedAt))}</time>.</p></footer>`,
  );

  return body.join("\n");
}

/** Renders `doc` as a complete HTML page. Pure. */
export function renderHtml(doc: ReportDocument): string {
  return [
    "<!DOCTYPE html>",
    `<html lang="${escapeHtml(doc.language)}">`,
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; base-uri 'none'; form-action 'none'">`,
    '<meta name="referrer" content="no-referrer">',
    `<title>${escapeHtml(doc.title)}</title>`,
    `<style>${REPORT_STYLE}</style>`,
    "</head>",
    `<body><main>`,
    reportBody(doc),
    "</main></body>",
    "</html>",
    "",
  ].join("\n");
}
