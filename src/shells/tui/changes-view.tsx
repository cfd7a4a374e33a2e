/**
 * What a report changes, opened from the report reader with d: a follow-up's report against its
 * parent's, a revision's against the version before it (`compareReports` and `diffLines`, as
 * `assay runs diff` prints them), scrollable; findings added in green, removed in red, changed
 * in yellow. A report that continues none and was never revised has nothing to compare.
 */
import { Box, Text } from "ink";
import { useColor, useKeyState, usePagerKeys, usePoll, useTerminalSize } from "./hooks.js";
import type { TuiData } from "./tui-data.js";
import { type DiffLine, diffScreenLines } from "./view-model.js";

const KIND_COLOR: Record<DiffLine["kind"], string | undefined> = {
  heading: "cyan",
  added: "green",
  removed: "red",
  changed: "yellow",
  plain: undefined,
};

export function ChangesView(props: { data: TuiData; runId: number; onBack: () => void; onQuit: () => void }) {
  const { columns, rows } = useTerminalSize();
  const color = useColor();
  const { value, error } = usePoll(async () => ({ lines: await props.data.changes(props.runId) }), 60_000, false);
  const [view, update] = useKeyState(() => ({ top: 0, lines: 0 }));
  const height = Math.max(1, rows - 3);
  const lines = value?.lines ? diffScreenLines(value.lines, columns) : [];
  view.lines = lines.length;
  usePagerKeys(view, update, height, props);
  const top = Math.min(view.top, Math.max(0, lines.length - height));
  view.top = top;
  let message = "";
  if (error) message = `Cannot compare: ${error}`;
  else if (value === undefined) message = "Loading…";
  else if (value.lines === undefined)
    message = `Nothing to compare: run ${props.runId} is not a follow-up or a revision, and its report has not been revised.`;
  return (
    <Box flexDirection="column" width={columns} height={rows - 1}>
      <Text bold wrap="truncate">
        Changes · run {props.runId}
      </Text>
      <Box flexDirection="column" height={height}>
        {message ? <Text>{message}</Text> : null}
        {lines.slice(top, top + height).map((line, index) => (
          <Text key={`${top + index}`} wrap="truncate" bold={line.kind === "heading"} {...color(KIND_COLOR[line.kind])}>
            {line.text === "" ? " " : line.text}
          </Text>
        ))}
      </Box>
      <Text dimColor wrap="truncate">
        {lines.length > 0
          ? `${Math.min(lines.length, top + height)}/${lines.length} · ↑↓ PgUp PgDn g G scroll · Esc back to the report · q quit`
          : "Esc back to the report · q quit"}
      </Text>
    </Box>
  );
}
