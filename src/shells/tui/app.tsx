/**
 * The terminal UI (`assay tui`, `assay run --tui`): one screen at a time — the runs list, a
 * run's live view, its report reader (with a prompt for a follow-up or a revision, and what the
 * report changes), the new-research form. Ctrl-C or q quits the interface; runs it started go on in their own
 * processes.
 */
import { useApp } from "ink";
import { useState } from "react";
import { ColorContext, KeyboardContext, useKeyboard } from "./hooks.js";
import { NewRunForm } from "./new-run-form.js";
import { ReportReader } from "./report-reader.js";
import { RunView } from "./run-view.js";
import { RunsList } from "./runs-list.js";
import type { TuiData } from "./tui-data.js";

export type Screen =
  | { name: "list" }
  /** `openReport`: open the report once the run has finished (a follow-up or a revision started from the reader). */
  | { name: "run"; runId: number; openReport?: boolean }
  | { name: "report"; runId: number }
  | { name: "new" };

export interface AppProps {
  data: TuiData;
  initial?: Screen;
  /** Whether colours may be used (false with NO_COLOR). */
  color?: boolean;
  now?: () => number;
  /** Without a runs list (`assay run --tui`): the run view has no way back. */
  single?: boolean;
  /** Called when the user quits (q, or Ctrl-C). */
  onQuit?: (how: "quit" | "interrupt") => void;
}

export function App(props: AppProps) {
  const { exit } = useApp();
  const [screen, setScreen] = useState<Screen>(props.initial ?? { name: "list" });
  const now = props.now ?? Date.now;
  const quit = (how: "quit" | "interrupt" = "quit") => {
    props.onQuit?.(how);
    exit();
  };
  const keyboard = useKeyboard((input, key) => {
    if (key.ctrl && input === "c") quit("interrupt");
  });
  const list = () => setScreen({ name: "list" });
  const back = props.single ? undefined : list;
  let view: React.ReactNode;
  switch (screen.name) {
    case "list":
      view = (
        <RunsList
          data={props.data}
          now={now}
          onOpen={(runId) => setScreen({ name: "run", runId })}
          onNew={() => setScreen({ name: "new" })}
          onQuit={quit}
        />
      );
      break;
    case "run":
      view = (
        <RunView
          data={props.data}
          runId={screen.runId}
          now={now}
          onReport={(runId) => setScreen({ name: "report", runId })}
          {...(back ? { onBack: back } : {})}
          {...(screen.openReport ? { openWhenDone: true } : {})}
          onQuit={quit}
        />
      );
      break;
    case "report":
      view = (
        <ReportReader
          data={props.data}
          runId={screen.runId}
          onBack={() => setScreen({ name: "run", runId: screen.runId })}
          onQuit={quit}
          onContinued={(runId) => setScreen({ name: "run", runId, openReport: true })}
        />
      );
      break;
    case "new":
      view = <NewRunForm data={props.data} onStarted={(runId) => setScreen({ name: "run", runId })} onCancel={list} />;
      break;
  }
  return (
    <KeyboardContext.Provider value={keyboard}>
      <ColorContext.Provider value={props.color ?? true}>{view}</ColorContext.Provider>
    </KeyboardContext.Provider>
  );
}
