/**
 * The report reader: the report (its Markdown projection, wrapped to the terminal) with
 * scrolling and jumps between sections, and the sources ledger (cited, then read but not cited);
 * Enter on a source opens it: its location, when it was read, and its passages. f asks a
 * follow-up question and r revises the report (its newest version) in a one-line prompt (Enter
 * starts it as a run of its own); d shows what the report changes from the one it continues.
 */
import { Box, type Key, Text } from "ink";
import { quotedPlaces } from "../../core/render/format.js";
import { renderMarkdown } from "../../core/render/markdown.js";
import type { SourceEntry } from "../../core/report/report-document.js";
import type { RunRecord, RunRelation, SourceRecord } from "../../ports/store.js";
import { continuationProblem } from "../lineage.js";
import { ChangesView } from "./changes-view.js";
import { useColor, useKeyState, useKeys, usePagerKeys, usePoll, useTerminalSize } from "./hooks.js";
import type { TuiData } from "./tui-data.js";
import { edited, oneLine, scrolled, tail, windowStart, wrapLines } from "./view-model.js";

type Pane = "report" | "sources";

/**
 * The prompt of a follow-up (its question) or a revision (its instruction): the text typed so
 * far, why it could not start, whether it is starting.
 */
interface Prompt {
  relation: RunRelation;
  /** The run it continues: the run being read, or for a revision the newest version of its report. */
  parent: number;
  text: string;
  error: string;
  starting: boolean;
}

/** What the prompt says before the text, and below it while nothing is wrong. */
function promptWords(prompt: Prompt, runId: number): { label: string; hint: string } {
  if (prompt.relation === "follow-up")
    return {
      label: `Follow-up of run ${runId}: `,
      hint: "Type the question · Enter start it as a new run · Esc cancel",
    };
  return {
    label:
      prompt.parent === runId ? `Revise run ${runId}'s report: ` : `Revise the newest version (run ${prompt.parent}): `,
    hint: "Type what to change (add …, drop …) · Enter start the revision · Esc cancel",
  };
}

export function ReportReader(props: {
  data: TuiData;
  runId: number;
  onBack: () => void;
  onQuit: () => void;
  /** A follow-up or a revision was recorded and started as run `runId`. */
  onContinued: (runId: number) => void;
}) {
  const { columns, rows } = useTerminalSize();
  const color = useColor();
  const { value, error } = usePoll(async () => {
    const run = await props.data.run(props.runId);
    // What r would revise: the newest version of the report, or why there is none to revise now.
    const newest =
      run && continuationProblem(run) === undefined
        ? await props.data.newestVersion(run.id).then(
            (at) => ({ run: at, problem: "" }),
            (failure: unknown) => ({
              run: undefined,
              problem: failure instanceof Error ? failure.message : String(failure),
            }),
          )
        : undefined;
    return { run, newest, report: run ? await props.data.report(run) : undefined };
  }, 2000);
  const [view, update] = useKeyState(() => ({
    pane: "report" as Pane,
    top: 0,
    cursor: 0,
    listTop: 0,
    opened: undefined as SourceEntry | undefined,
    changes: false,
    prompt: undefined as Prompt | undefined,
    /** A one-line message in place of the footer until the next key (why f cannot ask, r cannot revise). */
    notice: "",
    run: undefined as RunRecord | undefined,
    newest: undefined as { run: RunRecord | undefined; problem: string } | undefined,
    lines: 0,
    headings: [] as number[],
    ledger: [] as SourceEntry[],
  }));
  // The prompt takes a second line at the bottom.
  const height = Math.max(1, rows - 3 - (view.prompt ? 1 : 0));

  const document = value?.report?.document;
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
  view.run = value?.run;
  view.newest = value?.newest;

  /** Starts the follow-up or the revision the prompt holds. */
  const start = (prompt: Prompt) => {
    if (prompt.text.trim() === "")
      return update(() => {
        prompt.error = prompt.relation === "follow-up" ? "Type a question first." : "Type an instruction first.";
      });
    update(() => {
      prompt.starting = true;
      prompt.error = "";
    });
    const started =
      prompt.relation === "follow-up"
        ? props.data.followUp(props.runId, prompt.text)
        : props.data.revise(props.runId, prompt.text);
    started.then(props.onContinued, (failure: unknown) =>
      update(() => {
        prompt.starting = false;
        prompt.error = failure instanceof Error ? failure.message : String(failure);
      }),
    );
  };

  /** The prompt's keys: typing, Enter to start the follow-up or the revision, Esc to close it. */
  const prompted = (prompt: Prompt, input: string, key: Key) => {
    if (prompt.starting) return;
    if (key.escape)
      return update((state) => {
        state.prompt = undefined;
      });
    if (key.return) return start(prompt);
    const text = edited(prompt.text, input, key);
    if (text !== undefined)
      update(() => {
        prompt.text = text;
        prompt.error = "";
      });
  };

  useKeys(
    (input, key) => {
      if (view.prompt) return prompted(view.prompt, input, key);
      if (view.notice)
        update((state) => {
          state.notice = "";
        });
      if (input === "q") return props.onQuit();
      if (key.escape || input === "b") return props.onBack();
      if (view.run && (input === "f" || input === "r" || input === "d") && (view.pane === "report" || !document)) {
        const run = view.run;
        if (input === "d")
          return update((state) => {
            state.changes = true;
          });
        if (input === "f") {
          const problem = continuationProblem(run);
          return update((state) => {
            if (problem) state.notice = `Cannot ask a follow-up: ${problem}.`;
            else state.prompt = { relation: "follow-up", parent: run.id, text: "", error: "", starting: false };
          });
        }
        // A revision revises the newest version of the report, which must itself be finished.
        const newest = view.newest?.run;
        const problem =
          continuationProblem(run) ??
          (view.newest?.problem || (newest ? continuationProblem(newest) : "the report is still loading; try again"));
        return update((state) => {
          if (problem || !newest) state.notice = `Cannot revise: ${problem}.`;
          else state.prompt = { relation: "revision", parent: newest.id, text: "", error: "", starting: false };
        });
      }
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
    { isActive: view.opened === undefined && !view.changes },
  );
  const { pane, top, cursor, opened, prompt, notice } = view;

  if (view.changes)
    return (
      <ChangesView
        data={props.data}
        runId={props.runId}
        onBack={() =>
          update((state) => {
            state.changes = false;
          })
        }
        onQuit={props.onQuit}
      />
    );

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

  // The bottom: the prompt (two lines), a notice, or the keys.
  const bottom = (keys: string) => {
    if (prompt) {
      const { label, hint } = promptWords(prompt, props.runId);
      return (
        <>
          <Text wrap="truncate">
            <Text bold {...color("cyan")}>
              {label}
            </Text>
            {tail(prompt.text, columns - label.length - 1)}
            {prompt.starting ? null : <Text inverse> </Text>}
          </Text>
          {prompt.error ? (
            <Text wrap="truncate" {...color("red")}>
              {oneLine(prompt.error, columns)}
            </Text>
          ) : (
            <Text dimColor wrap="truncate">
              {prompt.starting ? "Starting…" : hint}
            </Text>
          )}
        </>
      );
    }
    if (notice)
      return (
        <Text wrap="truncate" {...color("yellow")}>
          {oneLine(notice, columns)}
        </Text>
      );
    return (
      <Text dimColor wrap="truncate">
        {keys}
      </Text>
    );
  };

  const tabs = (
    <Text wrap="truncate">
      <Text inverse={pane === "report"}> Report </Text>{" "}
      <Text inverse={pane === "sources"}> Sources ({ledger.length}) </Text>
      <Text dimColor>{value?.report ? `  version ${value.report.version}` : ""}</Text>
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
        {bottom("Esc back · q quit")}
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
      {bottom(
        pane === "report"
          ? `${Math.min(lines.length, scrollTop + height)}/${lines.length} · ↑↓ n/p · Tab sources · f ask · r revise · d diff · Esc back · q quit`
          : "↑↓ select · Enter open the source · Tab report · Esc back · q quit",
      )}
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
  usePagerKeys(view, update, height, props);
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
