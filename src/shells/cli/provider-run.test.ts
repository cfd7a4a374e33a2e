/**
 * End to end: `assay run --model …` against loopback servers speaking the providers' real
 * wire formats (OpenAI Chat Completions, Anthropic Messages). The fake model answers from
 * what it was sent: it quotes the first sentence of the first chunks it was shown.
 */

import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { EXAMPLE_CORPUS, runCli } from "../../testing/cli.js";
import { publishedReport } from "../../testing/read-report.js";
import { tempDir } from "../../testing/temp-dir.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = "";
    request.on("data", (chunk: Buffer) => {
      body += chunk.toString();
    });
    request.on("end", () => resolve(body));
  });
}

/** The model's reply, built from the prompt it received. */
function reply(prompt: string): string {
  if (!prompt.includes("<sources>")) return JSON.stringify({ queries: [{ text: "Goodenough Oxford cathode 1980" }] });
  const chunks = [...prompt.matchAll(/<source id="(s_\d+)">[\s\S]*?<chunk id="([^"]+)">\n([\s\S]*?)\n<\/chunk>/g)];
  const facts = chunks.slice(0, 3).map((match, index) => ({
    id: `f${index + 1}`,
    text: `${(match[3] ?? "").replace(/\s+/g, " ").split(/(?<=\.) /)[0]}`,
    sourceId: match[1],
    chunkIds: [match[2]],
  }));
  return JSON.stringify({
    facts: [...facts, { id: "bad", text: "Made up.", sourceId: "s_999", chunkIds: ["s_999.p01"] }],
    derivations: [],
    recommendations: [],
    gaps: [{ id: "g1", text: "The sources do not give production volumes.", relatedSourceIds: [] }],
  });
}

async function fakeProvider(
  kind: "openai" | "anthropic",
): Promise<{ url: string; seen: { path: string; body: Record<string, unknown> }[] }> {
  const seen: { path: string; body: Record<string, unknown> }[] = [];
  const server: Server = createServer(async (request, response) => {
    const body = JSON.parse(await readBody(request)) as Record<string, unknown>;
    seen.push({ path: request.url ?? "", body });
    const prompt = JSON.stringify(body.messages ?? "")
      .replace(/\\n/g, "\n")
      .replace(/\\"/g, '"');
    const text = reply(prompt);
    response.setHeader("content-type", "application/json");
    if (kind === "openai") {
      response.end(
        JSON.stringify({
          id: "chatcmpl-1",
          object: "chat.completion",
          created: 1_767_000_000,
          model: String(body.model),
          choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
          usage: { prompt_tokens: 900, completion_tokens: 120, total_tokens: 1_020 },
        }),
      );
    } else {
      response.end(
        JSON.stringify({
          id: "msg_1",
          type: "message",
          role: "assistant",
          model: String(body.model),
          content: [{ type: "text", text }],
          stop_reason: "end_turn",
          stop_sequence: null,
          usage: { input_tokens: 900, output_tokens: 120 },
        }),
      );
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, seen };
}

const QUESTION = "Who discovered lithium cobalt oxide, and where?";

describe("assay run with a provider model", () => {
  const cases = [
    {
      kind: "openai" as const,
      spec: "openai-compatible:test-model",
      env: (url: string) => ({ ASSAY_MODEL_BASE_URL: `${url}/v1` }),
      path: "/v1/chat/completions",
    },
    {
      kind: "anthropic" as const,
      spec: "anthropic:claude-test",
      // A hosted provider is moved only by its own variable, never by ASSAY_MODEL_BASE_URL.
      env: (url: string) => ({ ANTHROPIC_BASE_URL: `${url}/v1`, ANTHROPIC_API_KEY: "sk-test-secret" }),
      path: "/v1/messages",
    },
  ];
  for (const testCase of cases) {
    it(`publishes a synthesized report through the ${testCase.kind} wire format`, async () => {
      const provider = await fakeProvider(testCase.kind);
      const dir = tempDir("assay-provider-");
      cleanups.push(dir.cleanup);
      const out = join(dir.path, "out");
      const result = await runCli(
        ["run", QUESTION, "--corpus", EXAMPLE_CORPUS, "--out", out, "--model", testCase.spec, "--json"],
        {
          home: dir.path,
          env: testCase.env(provider.url),
        },
      );
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({ status: "finished", artifactStatus: "synthesized" });
      expect(provider.seen.map((request) => request.path)).toEqual([testCase.path, testCase.path]);
      const doc = publishedReport(join(out, "report.json"));
      // The direct findings are those the answer block says answer the question, in its order.
      const answering = [...new Set(doc.answer?.flatMap((part) => part.findings.map((use) => use.number)))];
      expect(doc.directFindings.map((finding) => finding.number)).toEqual(answering);
      expect(doc.gaps.map((gap) => gap.text)).toEqual(["The sources do not give production volumes."]);
      expect(doc.producedBy).toContain(testCase.spec);
      const show = JSON.parse((await runCli(["runs", "show", "1", "--json"], { home: dir.path })).stdout) as {
        run: { request: { model: string } };
        searches: { origin: string }[];
        diagnostics: { code: string }[];
        events: { type: string; data: { usage?: { inputTokens: number } } }[];
      };
      expect(show.run.request.model).toBe(testCase.spec);
      expect(show.searches.map((call) => call.origin)).toEqual(["bootstrap", "planner"]);
      expect(show.diagnostics.map((item) => item.code)).toContain("fact-dropped");
      const finished = show.events.filter((event) => event.type === "generation-finished");
      expect(finished.map((event) => event.data.usage?.inputTokens)).toEqual([900, 900]);
      expect(JSON.stringify(show)).not.toContain("sk-test-secret");
      const text = (await runCli(["runs", "show", "1"], { home: dir.path })).stdout;
      expect(text).toContain(`model: ${testCase.spec}   (2 generations, 1800 in / 240 out tokens)`);
    });
  }
});
