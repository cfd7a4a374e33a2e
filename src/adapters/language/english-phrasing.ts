/**
 * English phrasing for the answer block (`Phrasing`): which words of a question are verbs
 * (wink-nlp's tagger, through `englishLanguage`) and how a verb is put in the past or the third
 * person (compromise, loaded at the first use: only a report that says what the sources do not
 * say pays for it).
 */
import { createRequire } from "node:module";
import type { Inflection, Phrasing } from "../../core/answer/answer.js";
import { englishLanguage } from "./english-language.js";

interface CompromiseView {
  verbs(): { toPastTense(): CompromiseView; toPresentTense(): CompromiseView };
  text(): string;
}
type Compromise = (text: string) => CompromiseView;

let compromise: Compromise | undefined;
const nlp = (): Compromise => {
  compromise ??= createRequire(import.meta.url)("compromise") as Compromise;
  return compromise;
};

/** A verb's form, or the verb itself where the library gives nothing back. */
const formOf = (verb: string, make: (view: CompromiseView) => string): string => {
  const made = make(nlp()(verb)).trim();
  return made === "" || /\s/u.test(made) ? verb : made;
};

const inflection: Inflection = {
  past: (verb) => formOf(verb, (view) => view.verbs().toPastTense().text()),
  thirdPerson: (verb) => {
    const made = nlp()(`it ${verb}`).verbs().toPresentTense().text().trim();
    return made === "" || /\s/u.test(made) ? verb : made;
  },
};

/** The process's English phrasing. */
export function englishPhrasing(): Phrasing {
  return {
    verbsOf: (text) =>
      new Set(
        englishLanguage()
          .tokens(text)
          .filter((token) => token.pos === "VERB")
          .map((token) => token.text.toLowerCase()),
      ),
    inflection,
  };
}
