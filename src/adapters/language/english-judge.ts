/**
 * The process's judge for English text: the pure judge (core/judgment) over wink-nlp and
 * WordNet (`englishLanguage`). Nothing is loaded until the first judgement.
 */
import { createJudge, type Judge } from "../../core/judgment/judge.js";
import { englishLanguage } from "./english-language.js";

let shared: Judge | undefined;

/** The one English judge of this process (its memos are shared by every run). */
export function englishJudge(): Judge {
  shared ??= createJudge(englishLanguage());
  return shared;
}
