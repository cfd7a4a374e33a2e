/**
 * What a request asks, without the words that only frame it (pure). People wrap a question:
 * "Is the following claim supported or contradicted by the literature: X", "Tell me about X",
 * "I'd like to know whether X". The bootstrap search keeps the whole request (seed 004); the
 * offline engine's expansions, sentence scores and gaps use what the frame holds, so that
 * "claim", "literature" or "know" are never searched for, scored or reported missing, and the
 * pipeline reads what a search of that core finds as it reads the bootstrap's sources
 * (pipeline-strategy.ts).
 */

/** Words that only say what kind of request it is, never what it is about. */
const FRAME_WORDS = new Set(
  (
    "is are was were be it true that whether if the a an this these following next given below above " +
    "claim claims statement statements assertion sentence hypothesis question " +
    "supported support supports contradicted contradict contradicts refuted refute confirmed confirm " +
    "or and by in of to on for from with about according " +
    "literature evidence research studies study science scientific sources source documents record " +
    "tell me us please could can would you i we like want wish need know find out check verify explain " +
    "describe summarize summarise show say says said what does do did think consider"
  ).split(" "),
);

/** Openers that frame what follows them, lower-cased, longest first where one is a prefix of another. */
const OPENERS = [
  /^(?:please\s+)?(?:can|could|would)\s+you\s+(?:please\s+)?(?:tell\s+me|explain|find\s+out|check|say)\s+(?:about\s+)?/i,
  /^(?:please\s+)?tell\s+me\s+(?:about\s+)?/i,
  /^i(?:'|’)?d\s+like\s+to\s+know\s+/i,
  /^i\s+(?:would\s+like|want|wish|need)\s+to\s+know\s+/i,
  /^i\s+wonder\s+/i,
  /^(?:please\s+)?(?:find\s+out|check|verify)\s+/i,
  /^is\s+it\s+true\s+that\s+/i,
  /^what\s+does\s+the\s+(?:literature|evidence|research)\s+say\s+about\s+/i,
];

const words = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? [];

/**
 * The part of `request` its frame holds, or the request itself when it has no frame: the text
 * after a colon whose lead-in is made of framing words only ("Is the following claim supported
 * or contradicted by the literature: …"), then without an opener that frames it ("Tell me
 * about …", "I'd like to know whether …"). Never empty: a request that is all frame is kept.
 */
export function unframed(request: string): string {
  let core = request.trim();
  const colon = core.indexOf(":");
  if (colon > 0 && colon < core.length - 1) {
    const lead = words(core.slice(0, colon));
    if (lead.length > 0 && lead.every((word) => FRAME_WORDS.has(word))) core = core.slice(colon + 1).trim();
  }
  for (const opener of OPENERS) {
    const match = opener.exec(core);
    if (match && match[0].length < core.length) {
      core = core.slice(match[0].length).trim();
      break;
    }
  }
  // "whether X" and "if X" after a frame: the clause is the question.
  if (core !== request.trim()) core = core.replace(/^(?:whether|if)\s+(?=\S)/i, "");
  return core === "" ? request.trim() : core;
}

/**
 * Which of `queries` searches what a framed request holds: the core itself, or its leading
 * three quarters or more where a query's length limit cut it; -1 when none does or when the
 * request has no frame.
 */
export function coreQueryIndex(request: string, queries: readonly string[]): number {
  const core = unframed(request);
  if (core === request.trim()) return -1;
  const coreWords = words(core);
  return queries.findIndex((query) => {
    const queryWords = words(query);
    return (
      queryWords.length * 4 >= coreWords.length * 3 && queryWords.every((word, index) => word === coreWords[index])
    );
  });
}

/**
 * How many sources a run holds once a framed request's core has had its share of reading: the
 * bootstrap's share, then as many again from the core's own ranking (the bootstrap spent its
 * share on the framed request).
 */
export function coreReadTarget(bootstrapSources: number): number {
  return 2 * bootstrapSources;
}
