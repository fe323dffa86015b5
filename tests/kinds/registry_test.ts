/**
 * Every step goes through the registry (lib/kinds/mod.ts): an HTTP step is
 * read and run by the kind registered for `request`, its retries too; a kind
 * added by one line in `KINDS` is read by the loader and run by the runner
 * with nothing else changed; and no module outside `lib/kinds/` reaches into
 * a kind's folder, nor one kind into another's.
 */
import assert from "node:assert/strict";
import { KINDS, type StepKind } from "../../lib/kinds/mod.ts";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { makeContext } from "../../lib/run/make_context.ts";
import { runStep } from "../../lib/run/step.ts";
import { importGraph } from "../../scripts/check_layers.ts";
import "../support/engines.ts";

const inputs = {
  literals: new Set<string>(),
  vars: new Set<string>(),
  env: new Set<string>(),
  captures: new Set<string>(),
};

/** The first step of a flow text, ready for `runStep`. */
function input(yaml: string) {
  const { flow, problems } = loadFlow(yaml, "f.yaml");
  assert.deepEqual(problems, []);
  const scope = {
    env: () => undefined,
    vars: new Map([["who", "ada"]]),
    steps: new Map(),
    runId: "r",
  };
  return {
    ref: { file: "f.yaml", name: "f" },
    step: flow!.steps[0],
    scope,
    captured: new Map<string, unknown>(),
    flowStarted: performance.now(),
    inputs,
  };
}

/** The kind registered for `key`, with its `read` and `attempt` counted while `body` runs. */
async function counted(key: string, body: () => Promise<void>) {
  const kind = KINDS.find((k) => k.key === key);
  assert.ok(kind, `a kind is registered for "${key}"`);
  const { read, attempt } = kind;
  const counts = { reads: 0, attempts: 0 };
  kind.read = (...args) => (counts.reads++, read.apply(kind, args));
  kind.attempt = (...args) => (counts.attempts++, attempt.apply(kind, args));
  try {
    await body();
  } finally {
    kind.read = read;
    kind.attempt = attempt;
  }
  return counts;
}

Deno.test("an HTTP step is read and run by the kind registered for request, each retry too", async () => {
  let hits = 0;
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => Response.json({ n: ++hits }, { status: hits < 3 ? 503 : 200 }),
  );
  const ctx = makeContext({ runId: "r", timeoutMs: 5000 });
  try {
    let result;
    const counts = await counted("request", async () => {
      const step = input(`name: f
steps:
  - name: s
    request: {url: "http://127.0.0.1:${server.addr.port}/"}
    options: {retry: {count: 3, delay: 1ms, on: [503]}}
    assert: {status: 200, json: [{path: $.json.n, equals: 3}]}
`);
      result = await runStep(step, ctx);
    });
    assert.equal(result!.status, "passed", result!.message);
    assert.equal(hits, 3);
    assert.deepEqual(counts, { reads: 1, attempts: 3 });
    // The exchange is HTTP's own, whole: a failed step would show its curl line.
    assert.equal(result!.request?.method, "GET");
  } finally {
    ctx.deadlines?.close();
    await server.shutdown();
  }
});

Deno.test("a step with no kind's key is read as HTTP's: its problem names request", () => {
  const { problems } = loadFlow(
    "name: f\nsteps:\n  - name: s\n    assert: {status: 200}\n",
    "f.yaml",
  );
  assert.deepEqual(problems.map((p) => [p.code, p.message]), [
    ["missing-key", 'Missing key "request" in step "s".'],
  ]);
});

/** A kind made in this test: answers with its text, as JSON, without the network. */
const echo: StepKind<{ text: unknown }> = {
  key: "echo",
  what: "an echo",
  keys: ["text"],
  required: ["text"],
  read: (map, reading) => {
    const entry = map.get("text");
    const text = entry && reading.value(entry.value);
    return text && { text };
  },
  attempt: (spec, call) => {
    const text = call.render(spec.text as never);
    return Promise.resolve({
      request: { method: "ECHO", url: `echo:${text}`, headers: [] },
      response: { status: 200, headers: {}, body: JSON.stringify({ said: text }) },
    });
  },
  schema: { type: "object" },
  docs: "docs/architecture.md",
};

Deno.test("a kind added by one line in KINDS is read by the loader and run by the runner", async () => {
  const kinds = KINDS as StepKind[];
  kinds.unshift(echo as StepKind);
  const ctx = makeContext({ runId: "r", timeoutMs: 5000 });
  try {
    const step = input(`name: f
vars: {who: ada}
steps:
  - name: s
    echo: {text: "hello \${vars.who}"}
    assert: {json: [{path: $.json.said, equals: hello ada}]}
    capture: {said: $.json.said}
`);
    assert.deepEqual(step.step.call, { kind: "echo", spec: step.step.call?.spec });
    const result = await runStep(step, ctx);
    assert.equal(result.status, "passed", result.message);
    assert.equal(step.captured.get("said"), "hello ada");
    assert.equal(result.request?.url, "echo:hello ada");
    // Its reader's problems are the loader's, positioned, before anything runs.
    const { problems } = loadFlow("name: f\nsteps:\n  - name: s\n    echo: {txt: 1}\n", "f.yaml");
    assert.deepEqual(problems.map((p) => [p.code, p.line]), [["unknown-key", 4]]);
    assert.match(problems[0].hint ?? "", /"text"/);
  } finally {
    kinds.splice(kinds.indexOf(echo as StepKind), 1);
    ctx.deadlines?.close();
  }
});

/** The kind folder a module path is in (`lib/kinds/grpc/x.ts` → `grpc`), if any. */
const folderOf = (path: string) => /^lib\/kinds\/([^/]+)\//.exec(path)?.[1];

Deno.test("only the registry imports a kind's folder, and no kind imports another's", async () => {
  const graph = await importGraph(["mod.ts", "cli.ts"]);
  const reaching: string[] = [];
  for (const [from, imports] of graph) {
    // cli/run_graph.ts lists every module the run evaluates, to load them sooner.
    if (from === "cli/run_graph.ts" || from === "lib/kinds/mod.ts") continue;
    for (const to of imports) {
      const theirs = folderOf(to);
      if (theirs !== undefined && folderOf(from) !== theirs) reaching.push(`${from} → ${to}`);
    }
  }
  assert.deepEqual(reaching, []);
  // Every kind, HTTP's too, is a folder the registry imports.
  const registry = graph.get("lib/kinds/mod.ts") ?? [];
  const folders = new Set(registry.map(folderOf).filter((f) => f !== undefined));
  assert.ok(folders.has("http"), [...folders].join());
  assert.equal(folders.size, KINDS.length);
});

Deno.test("the loader and the runner choose a step's kind only through the registry", async () => {
  const graph = await importGraph(["mod.ts"]);
  // The step reader and the retry loop reach HTTP's reading and sending only through its kind.
  for (
    const [from, stage] of [["lib/load/steps.ts", "lib/load/request.ts"], [
      "lib/run/step.ts",
      "lib/run/attempt.ts",
    ]]
  ) {
    const text = await Deno.readTextFile(new URL(`../../${from}`, import.meta.url));
    const direct = text.match(/^import \{[^}]*\} from "[^"]+";$/gm)?.filter((line) =>
      line.endsWith(`/${stage.split("/").at(-1)}";`) && !/^import \{\s*type /.test(line) &&
      /\{[^}]*\b(attempt|loadRequest)\b/.test(line)
    );
    assert.deepEqual(direct, [], `${from} imports ${stage} directly`);
    assert.ok(graph.get(from)?.some((m) => m.startsWith("lib/") && m.includes("kind")), from);
  }
});
