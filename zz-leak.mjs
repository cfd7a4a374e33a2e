const pdfjs = await import("pdfjs-dist/legacy/build/pdf.mjs");
const destroy = process.argv[2] === "destroy";
const junk = new Uint8Array(5_000_000); junk.set(Buffer.from("%PDF-1.7\n garbage"), 0);
for (let i = 0; i < 60; i++) {
  const task = pdfjs.getDocument({ data: new Uint8Array(junk), isEvalSupported: false, disableFontFace: true, useSystemFonts: false, stopAtErrors: false, verbosity: 0 });
  try { await task.promise; } catch (e) { if (i === 0) console.log(e.name, e.message); }
  if (destroy) await task.destroy();
}
globalThis.gc?.();
await new Promise((r) => setTimeout(r, 200));
globalThis.gc?.();
console.log(destroy ? "destroy" : "no destroy", Math.round(process.memoryUsage().arrayBuffers / 1e6), "MB arrayBuffers", Math.round(process.memoryUsage().heapUsed/1e6), "MB heap");
