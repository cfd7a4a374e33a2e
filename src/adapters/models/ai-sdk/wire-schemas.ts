/**
 * JSON Schemas sent to providers as the structured-output format (OpenAI `json_schema`
 * with `strict: true`, Anthropic `output_config.format`, Gemini `responseSchema`) and as
 * the input schemas of the research loop's tools.
 *
 * They describe the same objects as the zod schemas in core/synthesis/proposals.ts,
 * core/agent/turn.ts and core/judge/rubric.ts, in the subset every strict decoder
 * accepts: every property required, no additional properties, optional values as
 * `null`, and limits stated in descriptions rather than as `maxLength`/`maxItems`
 * keywords that some decoders reject. They only steer the decoder: every reply is still
 * validated against the zod schema.
 */
import type { JSONSchema7 } from "ai";

const string = (description?: string): JSONSchema7 => ({ type: "string", ...(description ? { description } : {}) });
const strings = (description: string): JSONSchema7 => ({ type: "array", description, items: { type: "string" } });

function object(properties: Record<string, JSONSchema7>, description?: string): JSONSchema7 {
  return {
    type: "object",
    ...(description ? { description } : {}),
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
  };
}

const array = (description: string, items: JSONSchema7): JSONSchema7 => ({ type: "array", description, items });

export const plannerWireSchema: JSONSchema7 = object({
  queries: array(
    "The proposed queries, materially distinct.",
    object({
      text: { type: ["string", "null"], description: "A keyword or phrase search, or null for a pattern query." },
      pattern: {
        type: ["string", "null"],
        description: "An RE2 regular expression for a corpus search, or null for a text query.",
      },
      pathPrefix: {
        type: ["string", "null"],
        description: "A corpus folder that limits a pattern query, or null.",
      },
    }),
  ),
});

export const synthesisWireSchema: JSONSchema7 = object({
  facts: array(
    "Atomic, source-backed facts, the most direct answers first. At most 60.",
    object({
      id: string("A new local id, e.g. f1."),
      text: string("One checkable sentence in the report language."),
      sourceId: string("Exactly one source id from the catalog."),
      chunkIds: strings("1 to 8 chunk ids of that source that say it."),
      contradictedBy: {
        type: ["array", "null"],
        description:
          "Passages of other sources that contradict the fact (a negation, another figure or date for the same subject), at most 4; null when none.",
        items: object({
          sourceId: string("Another source id from the catalog."),
          chunkIds: strings("1 to 8 chunk ids of that source that contradict it."),
          quote: string("The contradicting sentence, exactly as the passages write it."),
        }),
      },
    }),
  ),
  derivations: array(
    "Conclusions drawn from facts or other derivations. At most 30.",
    object({
      id: string("A new local id, e.g. d1."),
      text: string(),
      premiseIds: strings("1 to 12 local ids of facts or derivations."),
      method: string("How the conclusion follows from the premises."),
    }),
  ),
  recommendations: array(
    "Recommendations resting on facts or derivations. At most 20.",
    object({
      id: string("A new local id, e.g. r1."),
      text: string(),
      premiseIds: strings("1 to 12 local ids of facts or derivations."),
      conditions: strings("Reader-facing conditions under which it holds; may be empty."),
    }),
  ),
  gaps: array(
    "What the sources do not cover that the request asks about. At most 20.",
    object({
      id: string("A new local id, e.g. g1."),
      text: string(),
      relatedSourceIds: strings("Source ids related to the gap; may be empty."),
    }),
  ),
});

/** The arguments of the loop's `search` tool (agentSearchArgsSchema). */
export const agentSearchWireSchema: JSONSchema7 = object({
  query: string("A short keyword or phrase query, at most 300 characters."),
});

/** The arguments of the loop's `read` tool (agentReadArgsSchema). */
export const agentReadWireSchema: JSONSchema7 = object({
  hit: string('A hit handle from an earlier search result, e.g. "h3".'),
});

/** The arguments of the loop's `answer` tool (answerOutputSchema). */
export const agentAnswerWireSchema: JSONSchema7 = object({
  statements: array(
    "Atomic statements that the cited passages say, the most direct answers first. At most 40.",
    object({
      text: string("One checkable sentence in the report language."),
      sourceId: string('The id of a source you read, e.g. "s_002".'),
      chunkIds: strings('1 to 8 passage ids of that source that say it, e.g. "s_002.p03".'),
    }),
  ),
  gaps: array("What the sources read do not settle. At most 10.", object({ text: string() })),
});

const nullable = (schema: JSONSchema7): JSONSchema7 => ({ anyOf: [schema, { type: "null" }] });

/**
 * The loop's turn as a JSON reply in text, for servers that refuse tool calling: either
 * tool calls or the answer, the other null.
 */
export const agentTextTurnWireSchema: JSONSchema7 = object({
  calls: nullable(
    array(
      "The tool calls of this turn, or null when answering.",
      object({
        tool: { type: "string", enum: ["search", "read"] },
        query: { type: ["string", "null"], description: "For search: the query; null for read." },
        hit: { type: ["string", "null"], description: "For read: the hit handle; null for search." },
      }),
    ),
  ),
  answer: nullable(agentAnswerWireSchema),
});

/** The last turn as a JSON reply in text: only the answer. */
export const agentTextAnswerWireSchema: JSONSchema7 = object({ answer: agentAnswerWireSchema });

/** The judge's verdict (judgeOutputSchema in core/judge/rubric.ts). */
export const judgeWireSchema: JSONSchema7 = object({
  items: array(
    "One verdict per report item, in the order given, each item id exactly once.",
    object({
      id: string("The item id as given."),
      support: { type: "string", enum: ["supported", "partial", "unsupported"] },
      reason: string("One short sentence, at most 400 characters."),
    }),
  ),
  coverage: { type: "integer", description: "0, 1 or 2, by the rubric." },
  decisionValue: { type: "integer", description: "0, 1 or 2, by the rubric." },
  language: { type: "string", enum: ["matches", "mixed", "wrong"] },
});
