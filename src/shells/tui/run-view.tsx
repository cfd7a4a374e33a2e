/**
 * A run, live: status, stage, budget use as bars, the sources as they arrive and, for an
 * investigative run, the frontier tree updating as questions change status and the claims by
 * status. Followed from the store, so it shows runs that other processes (workers) drive.
 */
import { Box, Text } from "ink";
import { useEffect } from "react";
import { runCost } from "../../core/usage.js";
import { displayStatus } from "../cli/run-state.js";
import { elapsedText, liveState } from "../live-state.js";
import { useColor, useFollowedRun, useKeys, useTerminalSize } from "./hooks.js";
import { STATUS_COLOR } from "./runs-list.js";
import type { TuiData } from "./tui-data.js";
import { bar, claimCounts, frontierLines, oneLine, runTitle } from "./view-model.js";

export function RunView(props: {
  data: TuiData;
  runId: number;
  now: () => number;
  onReport: (runId: number) => void;
  onBack?: () => void;
  onQuit: () => void;
  /** Open the report (`onReport`) by itself once the run has finished with one (a follow-up or a revision started here). */
  openWhenDone?: boolean;
}) {
  const { columns, rows } = useTerminalSize();
  const color = useColor();
  const followed = useFollowedRun(props.data, props.runId);
  const { run } = followed;
  // Readable once published: by the run's row, or by a publication event read before the row caught up.
  const readable =
    run !== undefined &&
    (run.artifactStatus !== "" || followed.events.some((event) => event.type.endsWith("-published")));
  const done = readable && run.status !== "running";
  const { openWhenDone, onReport, runId } = props;
  useEffect(() => {
    if (openWhenDone && done) onReport(runId);
  }, [openWhenDone, done, onReport, runId]);
  useKeys((input, key) => {
    if (input === "q") props.onQuit();
    else if ((key.escape || input === "b") && props.onBack) props.onBack();
    else if ((key.return || input === "r") && readable) props.onReport(props.runId);
  });
  if (!run)
    return (
      <Box flexDirection="column">
        <Text>{followed.error || `Loading run ${props.runId}…`}</Text>
        <Text dimColor>{props.onBack ? "Esc back · q quit" : "q quit"}</Text>
      </Box>
    );
  const now = props.now();
  const live = liveState(run, followed.events, { now, recent: 3 });
  const cost = runCost(live.usage);
  const status = displayStatus(run, now);
  const going = status === "running" || status === "queued";
  const investigative = run.request.strategy === "investigative";
  const labelWidth = 12;
  const barWidth = Math.max(10, Math.min(40, columns - labelWidth - 14));
  const stage = live.stages.at(-1) ?? (status === "queued" ? "waiting for a worker" : "starting");

  // Lines left for the sources and the frontier in a frame one row shorter than the terminal: seven fixed lines (header, question, outcome,
  // stages, tokens, the sources heading, the footer) and one per budget; the frontier's heading takes one.
  const free = Math.max(2, rows - 1 - 7 - live.budgets.length);
  const frontier =
    investigative && followed.investigation
      ? frontierLines(followed.investigation.questions, followed.investigation.transitions)
      : [];
  const sourceLines = investigative ? Math.max(1, Math.min(live.sources.length, Math.floor(free / 3))) : free;
  const frontierHeight = investigative ? Math.max(1, free - sourceLines - 1) : 0;
  const sources = live.sources.slice(-sourceLines);
  const claims = followed.investigation ? claimCounts(followed.investigation.claims) : "";

  let outcome = going ? `Stage: ${stage}${live.researchState ? ` (${live.researchState})` : ""}` : `Stage: done`;
  if (live.report)
    outcome = `${live.report.kind === "final" ? "Report published" : "Preliminary report"} (${live.report.status}) — Enter to read`;
  if (status === "failed" && run.error) outcome = `Failed: ${run.error}`;

  return (
    <Box flexDirection="column" width={columns} height={rows - 1}>
      <Text bold wrap="truncate">
        Run {run.id} · <Text {...color(STATUS_COLOR[status] ?? "white")}>{status}</Text> · {run.request.strategy} ·{" "}
        {run.request.scope.label} · {elapsedText(live.elapsedMs)}
      </Text>
      <Text wrap="truncate">{oneLine(runTitle(run.request), columns)}</Text>
      <Text wrap="truncate" {...color(live.report ? "green" : "cyan")}>
        {oneLine(outcome, columns)}
      </Text>
      <Text dimColor wrap="truncate">
        {oneLine(`Stages: ${live.stages.join(" › ") || "—"}`, columns)}
      </Text>
      {live.budgets.map((budget) => (
        <Text key={budget.label} wrap="truncate">
          {budget.label.padEnd(labelWidth)}
          <Text {...color(budget.used >= budget.limit ? "yellow" : "blue")}>
            {bar(budget.used, budget.limit, barWidth)}
          </Text>{" "}
          {budget.used}/{budget.limit}
        </Text>
      ))}
      <Text dimColor wrap="truncate">
        {live.usage.inputTokens + live.usage.outputTokens > 0
          ? `Tokens ${live.usage.inputTokens} in / ${live.usage.outputTokens} out${cost === undefined ? "" : ` · ${cost}`}`
          : "Tokens —"}
      </Text>
      <Text bold>Sources ({live.sources.length})</Text>
      <Box flexDirection="column" height={sourceLines}>
        {sources.length === 0 ? <Text dimColor>none yet</Text> : null}
        {sources.map((source, index) => (
          <Text key={`${index}-${source.anchor}`} wrap="truncate">
            {oneLine(`${live.sources.length - sources.length + index + 1}. ${source.title || source.anchor}`, columns)}
          </Text>
        ))}
      </Box>
      {investigative ? (
        <>
          <Text bold wrap="truncate">
            Frontier ({frontier.length}){claims ? ` · claims: ${claims}` : ""}
          </Text>
          <Box flexDirection="column" height={frontierHeight}>
            {frontier.slice(0, frontierHeight).map((line, index) => (
              <Text
                key={`${index}-${line.text}`}
                wrap="truncate"
                {...color(
                  line.status === "resolved"
                    ? "green"
                    : line.status === "in_progress"
                      ? "cyan"
                      : line.status === "pruned"
                        ? "gray"
                        : "white",
                )}
              >
                {line.text}
              </Text>
            ))}
          </Box>
        </>
      ) : null}
      <Box flexGrow={1} />
      <Text dimColor wrap="truncate">
        {[readable ? "Enter report" : "", props.onBack ? "Esc back" : "", "q quit"].filter(Boolean).join(" · ")}
      </Text>
    </Box>
  );
}
