/**
 * Figures of the adversarial corpora (issue 42), per category and strategy: how many cases
 * show a claim verified that must not be, how many controls are verified, how many
 * contradictions are shown contested with the other side quoted, and how many false gaps.
 * Runs every corpus as `assay run` does, in this process: `node dist/eval/adversarial-figures.js
 * [investigative|pipeline …]`. Prints a table and the problems of each case that has any.
 */
import { ADVERSARIAL_CASES } from "../testing/adversarial-corpora.js";
import { type CaseOutcome, runAdversarialCase, type Strategy } from "../testing/adversarial-run.js";

const args = process.argv.slice(2);
const strategies = args.filter((name) => name === "investigative" || name === "pipeline") as Strategy[];
const chosen: Strategy[] = strategies.length > 0 ? strategies : ["investigative", "pipeline"];
// Other words name categories or case ids to run alone.
const only = new Set(args.filter((name) => name !== "investigative" && name !== "pipeline"));
const cases = ADVERSARIAL_CASES.filter((item) => only.size === 0 || only.has(item.id) || only.has(item.category));
const outcomes: CaseOutcome[] = [];
for (const strategy of chosen) {
  for (const item of cases) {
    const outcome = await runAdversarialCase(item, strategy);
    outcomes.push(outcome);
    if (outcome.problems.length > 0) console.log(`${strategy} ${item.id}: ${outcome.problems.join("; ")}`);
  }
}
const rows = new Map<string, CaseOutcome[]>();
for (const outcome of outcomes) {
  const key = `${outcome.strategy} ${outcome.category}`;
  rows.set(key, [...(rows.get(key) ?? []), outcome]);
}
console.log(
  "\n| Strategy | Category | Cases | Shown verified (must not) | Controls verified | Contested, other side quoted | False gaps |",
);
console.log("| --- | --- | ---: | ---: | ---: | ---: | ---: |");
for (const [key, list] of rows) {
  const [strategy, category] = key.split(" ");
  // The pipeline does not verify: its controls only must not be contested.
  const controls =
    category === "control" && strategy === "investigative"
      ? `${list.filter((o) => o.verified).length}/${list.length}`
      : "—";
  const withSides = list.filter((o) => o.category === "contradiction" || o.category === "contradicting-support");
  const contested = withSides.length > 0 ? `${withSides.filter((o) => o.contested).length}/${withSides.length}` : "—";
  const wrong = category === "control" ? "—" : String(list.filter((o) => o.wronglyVerified.length > 0).length);
  const gaps = list.reduce((sum, o) => sum + o.falseGaps.length, 0);
  console.log(`| ${strategy} | ${category} | ${list.length} | ${wrong} | ${controls} | ${contested} | ${gaps} |`);
}
