/**
 * The runs list: status and age of each run, newest first, and what it continues (`↳ 12` before
 * the question of a follow-up of run 12); Enter opens one, n starts a research.
 */
import { Box, Text } from "ink";
import type { RunRecord } from "../../ports/store.js";
import { displayStatus } from "../cli/run-state.js";
import { useColor, useKeyState, useKeys, usePoll, useTerminalSize } from "./hooks.js";
import type { TuiData } from "./tui-data.js";
import { age, oneLine, runTitle, windowStart } from "./view-model.js";

export const STATUS_COLOR: Record<string, string> = {
  running: "cyan",
  queued: "cyan",
  finished: "green",
  failed: "red",
  interrupted: "yellow",
};

export function RunsList(props: {
  data: TuiData;
  now: () => number;
  onOpen: (runId: number) => void;
  onNew: () => void;
  onQuit: () => void;
}) {
  const { columns, rows } = useTerminalSize();
  const color = useColor();
  const { value: runs, error } = usePoll<RunRecord[]>(() => props.data.listRuns(), 1000);
  const [view, update] = useKeyState(() => ({ cursor: 0, top: 0, list: [] as RunRecord[] }));
  const list = runs ?? [];
  view.list = list;
  const height = Math.max(1, rows - 5);
  const selected = Math.min(view.cursor, Math.max(0, list.length - 1));
  const start = windowStart(selected, height, list.length, view.top);
  view.top = start;

  useKeys((input, key) => {
    const last = Math.max(0, view.list.length - 1);
    const move = (to: number) =>
      update((state) => {
        state.cursor = Math.max(0, Math.min(last, to));
      });
    const at = Math.min(view.cursor, last);
    if (input === "q") props.onQuit();
    else if (input === "n") props.onNew();
    else if (key.upArrow || input === "k") move(at - 1);
    else if (key.downArrow || input === "j") move(at + 1);
    else if (key.pageUp) move(at - height);
    else if (key.pageDown) move(at + height);
    else if (key.return) {
      const run = view.list[at];
      if (run) props.onOpen(run.id);
    }
  });

  const now = props.now();
  const questionWidth = Math.max(10, columns - 36);
  return (
    <Box flexDirection="column" width={columns} height={rows - 1}>
      <Text bold>Assay · runs {runs ? `(${list.length})` : "(loading…)"}</Text>
      <Text dimColor>
        {oneLine(
          `${"  RUN".padEnd(7)}${"STATUS".padEnd(13)}${"AGE".padEnd(8)}${"STRATEGY".padEnd(14)}QUESTION`,
          columns,
        )}
      </Text>
      <Box flexDirection="column" height={height}>
        {list.length === 0 && runs ? <Text>No runs yet. Press n to start a research.</Text> : null}
        {list.slice(start, start + height).map((run, index) => {
          const status = displayStatus(run, now);
          const mine = start + index === selected;
          return (
            <Text key={run.id} inverse={mine} wrap="truncate">
              {mine ? "›" : " "}
              {String(run.id).padStart(4)}
              {"  "}
              <Text {...color(STATUS_COLOR[status] ?? "white")}>{status.padEnd(13)}</Text>
              {age(run.createdAt, now).padEnd(8)}
              {run.request.strategy.padEnd(14)}
              {oneLine(runTitle(run.request), questionWidth)}
            </Text>
          );
        })}
      </Box>
      {error ? <Text {...color("red")}>{oneLine(`Cannot read the runs: ${error}`, columns)}</Text> : <Text> </Text>}
      <Text dimColor wrap="truncate">
        ↑↓ select · Enter open · n new research · q quit
      </Text>
    </Box>
  );
}
