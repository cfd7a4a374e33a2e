/**
 * The report reader: the report (its Markdown projection, wrapped to the terminal) with
 * scrolling and jumps between sections, and the sources ledger (cited, then read but not cited);
 * Enter on a source opens it: its location, when it was read, and its passages.
 */
import { Box, Text } from "ink";
import { quotedPlaces } from "../../core/render/format.js";
import { renderMarkdown } from "../../core/render/markdown.js";
import type { SourceEntry } from "../../core/report/report-document.js";
import type { SourceRecord } from "../../ports/store.js";
import { useColor, useKeyState, useKeys, usePoll, useTerminalSize } from "./hooks.js";
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
  const [view, update] = useKeyState(() => ({
    pane: "report" as Pane,
    top: 0,
    cursor: 0,
    listTop: 0,
    opened: undefined as SourceEntry | undefined,
    lines: 0,
    headings: [] as number[],
    ledger: [] as SourceEntry[],
  }));
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

  view.lines = lines.length;
  view.headings = headings;
  view.ledger = ledger.map((item) => item.entry);

  useKeys(
    (input, key) => {
      if (input === "q") return props.onQuit();
      if (key.escape || input === "b") return props.onBack();
      if (key.tab || input === "s")
        return update((state) => {
          state.pane = state.pane === "report" ? "sources" : "report";
        });
      if (view.pane === "report") {
        const next = scrolled(input, key, view.top, height, view.lines);
        const section =
          input === "n"
            ? (view.headings.find((line) => line > view.top) ?? view.top)
            : input === "p"
              ? ([...view.headings].reverse().find((line) => line < view.top) ?? 0)
              : undefined;
        const to = next ?? section;
        if (to !== undefined)
          update((state) => {
            state.top = to;
          });
        return;
      }
      const last = Math.max(0, view.ledger.length - 1);
      if (key.downArrow || input === "j")
        update((state) => {
          state.cursor = Math.min(last, state.cursor + 1);
        });
      else if (key.upArrow || input === "k")
        update((state) => {
          state.cursor = Math.max(0, state.cursor - 1);
        });
      else if (key.return)
        update((state) => {
          state.opened = state.ledger[Math.min(state.cursor, last)];
        });
    },
    { isActive: view.opened === undefined },
  );
  const { pane, top, cursor, opened } = view;

  if (opened)
    return (
      <SourceView
        data={props.data}
        runId={props.runId}
        entry={opened}
        quoted={new Set((document ? (quotedPlaces(document).get(opened.id) ?? []) : []).map((quote) => quote.passage))}
        onBack={() =>
          update((state) => {
            state.opened = undefined;
          })
        }
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
      <Box flexDirection="column" width={columns} height={rows - 1}>
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
  const listStart = windowStart(selected, listHeight, ledger.length, view.listTop);
  view.listTop = listStart;
  const scrollTop = Math.min(top, Math.max(0, lines.length - height));
  return (
    <Box flexDirection="column" width={columns} height={rows - 1}>
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

/**
 * One source: title, location, when it was read, and its passages as stored, scrollable; the
 * passages the report quotes are marked, and the view opens at the first of them.
 */
function SourceView(props: {
  data: TuiData;
  runId: number;
  entry: SourceEntry;
  /** The passages the report quotes (by number). */
  quoted: ReadonlySet<number>;
  onBack: () => void;
  onQuit: () => void;
}) {
  const { columns, rows } = useTerminalSize();
  const color = useColor();
  const { value: source, error } = usePoll<SourceRecord | undefined>(
    () => props.data.source(props.runId, props.entry.id),
    60_000,
    false,
  );
  const [view, update] = useKeyState(() => ({ top: 0, lines: 0, placed: false }));
  const height = Math.max(1, rows - 4);
  const lines = source
    ? source.chunks.flatMap((chunk) => {
        const mark = props.quoted.has(chunk.seq) ? " · quoted in the report" : "";
        return [
          ...wrapLines(
            `[passage ${chunk.seq}${chunk.location ? `, ${chunk.location}` : ""}${mark}] ${chunk.text.replace(/\s+/g, " ").trim()}`,
            columns,
            {
              prose: true,
            },
          ),
          "",
        ];
      })
    : [];
  view.lines = lines.length;
  // Opened at the first quoted passage, once its text is there.
  const first = lines.findIndex((line) => line.includes(" · quoted in the report] "));
  if (source && !view.placed) {
    view.placed = true;
    if (first > 0) view.top = Math.min(first, Math.max(0, lines.length - height));
  }
  useKeys((input, key) => {
    if (input === "q") return props.onQuit();
    if (key.escape || input === "b") return props.onBack();
    const next = scrolled(input, key, view.top, height, view.lines);
    if (next !== undefined)
      update((state) => {
        state.top = next;
      });
  });
  const { top } = view;
  const where = props.entry.url ?? props.entry.path ?? "";
  return (
    <Box flexDirection="column" width={columns} height={rows - 1}>
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
          <Text
            key={`${top + index}`}
            wrap="truncate"
            {...color(/^\[passage \d+ · quoted in the report\]/.test(line) ? "yellow" : undefined)}
          >
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
