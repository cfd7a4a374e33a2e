// Types of office-files.mjs, for the TypeScript tests that build their documents with it.
type Cell = string | number | { date: string };
type Block = { heading: string } | { text: string } | { table: string[][] };
export declare function esc(text: string): string;
export declare function zip(entries: Record<string, string | Uint8Array>, store?: string[]): Uint8Array;
export declare function docx(input: {
  title: string;
  blocks: Block[];
  extra?: Record<string, string | Uint8Array>;
}): Uint8Array;
export declare function pptx(input: {
  title: string;
  slides: { title: string; bullets: string[]; notes?: string }[];
  extra?: Record<string, string | Uint8Array>;
}): Uint8Array;
export declare function xlsx(input: { title: string; sheets: { name: string; rows: Cell[][] }[] }): Uint8Array;
export declare function odt(input: {
  title: string;
  blocks: ({ heading: string } | { text: string })[];
  encrypted?: boolean;
}): Uint8Array;
export declare function ods(input: {
  title: string;
  sheets: { name: string; rows: string[][] }[];
  trailingEmptyRows?: number;
}): Uint8Array;
export declare function epub(input: { title: string; chapters: { title: string; paragraphs: string[] }[] }): Uint8Array;
export declare function notebook(input: {
  cells: ({ markdown: string } | { code: string; output?: string })[];
}): string;
