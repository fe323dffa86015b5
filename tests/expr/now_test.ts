/**
 * `${NOW.…}`: the time of the run, read when the request is resolved, in the
 * URL, a header and a JSON body of a flow run by the CLI against a server on
 * 127.0.0.1; and the one positioned message, with what was meant, for a wrong
 * spelling. Times are compared with the clock read before and after the run,
 * never with a limit on how long it takes.
 */
import assert from "node:assert/strict";
const join = (...parts: string[]) => parts.join("/");
import { runCli } from "../support/cli.ts";
import { exportFresh } from "./fresh_processor.ts";
import { parseRef } from "../../lib/expr/ref.ts";
import { ExpressionSyntaxError } from "../../lib/expr/errors.ts";
import { evaluate, parseTemplate } from "../../lib/expr/template.ts";

const HOUR = 3_600_000;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

Deno.test("NOW reads its format and offset, in the one ${…} grammar", () => {
  const at = { text: "", offset: 0 };
  assert.deepEqual(parseRef("NOW.UNIX", at), { kind: "now", format: "unix", offsetMs: 0 });
  assert.deepEqual(parseRef("NOW.UNIX_MS-5s", at), {
    kind: "now",
    format: "unix-ms",
    offsetMs: -5_000,
  });
  assert.deepEqual(parseRef("NOW.ISO+2d", at), {
    kind: "now",
    format: "iso",
    offsetMs: 2 * 24 * HOUR,
  });
  assert.deepEqual(parseRef("NOW.UNIX+1w", at).kind, "now");
  assert.deepEqual(parseRef("NOW.ISO-30m", at), {
    kind: "now",
    format: "iso",
    offsetMs: -1_800_000,
  });
  // The day alone, as a date field takes it (a converted moment().format("YYYY-MM-DD")).
  assert.deepEqual(parseRef("NOW.DATE+7d", at), {
    kind: "now",
    format: "date",
    offsetMs: 7 * 24 * HOUR,
  });
  // A bare ${NOW} stays a name (a var or environment variable a flow may already have).
  assert.deepEqual(parseRef("NOW", at), { kind: "name", name: "NOW" });
});

function problem(inner: string): { message: string; offset: number; hint?: string } {
  try {
    parseRef(inner, { text: `\${${inner}}`, offset: 5 });
  } catch (error) {
    assert.ok(error instanceof ExpressionSyntaxError);
    return { message: error.message, offset: error.offset, hint: error.hint };
  }
  assert.fail(`${inner} parsed`);
}

Deno.test("a wrong NOW spelling is one message at the expression, with what was meant", () => {
  const cases: [string, string][] = [
    ["NOW.unix", "Did you mean ${NOW.UNIX}? "],
    ["NOW.UNIX+1H", "Did you mean ${NOW.UNIX+1h}? "],
    ["NOW.UNIX + 1h", "Did you mean ${NOW.UNIX+1h}? "],
    ["NOW.iso-30m", "Did you mean ${NOW.ISO-30m}? "],
    ["NOW.UNIX+1M", "The units are s, m (minutes), h, d and w"],
    ["NOW.UNIX+1y", "The units are s, m (minutes), h, d and w"],
    ["NOW.UNIX+99999999d", "The offset is at most 36525 days. "],
    ["NOW.TIMESTAMP", "Write ${NOW.UNIX} (seconds)"],
    ["NOW.UNIX+h", "Write ${NOW.UNIX} (seconds)"],
    ["NOW.UNIX.MS", "Write ${NOW.UNIX} (seconds)"],
  ];
  for (const [inner, hint] of cases) {
    const p = problem(inner);
    assert.equal(p.message, `Unknown time "\${${inner}}".`, inner);
    assert.equal(p.offset, 5, inner);
    assert.ok(p.hint?.startsWith(hint), `${inner}: ${p.hint}`);
    assert.ok(p.hint?.endsWith("(units s, m, h, d, w)."), `${inner}: ${p.hint}`);
  }
  // The head in the wrong case is the common "did you mean" of every head.
  assert.equal(problem("now.UNIX").hint?.startsWith('Did you mean "${NOW.UNIX}"?'), true);
});

Deno.test("NOW keeps its type alone and is text inside text", () => {
  const scope = { env: () => undefined, vars: new Map(), steps: new Map(), runId: "r" };
  const before = Date.now();
  const unix = evaluate(parseTemplate("${NOW.UNIX+1h}"), scope);
  const ms = evaluate(parseTemplate("${NOW.UNIX_MS}"), scope);
  const text = evaluate(parseTemplate("t-${NOW.UNIX}"), scope);
  const after = Date.now();
  assert.equal(typeof unix, "number");
  assert.ok(
    (unix as number) >= Math.floor((before + HOUR) / 1000) &&
      (unix as number) <= Math.floor((after + HOUR) / 1000),
  );
  assert.ok((ms as number) >= before && (ms as number) <= after);
  assert.match(text as string, /^t-\d{10}$/);
});

/** A server that keeps what each request sent. */
function recorder() {
  const seen: { url: URL; header: string | null; body: unknown }[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const text = await req.text();
    seen.push({
      url: new URL(req.url),
      header: req.headers.get("x-sent-at"),
      body: text === "" ? undefined : JSON.parse(text),
    });
    return Response.json({ ok: true });
  });
  return { seen, url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

Deno.test("flowrun run sends the time of the run, offset, in the URL, a header and a JSON body", async () => {
  const api = recorder();
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(
      join(dir, "now.yaml"),
      `name: now
steps:
  - name: session
    request:
      method: POST
      url: "${api.url}/session?validUntil=\${NOW.UNIX+1h}&since=\${NOW.ISO-30m}"
      headers: {x-sent-at: "\${NOW.UNIX_MS}"}
      body:
        validUntil: "\${NOW.UNIX+1h}"
        at_ms: "\${NOW.UNIX_MS}"
        at: "\${NOW.ISO}"
        yesterday: "\${NOW.UNIX-1d}"
        label: "run-\${NOW.UNIX}"
`,
    );
    const before = Date.now();
    const run = await runCli(["run", join(dir, "now.yaml"), "--report-json", join(dir, "r.json")]);
    const after = Date.now();
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(api.seen.length, 1);
    const { url, header, body } = api.seen[0];
    const sec = (offset: number) => [
      Math.floor((before + offset) / 1000),
      Math.floor((after + offset) / 1000),
    ];
    const within = (value: unknown, [lo, hi]: number[], what: string) =>
      assert.ok(typeof value === "number" && value >= lo && value <= hi, `${what}: ${value}`);
    within(Number(url.searchParams.get("validUntil")), sec(HOUR), "query validUntil");
    const since = url.searchParams.get("since")!;
    assert.match(since, ISO);
    within(Date.parse(since), [before - HOUR / 2, after - HOUR / 2], "query since");
    within(Number(header), [before, after], "header");
    const b = body as Record<string, unknown>;
    within(b.validUntil, sec(HOUR), "body validUntil");
    within(b.at_ms, [before, after], "body at_ms");
    within(b.yesterday, sec(-24 * HOUR), "body yesterday");
    assert.match(b.at as string, ISO);
    within(Date.parse(b.at as string), [before, after], "body at");
    assert.match(b.label as string, /^run-\d{10}$/);
    // The report shows the URL as it was sent, as for every other value.
    const report = await Deno.readTextFile(join(dir, "r.json"));
    assert.ok(report.includes(`validUntil=${url.searchParams.get("validUntil")}`), report);
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});

/** `flowrun validate` of a flow `name`.yaml whose one request goes to `url`: its exit code and output. */
async function validateUrl(name: string, url: string): Promise<{ code: number; out: string }> {
  const dir = await Deno.makeTempDir();
  try {
    const file = join(dir, `${name}.yaml`);
    await Deno.writeTextFile(
      file,
      `name: ${name}\nsteps:\n  - name: s\n    request: {url: "${url}"}\n`,
    );
    const run = await runCli(["validate", file]);
    return { code: run.code, out: run.stdout + run.stderr };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("flowrun validate points at a wrong NOW spelling with the hint", async () => {
  const { code, out } = await validateUrl("bad", "http://127.0.0.1:9/x?t=${NOW.UNIX+1H}");
  assert.equal(code, 2, out);
  assert.ok(out.includes('Unknown time "${NOW.UNIX+1H}"'), out);
  assert.ok(out.includes("Did you mean ${NOW.UNIX+1h}?"), out);
  assert.match(out, /bad\.yaml:4:\d+/);
});

Deno.test("the Artillery export makes ${NOW…} fresh in its processor, as run does", async () => {
  const fresh = await exportFresh("/s?until=${NOW.UNIX+1h}&at=${NOW.ISO}");
  assert.equal(fresh.text, "/s?until={{ f0_fresh_1 }}&at={{ f0_fresh_2 }}");
  assert.deepEqual(fresh.notes, []);
  const { before, after } = fresh;
  const until = fresh.vars.f0_fresh_1 as number;
  assert.ok(
    until >= Math.floor((before + HOUR) / 1000) && until <= Math.floor((after + HOUR) / 1000),
  );
  const at = Date.parse(fresh.vars.f0_fresh_2 as string);
  assert.ok(at >= before && at <= after);
});

Deno.test("flowrun validate: a bare ${NOW} that names nothing says how the time of the run is written", async () => {
  const { code, out } = await validateUrl("bare", "http://127.0.0.1:9/x?t=${NOW}");
  assert.equal(code, 2, out);
  assert.match(out, /bare\.yaml:4:\d+ error\[unknown-name\]: "NOW" is not a flow var/);
  assert.ok(
    out.includes(
      "hint: For the time of the run write ${NOW.UNIX}, ${NOW.UNIX_MS}, ${NOW.ISO} or ${NOW.DATE}. ",
    ),
    out,
  );
});
