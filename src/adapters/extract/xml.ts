/**
 * XML of office documents and e-books as a small ordered tree, parsed with fast-xml-parser
 * after a well-formedness check. A document type declaration is refused outright (no office
 * format has one; it is how entity-expansion bombs and external entities arrive), so only the
 * five predefined entities and character references are ever expanded. Elements are matched
 * by local name (`a:p` and `w:p` are both `p`), attributes by their qualified name.
 */
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { UnreadableDocumentError } from "./archive.js";

export interface XmlElement {
  /** Qualified name as written (`a:t`). */
  name: string;
  attributes: Readonly<Record<string, string>>;
  children: XmlNode[];
}

export type XmlNode = XmlElement | string;

type Ordered = Record<string, unknown>;

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: "",
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  processEntities: true,
  htmlEntities: false,
});

/** The element's local name: `a:t` is `t`. */
export const localName = (name: string): string => name.slice(name.indexOf(":") + 1);

function toTree(nodes: readonly Ordered[]): XmlNode[] {
  const out: XmlNode[] = [];
  for (const node of nodes) {
    for (const [key, value] of Object.entries(node)) {
      if (key === ":@") continue;
      if (key === "#text") out.push(String(value));
      else if (Array.isArray(value))
        out.push({
          name: key,
          attributes: (node[":@"] as Record<string, string> | undefined) ?? {},
          children: toTree(value as Ordered[]),
        });
    }
  }
  return out;
}

/**
 * `xml` (entry `where` of a document) as a tree under a `#document` element. Throws
 * UnreadableDocumentError for malformed XML or a document type declaration.
 */
export function parseXml(xml: string, where: string): XmlElement {
  const text = xml.replace(/^\uFEFF/, "");
  if (/<!DOCTYPE/i.test(text)) throw new UnreadableDocumentError(`${where} declares a document type (refused)`);
  const valid = XMLValidator.validate(text);
  if (valid !== true)
    throw new UnreadableDocumentError(`malformed XML in ${where} (line ${valid.err.line}: ${valid.err.msg})`);
  return { name: "#document", attributes: {}, children: toTree(parser.parse(text) as Ordered[]) };
}

/** Child elements of `node` with local name `name` (any when omitted). */
export function childElements(node: XmlElement, name?: string): XmlElement[] {
  return node.children.filter(
    (child): child is XmlElement => typeof child !== "string" && (name === undefined || localName(child.name) === name),
  );
}

/** Descendant elements of `node` named `name` (local name), in document order, not below a match. */
export function findAll(node: XmlElement, name: string): XmlElement[] {
  const found: XmlElement[] = [];
  const stack: XmlNode[] = [...node.children].reverse();
  while (stack.length > 0) {
    const next = stack.pop();
    if (next === undefined || typeof next === "string") continue;
    if (localName(next.name) === name) found.push(next);
    else for (let index = next.children.length - 1; index >= 0; index--) stack.push(next.children[index] as XmlNode);
  }
  return found;
}

/** The first descendant named `name`, or undefined. */
export function findFirst(node: XmlElement, name: string): XmlElement | undefined {
  return findAll(node, name)[0];
}

/** All text below `node`, in document order. */
export function textOf(node: XmlNode): string {
  if (typeof node === "string") return node;
  let out = "";
  const stack: XmlNode[] = [node];
  while (stack.length > 0) {
    const next = stack.pop();
    if (next === undefined) continue;
    if (typeof next === "string") out += next;
    else for (let index = next.children.length - 1; index >= 0; index--) stack.push(next.children[index] as XmlNode);
  }
  return out;
}
