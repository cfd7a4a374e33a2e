#!/usr/bin/env node
// Generates the example corpus's office documents and notebook: a Word memo, a slide deck, a
// workbook and a Jupyter notebook, built with scripts/office-files.mjs. Their figures agree with
// the rest of the corpus. Byte-for-byte reproducible.
//
// Usage: node scripts/make-example-documents.mjs [corpus-folder]

import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { docx, notebook, pptx, xlsx } from "./office-files.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const corpus = resolve(process.argv[2] ?? resolve(here, "../examples/corpus"));

const FICTIONAL = "A fictional document created for the Assay example corpus. Licensed CC BY 4.0.";

const files = {
  "industry/pack-price-survey.xlsx": xlsx({
    title: "Battery pack prices and cell energy density: a compilation",
    sheets: [
      {
        name: "Pack prices",
        rows: [
          ["Survey year", "Average pack price (USD per kWh)", "Reported in", "Note"],
          [2010, 1100, "BNEF 2020 survey", "Estimate, restated in 2020 dollars"],
          [2020, 137, "BNEF 2020 survey", "A real decline of 89 percent since 2010"],
          [2022, 151, "BNEF 2022 survey", "First year-on-year increase since the survey began"],
          [2023, 139, "BNEF 2023 survey", "Prices fell again as lithium prices collapsed"],
          [2024, 115, "BNEF 2024 survey", "A fall of 20 percent, the largest annual drop since 2017"],
        ],
      },
      {
        name: "Cell energy density",
        rows: [
          ["Period", "Typical best commercial cell", "Gravimetric energy density (Wh/kg)"],
          ["1991", "Sony first generation", "about 90"],
          ["c. 2000", "18650, graphite anode", "about 150-180"],
          ["c. 2010", "18650, high-energy", "about 200-250"],
          ["c. 2020", "21700 and large-format high nickel", "about 250-300"],
        ],
      },
      { name: "About", rows: [["About this workbook"], [FICTIONAL]] },
    ],
  }),
  "technology/fast-charging-workshop.pptx": pptx({
    title: "Fast charging: what limits it",
    slides: [
      {
        title: "Fast charging: what limits it",
        bullets: ["Workshop slides for battery engineers.", FICTIONAL],
      },
      {
        title: "C-rates in one slide",
        bullets: [
          "A current of 1C would fully charge a cell in about one hour; 2C in about half an hour.",
          "For a 3 ampere-hour cell, 1C is 3 amperes.",
        ],
        notes: "Remind the audience that the one-hour correspondence is only approximate at high currents.",
      },
      {
        title: "Constant current, constant voltage",
        bullets: [
          "Charging runs at constant current until the cell reaches its upper voltage limit, commonly 4.2 volts for a layered oxide cathode.",
          "The voltage is then held while the current falls; the last 20 percent of a charge takes a disproportionate share of the time.",
        ],
      },
      {
        title: "Lithium plating is the main obstacle",
        bullets: [
          "At high currents or low temperatures, lithium can deposit as metal on the graphite anode instead of entering it.",
          "Plated lithium costs capacity and can grow into dendrites that pierce the separator.",
        ],
        notes: "Show the cold-weather charging example from the battery management systems article.",
      },
    ],
  }),
  "industry/lfp-storage-memo.docx": docx({
    title: "Memo: LFP cells for the stationary storage project",
    blocks: [
      { heading: "Memo: LFP cells for the stationary storage project" },
      { text: FICTIONAL },
      { heading: "Recommendation" },
      {
        text: "The project team recommends lithium iron phosphate (LFP) cells for the stationary storage system, as most new stationary storage systems now use them.",
      },
      {
        text: "LFP was reported in 1997 by Padhi, Nanjundaswamy and Goodenough at the University of Texas at Austin. Its phosphate framework locks oxygen in strongly bonded groups, which makes the cathode far more stable when overheated than layered oxides.",
      },
      { heading: "Trade-offs" },
      {
        table: [
          ["Property", "LFP", "NMC"],
          ["Cell voltage", "about 3.2-3.3 V", "about 3.6-3.7 V"],
          ["Cobalt", "none", "some"],
        ],
      },
      {
        text: "LFP cells sit lower in specific energy, commonly around 160-200 Wh/kg at cell level, which matters little for a system that stands still.",
      },
    ],
  }),
  "technology/capacity-fade-analysis.ipynb": new TextEncoder().encode(
    notebook({
      cells: [
        {
          markdown: `# Capacity fade of a test cell\n\n${FICTIONAL}\n\nThe cell was cycled at 1C between 2.5 and 4.2 volts at 25 degrees C; its capacity was measured every 100 cycles.`,
        },
        {
          code: "cycles = [0, 100, 200, 300, 400, 500]\ncapacity_ah = [3.00, 2.95, 2.91, 2.88, 2.84, 2.81]\nfade = 1 - capacity_ah[-1] / capacity_ah[0]\nprint(f'Capacity fade after 500 cycles: {fade:.1%}')",
          output: "Capacity fade after 500 cycles: 6.3%\n",
        },
        {
          markdown:
            "After 500 cycles the test cell kept about 94 percent of its initial capacity, well above the 80 percent usually taken as the end of a cell's first life.",
        },
      ],
    }),
  ),
};

for (const [path, content] of Object.entries(files)) {
  const target = resolve(corpus, path);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, content);
  console.log(`wrote ${target} (${content.length} bytes)`);
}
