/**
 * JSON Schemas sent to providers as the structured-output format (OpenAI `json_schema`
 * with `strict: true`, Anthropic `output_config.format`, Gemini `responseSchema`).
 *
 * They describe the same objects as the zod schemas in core/synthesis/proposals.ts, in
 * the subset every strict decoder accepts: every property required, no additional
 * properties, optional values as `null`, and limits stated in descriptions rather than
 * as `maxLength`/`maxItems` keywords that some decoders reject. They only steer the
 * decoder: every reply is still validated against the zod schema.
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
