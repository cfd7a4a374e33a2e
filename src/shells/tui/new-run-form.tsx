/** The new-research form: a question, a folder and a strategy; Enter on the last field starts it. */
import { Box, Text } from "ink";
import { STRATEGY_NAMES, type StrategyName } from "../../ports/store.js";
import { useColor, useKeyState, useKeys, useTerminalSize } from "./hooks.js";
import type { NewResearch, TuiData } from "./tui-data.js";
import { edited, oneLine, tail } from "./view-model.js";

const FIELDS = ["question", "corpus", "strategy"] as const;
type Field = (typeof FIELDS)[number];

export function NewRunForm(props: { data: TuiData; onStarted: (runId: number) => void; onCancel: () => void }) {
  const { columns, rows } = useTerminalSize();
  const color = useColor();
  const corpora = props.data.corpora;
  const [form, update] = useKeyState(() => ({
    field: "question" as Field,
    question: "",
    corpus: 0,
    strategy: 0,
    error: "",
    starting: false,
  }));

  const start = () => {
    const chosen = corpora[form.corpus];
    if (form.question.trim() === "")
      return update((state) => {
        state.field = "question";
        state.error = "Type a question first.";
      });
    if (!chosen)
      return update((state) => {
        state.error = "No folder to research: start assay tui with --corpus-root DIR.";
      });
    const research: NewResearch = {
      question: form.question,
      corpus: chosen.value,
      label: chosen.label,
      strategy: STRATEGY_NAMES[form.strategy] as StrategyName,
    };
    update((state) => {
      state.starting = true;
      state.error = "";
    });
    props.data.start(research).then(props.onStarted, (failure: unknown) =>
      update((state) => {
        state.starting = false;
        state.error = failure instanceof Error ? failure.message : String(failure);
      }),
    );
  };

  useKeys((input, key) => {
    if (form.starting) return;
    const index = FIELDS.indexOf(form.field);
    const go = (to: number) =>
      update((state) => {
        state.field = FIELDS[Math.max(0, Math.min(FIELDS.length - 1, to))] ?? "question";
      });
    if (key.escape) return props.onCancel();
    if (key.tab && key.shift) return go(index - 1);
    if (key.tab || key.downArrow) return go(index + 1);
    if (key.upArrow) return go(index - 1);
    if (key.return) return form.field === "strategy" ? start() : go(index + 1);
    if (form.field === "question") {
      const question = edited(form.question, input, key);
      if (question !== undefined)
        update((state) => {
          state.question = question;
        });
      return;
    }
    const step = key.leftArrow ? -1 : key.rightArrow || input === " " ? 1 : 0;
    if (step === 0) return;
    update((state) => {
      if (state.field === "corpus" && corpora.length > 0)
        state.corpus = (state.corpus + step + corpora.length) % corpora.length;
      if (state.field === "strategy")
        state.strategy = (state.strategy + step + STRATEGY_NAMES.length) % STRATEGY_NAMES.length;
    });
  });

  const { field, question, corpus, strategy, error, starting } = form;
  const label = (name: Field, text: string) => (
    <Text bold={field === name} {...color(field === name ? "cyan" : undefined)}>
      {field === name ? "› " : "  "}
      {text.padEnd(10)}
    </Text>
  );
  const questionWidth = Math.max(10, columns - 14);
  const shown = tail(question, questionWidth - 1);
  return (
    <Box flexDirection="column" width={columns} height={rows - 1}>
      <Text bold>New research</Text>
      <Text> </Text>
      <Text wrap="truncate">
        {label("question", "Question")}
        {shown}
        {field === "question" ? <Text inverse> </Text> : null}
      </Text>
      <Text wrap="truncate">
        {label("corpus", "Folder")}
        {corpora.length === 0
          ? "(none: start assay tui with --corpus-root DIR)"
          : `◀ ${oneLine(corpora[corpus]?.label ?? "", columns - 18)} ▶`}
      </Text>
      <Text wrap="truncate">
        {label("strategy", "Strategy")}◀ {STRATEGY_NAMES[strategy]} ▶
      </Text>
      <Text> </Text>
      {starting ? <Text {...color("cyan")}>Starting…</Text> : null}
      {error ? <Text {...color("red")}>{oneLine(error, columns)}</Text> : null}
      <Box flexGrow={1} />
      <Text dimColor wrap="truncate">
        Type the question · Tab/↓ next field · ←→ choose · Enter on Strategy starts · Esc cancel
      </Text>
    </Box>
  );
}
