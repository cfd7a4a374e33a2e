/**
 * E-mail messages (.eml, parsed by postal-mime): the headers a reader needs (from, to, cc,
 * date, subject) and the body as a section "message", then each text attachment a section
 * "attachment <name>". Other attachments are not read (their names are not content either).
 */
import PostalMime from "postal-mime";
import { UnreadableDocumentError } from "./archive.js";
import type { ExtractedDocument } from "./extracted-document.js";
import { SectionedText } from "./sectioned-text.js";

interface Address {
  name?: string | undefined;
  address?: string | undefined;
  group?: Address[] | undefined;
}

const addresses = (list: readonly Address[] | undefined): string =>
  (list ?? [])
    .flatMap((entry) => (entry.group ? entry.group : [entry]))
    .map((entry) =>
      entry.name && entry.address ? `${entry.name} <${entry.address}>` : entry.address || entry.name || "",
    )
    .filter(Boolean)
    .join(", ");

const TEXT_ATTACHMENT = /^text\/(plain|markdown|csv|html)$/i;

export async function extractMail(bytes: Uint8Array, fallbackTitle: string): Promise<ExtractedDocument> {
  let email: Awaited<ReturnType<typeof PostalMime.parse>>;
  try {
    email = await PostalMime.parse(bytes, { attachmentEncoding: "arraybuffer" });
  } catch (error) {
    throw new UnreadableDocumentError(`not a readable e-mail message (${(error as Error).message})`);
  }
  const { htmlFragmentText } = await import("./html-extractor.js");
  const headers = [
    ["From", addresses(email.from ? [email.from] : [])],
    ["To", addresses(email.to)],
    ["Cc", addresses(email.cc)],
    ["Date", email.date ?? ""],
    ["Subject", email.subject ?? ""],
  ]
    .filter(([, value]) => value)
    .map(([name, value]) => `${name}: ${value}`)
    .join("\n");
  const body = email.text?.trim() ? email.text : email.html ? htmlFragmentText(email.html) : "";
  const out = new SectionedText();
  out.add("message", `${headers}\n\n${body}`);
  for (const attachment of email.attachments) {
    if (!TEXT_ATTACHMENT.test(attachment.mimeType)) continue;
    const content = attachment.content;
    const raw = typeof content === "string" ? content : new TextDecoder("utf-8").decode(content as ArrayBuffer);
    const text = /html$/i.test(attachment.mimeType) ? htmlFragmentText(raw) : raw;
    out.add(`attachment ${(attachment.filename ?? "unnamed").slice(0, 100)}`, text);
  }
  return {
    title: email.subject?.trim() || fallbackTitle,
    text: out.text,
    contentType: "message/rfc822",
    sections: out.sections,
  };
}
