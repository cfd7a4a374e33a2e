#!/usr/bin/env node
// Generates examples/corpus/safety/thermal-runaway-technical-note.pdf, a small
// two-page "technical note" used by the Assay example corpus.
//
// No npm dependencies: the PDF objects (catalog, page tree, pages, Type1
// Helvetica font resources, uncompressed content streams, xref table and
// trailer) are written by hand so the output is byte-for-byte reproducible and
// its text is extractable by pdftotext and similar tools.
//
// Usage: node scripts/make-example-pdf.mjs [output-path]

import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const outPath = resolve(
  process.argv[2] ?? resolve(here, "../examples/corpus/safety/thermal-runaway-technical-note.pdf"),
);

// ---------------------------------------------------------------------------
// Document content. ASCII only (a subset of WinAnsiEncoding).
// Block types: title, subtitle, meta, h (heading), p (paragraph), li (bullet).
// ---------------------------------------------------------------------------
const blocks = [
  { t: "title", s: "Technical Note TN-07: Thermal Runaway in Lithium-Ion Cells" },
  { t: "subtitle", s: "Mechanisms, approximate onset temperatures and mitigation" },
  { t: "meta", s: "Assay example corpus - safety series - 2 pages" },

  { t: "h", s: "1. Summary" },
  {
    t: "p",
    s: "Thermal runaway is the most serious failure mode of a lithium-ion cell. It is a self-accelerating process: heat released by chemical reactions inside the cell raises its temperature, higher temperature speeds up those reactions, and they release still more heat. Once the rate of heat generation exceeds the rate at which the cell can shed heat to its surroundings, the temperature rises uncontrollably, typically ending in venting of hot, flammable gas, fire and, in confined spaces, explosion. This note outlines the usual sequence of reactions, the factors that make runaway more or less severe, and the main mitigation measures. Temperatures quoted are approximate; they vary with chemistry, cell design, state of charge and the test method.",
  },

  { t: "h", s: "2. Triggers" },
  { t: "p", s: "Runaway is normally triggered by one of three kinds of abuse:" },
  {
    t: "li",
    s: "Mechanical: crushing, penetration (for example by a nail) or deformation, all of which can bring the electrodes into contact.",
  },
  {
    t: "li",
    s: "Electrical: overcharging, external short circuits, and internal short circuits caused by manufacturing defects such as metal particles, burrs or misaligned electrodes, or by lithium dendrites.",
  },
  {
    t: "li",
    s: "Thermal: external heating, for example from a fire or a neighbouring cell that is already in runaway.",
  },
  {
    t: "p",
    s: "Internal short circuits are especially difficult to manage because they develop inside the cell, where external protection electronics cannot interrupt them.",
  },

  { t: "h", s: "3. Sequence of events" },
  {
    t: "p",
    s: "For a charged cell with a graphite anode and a layered oxide cathode, the reactions typically follow this order as temperature rises:",
  },
  {
    t: "li",
    s: "About 80 to 120 degrees C: the solid electrolyte interphase (SEI) on the graphite begins to decompose exothermically. This exposes lithiated graphite to the electrolyte.",
  },
  {
    t: "li",
    s: "Above about 120 degrees C: lithiated graphite reacts with the electrolyte, releasing more heat and gas. Solvents begin to evaporate and pressure inside the cell rises.",
  },
  {
    t: "li",
    s: 'About 130 degrees C: a polyethylene separator melts and closes its pores ("shutdown"), which can stop current flow if heating is slow. Polypropylene melts at about 165 degrees C. At higher temperatures the separator shrinks and collapses, allowing a large internal short circuit.',
  },
  {
    t: "li",
    s: "About 150 to 250 degrees C, depending on chemistry: the charged cathode decomposes and releases oxygen. Lithium cobalt oxide and nickel-rich NMC and NCA release oxygen at the lower end of this range; the higher the nickel content, the lower the onset. Lithium iron phosphate is far more stable and releases little oxygen.",
  },
  {
    t: "li",
    s: "The released oxygen reacts with the flammable electrolyte and the anode. This is the most energetic stage; cell temperatures can reach several hundred degrees C within seconds.",
  },
  {
    t: "p",
    s: "Vent gases contain hydrogen, carbon monoxide, carbon dioxide and hydrocarbons, and can ignite or, if they accumulate, explode. Decomposition of the common electrolyte salt LiPF6 can also produce toxic hydrogen fluoride.",
  },

  { t: "h", s: "4. What makes runaway worse" },
  {
    t: "li",
    s: "State of charge: a fully charged cell stores more energy and has a less stable cathode; runaway is much milder at low state of charge.",
  },
  {
    t: "li",
    s: "Cathode chemistry: oxygen release from the cathode feeds combustion. Layered oxides with high nickel content are the most energetic, LFP the least.",
  },
  { t: "li", s: "Cell size and energy: larger, higher-energy cells release more heat in total." },
  {
    t: "li",
    s: "Ageing: lithium plated on the anode during fast or cold charging is highly reactive and can lower the onset temperature.",
  },

  { t: "h", s: "5. Propagation in packs" },
  {
    t: "p",
    s: "In a battery pack, a single cell in runaway can heat its neighbours past their own onset temperature, so that the failure spreads from cell to cell. Preventing propagation is often more achievable than preventing every single-cell failure. Measures include spacing between cells, thermal barriers and insulating materials, heat-conducting plates that spread and remove heat, vent channels that direct hot gas away from other cells, and fusing that disconnects a failed cell electrically.",
  },

  { t: "h", s: "6. Testing" },
  {
    t: "p",
    s: "Accelerating rate calorimetry (ARC) heats a cell in steps and detects the temperature at which it begins to self-heat, and then tracks the runaway under near-adiabatic conditions. Abuse tests include nail penetration, crush, overcharge, external short circuit and oven exposure. Cells and batteries must also pass transport tests (UN 38.3) and product safety standards such as IEC 62133 and UL 1642 before they can be sold or shipped.",
  },

  { t: "h", s: "7. Mitigation in the cell" },
  {
    t: "li",
    s: "Shutdown separators (for example polypropylene/polyethylene/polypropylene trilayers) and ceramic-coated separators that resist shrinkage.",
  },
  {
    t: "li",
    s: "Current interrupt devices (CID) that break the circuit when internal pressure rises, positive temperature coefficient (PTC) elements that limit current when hot, and safety vents.",
  },
  { t: "li", s: "Electrolyte additives, including flame retardants and overcharge protection additives." },
  { t: "li", s: "Choice of chemistry: LFP cathodes for applications where safety outweighs energy density." },
  {
    t: "p",
    s: "At system level, the battery management system prevents electrical abuse by enforcing voltage, current and temperature limits, and thermal management keeps cells cool and uniform. Neither can stop a runaway that has already begun inside a cell.",
  },

  { t: "h", s: "8. Case note: Boeing 787, January 2013" },
  {
    t: "p",
    s: "On 7 January 2013 the lithium-ion auxiliary power unit battery of a parked Japan Airlines 787 caught fire at Boston Logan International Airport. On 16 January an All Nippon Airways 787 made an emergency landing at Takamatsu, Japan, after a battery problem. The US Federal Aviation Administration grounded US-registered 787s the same day, and other regulators followed. The batteries used eight lithium cobalt oxide cells made by GS Yuasa. The US National Transportation Safety Board later concluded that the Boston event began with an internal short circuit in one cell, which went into thermal runaway and spread to neighbouring cells. The 787 returned to service in April 2013 after a redesign that added insulation between cells, a steel enclosure and a vent line to carry gases outside the aircraft.",
  },

  { t: "h", s: "9. Responding to a battery fire" },
  {
    t: "p",
    s: "Lithium-ion fires supply their own oxygen from the cathode, so smothering them is of limited use. The usual approach is to cool the cells with large amounts of water to stop propagation. Damaged cells can re-ignite hours or days later, so they should be monitored and isolated after an incident.",
  },
];

// ---------------------------------------------------------------------------
// Layout
// ---------------------------------------------------------------------------
const PAGE_W = 612; // US Letter, points
const PAGE_H = 792;
const MARGIN_X = 60;
const MARGIN_TOP = 60;
const MARGIN_BOTTOM = 60;
const TEXT_W = PAGE_W - 2 * MARGIN_X;

const styles = {
  title: { font: "F2", size: 15, lead: 19, before: 0, after: 2 },
  subtitle: { font: "F1", size: 11, lead: 14, before: 0, after: 2 },
  meta: { font: "F1", size: 8.5, lead: 11, before: 0, after: 6 },
  h: { font: "F2", size: 10.5, lead: 13, before: 6, after: 1 },
  p: { font: "F1", size: 9.2, lead: 11.4, before: 0, after: 3 },
  li: { font: "F1", size: 9.2, lead: 11.4, before: 0, after: 1.5, indent: 12 },
};

// Helvetica advance widths (1/1000 em) for ASCII 32..126, from the standard AFM.
const HELV = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556, 556, 556,
  556, 556, 556, 278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833,
  722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556,
  556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334,
  260, 334, 584,
];

function textWidth(str, size, font) {
  let w = 0;
  for (const ch of str) w += HELV[ch.charCodeAt(0) - 32];
  // Helvetica-Bold is slightly wider on average; be conservative.
  if (font === "F2") w *= 1.08;
  return (w * size) / 1000;
}

function wrap(text, size, font, width) {
  const words = text.split(/\s+/).filter(Boolean);
  const lines = [];
  let cur = "";
  for (const word of words) {
    const next = cur ? `${cur} ${word}` : word;
    if (textWidth(next, size, font) <= width || !cur) cur = next;
    else {
      lines.push(cur);
      cur = word;
    }
  }
  if (cur) lines.push(cur);
  return lines;
}

function pdfString(s) {
  if (!/^[\x20-\x7e]*$/.test(s)) throw new Error(`Non-ASCII text in PDF: ${JSON.stringify(s)}`);
  return `(${s.replace(/\\/g, "\\\\").replace(/\(/g, "\\(").replace(/\)/g, "\\)")})`;
}

// Lay out all blocks into pages of positioned lines.
const pages = [[]];
let y = PAGE_H - MARGIN_TOP;
for (const b of blocks) {
  const st = styles[b.t];
  const indent = st.indent ?? 0;
  const lines = wrap(b.s, st.size, st.font, TEXT_W - indent);
  y -= st.before;
  // Keep headings with at least two lines of what follows.
  const needed = b.t === "h" ? st.lead + 2 * styles.p.lead : st.lead;
  if (y - needed < MARGIN_BOTTOM) {
    pages.push([]);
    y = PAGE_H - MARGIN_TOP;
  }
  lines.forEach((line, i) => {
    if (y - st.lead < MARGIN_BOTTOM) {
      pages.push([]);
      y = PAGE_H - MARGIN_TOP;
    }
    y -= st.lead;
    const page = pages[pages.length - 1];
    if (b.t === "li" && i === 0) {
      page.push({ font: "F1", size: st.size, x: MARGIN_X + 2, y, s: "-" });
    }
    page.push({ font: st.font, size: st.size, x: MARGIN_X + indent, y, s: line });
  });
  y -= st.after;
}

// ---------------------------------------------------------------------------
// Serialise
// ---------------------------------------------------------------------------
const fmt = (n) => (Number.isInteger(n) ? String(n) : n.toFixed(2));

function contentStream(lines, pageNo, pageCount) {
  const ops = [];
  for (const l of lines) {
    ops.push(`BT /${l.font} ${fmt(l.size)} Tf ${fmt(l.x)} ${fmt(l.y)} Td ${pdfString(l.s)} Tj ET`);
  }
  // Running footer and a thin rule above it.
  ops.push("0.6 w 60 48 m 552 48 l S");
  ops.push(
    `BT /F1 8 Tf 60 36 Td ${pdfString("TN-07 Thermal runaway in lithium-ion cells - Assay example corpus (CC BY 4.0)")} Tj ET`,
  );
  const label = `Page ${pageNo} of ${pageCount}`;
  ops.push(`BT /F1 8 Tf ${fmt(552 - textWidth(label, 8, "F1"))} 36 Td ${pdfString(label)} Tj ET`);
  return ops.join("\n") + "\n";
}

// Object numbering: 1 catalog, 2 pages, 3 F1, 4 F2, 5 info, then page/content pairs.
const objects = [];
const pageObjNums = pages.map((_, i) => 6 + 2 * i);

objects[1] = "<< /Type /Catalog /Pages 2 0 R >>";
objects[2] = `<< /Type /Pages /Kids [${pageObjNums.map((n) => `${n} 0 R`).join(" ")}] /Count ${pages.length} >>`;
objects[3] = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>";
objects[4] = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>";
objects[5] =
  `<< /Title ${pdfString("Technical Note TN-07: Thermal Runaway in Lithium-Ion Cells")} ` +
  `/Author ${pdfString("Assay example corpus")} ` +
  `/Subject ${pdfString("Thermal runaway mechanisms, onset temperatures and mitigation")} ` +
  `/Creator ${pdfString("scripts/make-example-pdf.mjs")} ` +
  `/CreationDate (D:20240101000000Z) >>`;

pages.forEach((lines, i) => {
  const pageNum = pageObjNums[i];
  const contentNum = pageNum + 1;
  const stream = contentStream(lines, i + 1, pages.length);
  objects[pageNum] =
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE_W} ${PAGE_H}] ` +
    `/Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${contentNum} 0 R >>`;
  objects[contentNum] = `<< /Length ${Buffer.byteLength(stream, "latin1")} >>\nstream\n${stream}endstream`;
});

// Header with a binary comment line so transfer tools treat the file as binary.
let out = "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n";
const offsets = [];
for (let n = 1; n < objects.length; n++) {
  offsets[n] = Buffer.byteLength(out, "latin1");
  out += `${n} 0 obj\n${objects[n]}\nendobj\n`;
}
const xrefOffset = Buffer.byteLength(out, "latin1");
out += `xref\n0 ${objects.length}\n`;
out += "0000000000 65535 f \n";
for (let n = 1; n < objects.length; n++) out += `${String(offsets[n]).padStart(10, "0")} 00000 n \n`;
out += `trailer\n<< /Size ${objects.length} /Root 1 0 R /Info 5 0 R >>\nstartxref\n${xrefOffset}\n%%EOF\n`;

mkdirSync(dirname(outPath), { recursive: true });
writeFileSync(outPath, Buffer.from(out, "latin1"));
console.log(`Wrote ${outPath} (${pages.length} pages, ${Buffer.byteLength(out, "latin1")} bytes)`);
