/** Hooks of the terminal UI: the terminal's size (following resizes), polling, a run followed live, the theme, the keyboard. */
import { type Key, useInput, useStdout } from "ink";
import { createContext, useCallback, useContext, useEffect, useLayoutEffect, useRef, useState } from "react";
import type { RunEvent, RunRecord } from "../../ports/store.js";
import type { InvestigationSnapshot, TuiData } from "./tui-data.js";
import { scrolled } from "./view-model.js";

/** Columns and rows of the terminal, updated when it is resized (80×24 when unknown). */
export function useTerminalSize(): { columns: number; rows: number } {
  const { stdout } = useStdout();
  const read = () => ({ columns: stdout.columns || 80, rows: stdout.rows || 24 });
  const [size, setSize] = useState(read);
  useEffect(() => {
    const onResize = () => setSize(read());
    stdout.on("resize", onResize);
    return () => {
      stdout.off("resize", onResize);
    };
  });
  return size;
}

/** `load()` now and every `everyMs` while mounted (and while `active`); the latest value and error. */
export function usePoll<T>(
  load: () => Promise<T>,
  everyMs: number,
  active = true,
): { value: T | undefined; error: string } {
  const [state, setState] = useState<{ value: T | undefined; error: string }>({ value: undefined, error: "" });
  const loadRef = useRef(load);
  loadRef.current = load;
  useEffect(() => {
    let stopped = false;
    let timer: NodeJS.Timeout | undefined;
    const tick = async () => {
      try {
        const value = await loadRef.current();
        if (!stopped) setState({ value, error: "" });
      } catch (error) {
        if (!stopped)
          setState((previous) => ({ ...previous, error: error instanceof Error ? error.message : String(error) }));
      }
      if (!stopped && active) timer = setTimeout(tick, everyMs);
    };
    void tick();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    };
  }, [everyMs, active]);
  return state;
}

export interface FollowedRun {
  run: RunRecord | undefined;
  events: RunEvent[];
  investigation: InvestigationSnapshot | undefined;
  error: string;
}

/**
 * A run followed live from the store: its row, its events (read after the last seen seq, every
 * `everyMs`) and, for investigative runs, its frontier and ledger (reloaded when events arrive).
 * Stops polling once the run has ended and its last events are in.
 */
export function useFollowedRun(data: TuiData, runId: number, everyMs = 250): FollowedRun {
  const [state, setState] = useState<FollowedRun>({ run: undefined, events: [], investigation: undefined, error: "" });
  useEffect(() => {
    let stopped = false;
    let timer: NodeJS.Timeout | undefined;
    let events: RunEvent[] = [];
    let investigation: InvestigationSnapshot | undefined;
    let endedPolls = 0;
    const tick = async () => {
      try {
        const run = await data.run(runId);
        const fresh = await data.events(runId, events.at(-1)?.seq ?? 0);
        if (fresh.length > 0) events = [...events, ...fresh];
        if (run?.request.strategy === "investigative" && (fresh.length > 0 || investigation === undefined))
          investigation = await data.investigation(runId);
        if (stopped) return;
        setState({ run, events, investigation, error: run ? "" : `there is no run ${runId}` });
        const ended = !run || run.status !== "running";
        if (ended && (events.some((event) => event.type === "run-finished") || ++endedPolls > 1)) return;
      } catch (error) {
        if (stopped) return;
        setState((previous) => ({ ...previous, error: error instanceof Error ? error.message : String(error) }));
      }
      timer = setTimeout(tick, everyMs);
    };
    void tick();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    };
  }, [data, runId, everyMs]);
  return state;
}

/** Whether colours may be used (off with NO_COLOR). */
export const ColorContext = createContext(true);

/** `{ color }` props for a colour name (to spread on a Text), or none when colours are off or no name is given. */
export function useColor(): (name?: string) => { color?: string } {
  const enabled = useContext(ColorContext);
  return (name) => (enabled && name !== undefined ? { color: name } : {});
}

/**
 * State that key handlers change and read synchronously: keys typed faster than Ink renders
 * (a paste, a script, a fast typist) each see the previous key's change, which React state
 * read from a render would not. `update` changes it and renders.
 */
export function useKeyState<T extends object>(initial: () => T): [T, (change: (state: T) => void) => void] {
  const state = useRef<T | undefined>(undefined);
  if (state.current === undefined) state.current = initial();
  const [, render] = useState(0);
  const current = state.current;
  return [
    current,
    (change) => {
      change(current);
      render((count) => count + 1);
    },
  ];
}

export type KeyHandler = (input: string, key: Key) => void;

/**
 * The keys of a pane that only scrolls (a source, a diff): q quits, Esc or b goes back, the
 * scrolling keys (`scrolled`) move `view.top` within `view.lines` rows, `height` at a time.
 */
export function usePagerKeys(
  view: { top: number; lines: number },
  update: (change: (state: { top: number; lines: number }) => void) => void,
  height: number,
  props: { onBack: () => void; onQuit: () => void },
): void {
  useKeys((input, key) => {
    if (input === "q") return props.onQuit();
    if (key.escape || input === "b") return props.onBack();
    const next = scrolled(input, key, view.top, height, view.lines);
    if (next !== undefined)
      update((state) => {
        state.top = next;
      });
  });
}

/** A mounted component's key handler, as of its latest committed render. */
export interface KeySlot {
  handler: KeyHandler;
  active: boolean;
}

/** The App's keyboard (`useKeyboard`), for `useKeys` below it. */
export const KeyboardContext = createContext<Set<KeySlot> | undefined>(undefined);

/**
 * The one keyboard of an App: a single Ink input listener, registered once, that hands each key
 * to `onKey` (the App's own keys), then to the mounted components' handlers as of their latest
 * committed render (`useKeys`). Provide the returned set through `KeyboardContext`.
 *
 * Why not Ink's `useInput` in each component: it re-subscribes a component's handler in a passive
 * effect, which runs after the frame is written, so a key arriving in between reached the previous
 * render's handler (one that had not seen the published report the frame already offered), or a
 * screen that had just been replaced. Here handlers are swapped and (un)registered in layout
 * effects, inside the commit that writes the frame: a key always meets the handlers of what is on
 * screen.
 */
export function useKeyboard(onKey: KeyHandler): Set<KeySlot> {
  const slots = useRef(new Set<KeySlot>()).current;
  const own = useRef(onKey);
  useLayoutEffect(() => {
    own.current = onKey;
  });
  useInput(
    useCallback(
      (input: string, key: Key) => {
        own.current(input, key);
        for (const slot of [...slots]) if (slot.active && slots.has(slot)) slot.handler(input, key);
      },
      [slots],
    ),
  );
  return slots;
}

/** Handles keys while mounted (and while `isActive`), always with this render's `handler`; under an App's `useKeyboard`. */
export function useKeys(handler: KeyHandler, options: { isActive?: boolean } = {}): void {
  const slots = useContext(KeyboardContext);
  if (!slots) throw new Error("useKeys is used outside the App's keyboard (KeyboardContext)");
  const slot = useRef<KeySlot>({ handler, active: options.isActive !== false }).current;
  useLayoutEffect(() => {
    slot.handler = handler;
    slot.active = options.isActive !== false;
  });
  useLayoutEffect(() => {
    slots.add(slot);
    return () => {
      slots.delete(slot);
    };
  }, [slots, slot]);
}
