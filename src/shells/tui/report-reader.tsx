/**
 * The report reader: the report (its Markdown projection, wrapped to the terminal) with
 * scrolling and jumps between sections, and the sources ledger (cited, then read but not cited);
 * Enter on a source opens it: its location, when it was read, and its passages.
 */
import { Box, Text, useInput } from "ink";
import { useRef, useState } from "react";
import { renderMarkdown } from "../../core/render/markdown.js";
import type { ReportDocument, SourceEntry } from "../../core/report/report-document.js";
import type { SourceRecord } from "../../ports/store.js";
import { useColor, usePoll, useTerminalSize } from "./hooks.js";
import type { TuiData } from "./tui-data.js";
import { oneLine, windowStart, wrapLines } from "./view-model.js";

/** Scrolling keys shared by the reader's panes: returns the new first line, or undefined for another key. */
function scrolled(
  input: string,
  key: { upArrow: boolean; downArrow: boolean; pageUp: boolean; pageDown: boolean },
  top: number,
  height: number,
  total: number,
): number | undefined {
  const last = Math.max(0, total - height);
  if (key.downArrow || input === "j") return Math.min(last, top + 1);
  if (key.upArrow || input === "k") return Math.max(0, top - 1);
  if (key.pageDown || input === " ") return Math.min(last, top + height);
  if (key.pageUp) return Math.max(0, top - height);
  if (input === "g") return 0;
  if (input === "G") return last;
  return undefined;
}

type Pane = "report" | "sources";

export function ReportReader(props: { data: TuiData; runId: number; onBack: () => void; onQuit: () => void }) {
  const { columns, rows } = useTerminalSize();
  const color = useColor();
  const { value, error } = usePoll(async () => {
    const run = await props.data.run(props.runId);
    return run ? await props.data.report(run) : undefined;
  }, 2000);
  const [pane, setPane] = useState<Pane>("report");
  const [top, setTop] = useState(0);
  const [cursor, setCursor] = useState(0);
  const listTop = useRef(0);
  const [opened, setOpened] = useState<SourceEntry | undefined>(undefined);
  const height = Math.max(1, rows - 3);

  const document = value?.document;
  const lines = document ? wrapLines(renderMarkdown(document).trimEnd(), columns) : [];
  const headings = lines.flatMap((line, index) => (/^#{1,3} /.test(line) ? [index] : []));
  const ledger: { entry: SourceEntry; cited: boolean }[] = document
    ? [
        ...document.sources.map((entry) => ({ entry, cited: true })),
        ...document.reviewedSources.map((entry) => ({ entry, cited: false })),
      ]
    : [];

  useInput(
    (input, key) => {
      if (input === "q") return props.onQuit();
      if (key.escape || input === "b") return props.onBack();
      if (key.tab || input === "s") return setPane(pane === "report" ? "sources" : "report");
      if (pane === "report") {
        const next = scrolled(input, key, top, height, lines.length);
        if (next !== undefined) return setTop(next);
        if (input === "n") setTop(headings.find((line) => line > top) ?? top);
        if (input === "p") setTop([...headings].reverse().find((line) => line < top) ?? 0);
        return;
      }
      if (key.downArrow || input === "j") setCursor((at) => Math.min(ledger.length - 1, at + 1));
      else if (key.upArrow || input === "k") setCursor((at) => Math.max(0, at - 1));
      else if (key.return)
        setCursor((at) => {
          const chosen = ledger[at];
          if (chosen) setOpened(chosen.entry);
          return at;
        });
    },
    { isActive: opened === undefined },
  );

  if (opened)
    return (
      <SourceView
        data={props.data}
        runId={props.runId}
        entry={opened}
        onBack={() => setOpened(undefined)}
        onQuit={props.onQuit}
      />
    );

  const tabs = (
    <Text wrap="truncate">
      <Text inverse={pane === "report"}> Report </Text>{" "}
      <Text inverse={pane === "sources"}> Sources ({ledger.length}) </Text>
      <Text dimColor>{value ? `  version ${value.version}` : ""}</Text>
    </Text>
  );
  if (!document)
    return (
      <Box flexDirection="column" width={columns} height={rows}>
        {tabs}
        <Text>
          {error
            ? `Cannot read the report: ${error}`
            : value === undefined
              ? "Loading…"
              : "No report is published yet."}
        </Text>
        <Box flexGrow={1} />
        <Text dimColor>Esc back · q quit</Text>
      </Box>
    );
  const listHeight = height;
  const selected = Math.min(cursor, Math.max(0, ledger.length - 1));
  const listStart = windowStart(selected, listHeight, ledger.length, listTop.current);
  listTop.current = listStart;
  const scrollTop = Math.min(top, Math.max(0, lines.length - height));
  return (
    <Box flexDirection="column" width={columns} height={rows}>
      {tabs}
      <Box flexDirection="column" height={height}>
        {pane === "report"
          ? lines.slice(scrollTop, scrollTop + height).map((line, index) => (
              <Text
                key={`${scrollTop + index}`}
                wrap="truncate"
                bold={/^#{1,3} /.test(line)}
                {...color(/^#{1,3} /.test(line) ? "cyan" : undefined)}
              >
                {line === "" ? " " : line}
              </Text>
            ))
          : ledger.slice(listStart, listStart + listHeight).map(({ entry, cited }, index) => {
              const mine = listStart + index === selected;
              return (
                <Text key={entry.id} inverse={mine} wrap="truncate">
                  {oneLine(
                    `${mine ? "›" : " "}[${entry.number}] ${cited ? "" : "(not cited) "}${entry.title} — ${entry.url ?? entry.path ?? ""}`,
                    columns,
                  )}
                </Text>
              );
            })}
      </Box>
      <Text dimColor wrap="truncate">
        {pane === "report"
          ? `${Math.min(lines.length, scrollTop + height)}/${lines.length} · ↑↓ PgUp PgDn g G scroll · n/p next/previous section · Tab sources · Esc back · q quit`
          : "↑↓ select · Enter open the source · Tab report · Esc back · q quit"}
      </Text>
    </Box>
  );
}

/** One source: title, location, when it was read, and its passages as stored, scrollable. */
function SourceView(props: {
  data: TuiData;
  runId: number;
  entry: SourceEntry;
  onBack: () => void;
  onQuit: () => void;
}) {
  const { columns, rows } = useTerminalSize();
  const { value: source, error } = usePoll<SourceRecord | undefined>(
    () => props.data.source(props.runId, props.entry.id),
    60_000,
    false,
  );
  const [top, setTop] = useState(0);
  const height = Math.max(1, rows - 4);
  const lines = source
    ? source.chunks.flatMap((chunk) => [
        ...wrapLines(`[passage ${chunk.seq}] ${chunk.text.replace(/\s+/g, " ").trim()}`, columns),
        "",
      ])
    : [];
  useInput((input, key) => {
    if (input === "q") return props.onQuit();
    if (key.escape || input === "b") return props.onBack();
    const next = scrolled(input, key, top, height, lines.length);
    if (next !== undefined) setTop(next);
  });
  const where = props.entry.url ?? props.entry.path ?? "";
  return (
    <Box flexDirection="column" width={columns} height={rows}>
      <Text bold wrap="truncate">
        [{props.entry.number}] {props.entry.title}
      </Text>
      <Text dimColor wrap="truncate">
        {oneLine(`${where} · read ${props.entry.capturedAt}`, columns)}
      </Text>
      <Box flexDirection="column" height={height}>
        {error ? <Text>Cannot read the source: {error}</Text> : null}
        {source === undefined && !error ? <Text>Loading…</Text> : null}
        {lines.slice(top, top + height).map((line, index) => (
          <Text key={`${top + index}`} wrap="truncate">
            {line === "" ? " " : line}
          </Text>
        ))}
      </Box>
      <Text dimColor wrap="truncate">
        {`${Math.min(lines.length, top + height)}/${lines.length} · ↑↓ PgUp PgDn g G scroll · Esc back to the report · q quit`}
      </Text>
    </Box>
  );
}
