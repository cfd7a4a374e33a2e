/** The new-research form: a question, a folder and a strategy; Enter on the last field starts it. */
import { Box, Text, useInput } from "ink";
import { useState } from "react";
import { STRATEGY_NAMES, type StrategyName } from "../../ports/store.js";
import { useColor, useTerminalSize } from "./hooks.js";
import type { NewResearch, TuiData } from "./tui-data.js";
import { oneLine } from "./view-model.js";

const FIELDS = ["question", "corpus", "strategy"] as const;
type Field = (typeof FIELDS)[number];

export function NewRunForm(props: { data: TuiData; onStarted: (runId: number) => void; onCancel: () => void }) {
  const { columns, rows } = useTerminalSize();
  const color = useColor();
  const [field, setField] = useState<Field>("question");
  const [question, setQuestion] = useState("");
  const [corpus, setCorpus] = useState(0);
  const [strategy, setStrategy] = useState(0);
  const [error, setError] = useState("");
  const [starting, setStarting] = useState(false);
  const corpora = props.data.corpora;

  const start = () => {
    const chosen = corpora[corpus];
    if (question.trim() === "") {
      setField("question");
      return setError("Type a question first.");
    }
    if (!chosen) return setError("No folder to research: start assay tui with --corpus-root DIR.");
    const research: NewResearch = {
      question,
      corpus: chosen.value,
      label: chosen.label,
      strategy: STRATEGY_NAMES[strategy] as StrategyName,
    };
    setStarting(true);
    setError("");
    props.data.start(research).then(props.onStarted, (failure: unknown) => {
      setStarting(false);
      setError(failure instanceof Error ? failure.message : String(failure));
    });
  };

  useInput(
    (input, key) => {
      const index = FIELDS.indexOf(field);
      if (key.escape) return props.onCancel();
      if (key.tab && key.shift) return setField(FIELDS[Math.max(0, index - 1)] ?? "question");
      if (key.tab || key.downArrow) return setField(FIELDS[Math.min(FIELDS.length - 1, index + 1)] ?? "strategy");
      if (key.upArrow) return setField(FIELDS[Math.max(0, index - 1)] ?? "question");
      if (key.return) return field === "strategy" ? start() : setField(FIELDS[index + 1] ?? "strategy");
      if (field === "question") {
        if (key.backspace || key.delete) return setQuestion(question.slice(0, -1));
        // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
        if (!key.ctrl && !key.meta && input.length > 0 && !/[\u0000-\u001f]/.test(input))
          return setQuestion((question + input).slice(0, 4000));
        return;
      }
      const step = key.leftArrow ? -1 : key.rightArrow || input === " " ? 1 : 0;
      if (step === 0) return;
      if (field === "corpus" && corpora.length > 0) setCorpus((corpus + step + corpora.length) % corpora.length);
      if (field === "strategy") setStrategy((strategy + step + STRATEGY_NAMES.length) % STRATEGY_NAMES.length);
    },
    { isActive: !starting },
  );

  const label = (name: Field, text: string) => (
    <Text bold={field === name} {...color(field === name ? "cyan" : undefined)}>
      {field === name ? "› " : "  "}
      {text.padEnd(10)}
    </Text>
  );
  const questionWidth = Math.max(10, columns - 14);
  const shown = question.length > questionWidth - 1 ? `…${question.slice(-(questionWidth - 2))}` : question;
  return (
    <Box flexDirection="column" width={columns} height={rows}>
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
