/**
 * `--verify` never crashes on a member name: a candidate whose capture is a
 * JSONPath over a member that is not a plain identifier (`0`, a space, a
 * quote, `$`, a dot, unicode, a tab, `${`) is written so the flow loads and
 * finds it, or dropped, never exit 3. Each case is a live server the test
 * starts and a HAR built against it; the round trip is candidate → path →
 * flow loader → live capture.
 */
import assert from "node:assert/strict";
import { finishConversion, prepareConversion } from "../../lib/convert/har.ts";
import { formatVerify, verifyConversion } from "../../lib/convert/verify.ts";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { harOf } from "../support/har_records.ts";
import { type CliRun, runCli } from "../support/cli.ts";
import "../support/engines.ts";

/** Member names a real API uses that a JSONPath must quote, escape or both. */
const NAMES = [
  "0",
  "12",
  "a b",
  "it's",
  'say "hi"',
  "$ref",
  "a.b",
  "ünï",
  "日本",
  "@x",
  "a\\b",
  "[x]",
  "*",
  "a-b",
  " ",
  "?",
  "tab\tx",
  "nl\nx",
  "cr\rx",
  "nul\u0000x",
  "${x}",
  "$${x}",
  "}",
  "0x",
  "constructor",
  "a'\"b",
  "\u{1F600}",
];

/**
 * Names no JSONPath engine here reads, even escaped (json-p3 refuses `\u0000`):
 * the candidate is dropped and the summary says why.
 */
const REFUSED = new Set(["nul\u0000x"]);

/** Where the member stands: the list filter's field, the id itself, an object key. */
const SHAPES: Record<string, (name: string, id: (s: string) => string) => unknown> = {
  "filter on it": (name, id) => ({
    data: [{ [name]: "alpha", id: id("aa") }, { [name]: "beta", id: id("bb") }],
  }),
  "the id under it": (name, id) => ({
    data: [{ title: "alpha", [name]: id("aa") }, { title: "beta", [name]: id("bb") }],
  }),
  "an object under it": (name, id) => ({ [name]: { id: id("bb") } }),
};

/** A live API whose list hands out fresh ids on every call, and echoes the rest. */
function startApi(shape: (name: string, id: (s: string) => string) => unknown, name: string) {
  let calls = 0;
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    calls++;
    seen.push(url.pathname + (await req.text()));
    if (url.pathname === "/list") return Response.json(shape(name, (s) => `itm_live${calls}${s}`));
    const ok = url.pathname === "/things" || /^\/items\/itm_live\d+bb$/.test(url.pathname);
    return Response.json({ ok }, { status: ok ? 200 : 404 });
  });
  return {
    origin: `http://127.0.0.1:${server.addr.port}`,
    seen,
    close: () => server.shutdown(),
  };
}

function harFor(
  origin: string,
  shape: (n: string, id: (s: string) => string) => unknown,
  name: string,
) {
  return harOf([
    { url: `${origin}/list`, json: shape(name, (s) => `itm_rec0001${s}`) },
    { url: `${origin}/items/itm_rec0001bb` },
  ]);
}

for (const [shapeName, shape] of Object.entries(SHAPES)) {
  for (const spelling of ["a", "b"] as const) {
    Deno.test(`--verify round-trips every member name with ${shapeName} (spelling ${spelling})`, async () => {
      const failures: string[] = [];
      for (const name of NAMES) {
        const api = startApi(shape, name);
        try {
          const prepared = prepareConversion(harFor(api.origin, shape, name), {
            noCorrelate: true,
            spelling,
          });
          const report = await verifyConversion(prepared, {
            baseUrl: api.origin,
            env: () => undefined,
            timeoutMs: 5000,
          });
          const text = formatVerify(report);
          const { yaml } = finishConversion(prepared, { noCorrelate: true, spelling });
          const { flow, problems } = loadFlow(yaml, "f.yaml", { checkEnv: false });
          // Every failure that was not tried again says why, whatever the name.
          if (/\(0 tries\)/.test(text)) failures.push(`${JSON.stringify(name)}: ${text}`);
          if (REFUSED.has(name)) {
            if (report.passed === report.steps || !/nothing to try|does not load/.test(text)) {
              failures.push(`${JSON.stringify(name)}: not said why: ${text}`);
            }
          } else if (!flow) {
            failures.push(`${JSON.stringify(name)}: does not load: ${problems[0]?.message}`);
          } else if (report.passed !== report.steps) {
            failures.push(`${JSON.stringify(name)}: ${text}`);
          }
        } catch (error) {
          failures.push(`${JSON.stringify(name)}: threw ${error}`);
        } finally {
          await api.close();
        }
      }
      assert.deepEqual(failures, []);
    });
  }
}

/**
 * Records `shape` with the member `name` against an API of its own, converts
 * that with `--verify` against the same API, and hands `check` the
 * conversion; the API closed and the folder removed after.
 */
async function verifiedShape(
  shape: string,
  name: string,
  check: (verified: CliRun, api: ReturnType<typeof startApi>, dir: string) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-verify-names-" });
  const api = startApi(SHAPES[shape], name);
  try {
    await Deno.writeTextFile(`${dir}/s.har`, harFor(api.origin, SHAPES[shape], name));
    const verified = await runCli([
      "convert",
      "har",
      `${dir}/s.har`,
      "--verify",
      api.origin,
      "-o",
      `${dir}/flow.yaml`,
    ]);
    await check(verified, api, dir);
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("convert har --verify with a member named by a tab and ${…}: a flow that runs, not exit 3", () =>
  verifiedShape("filter on it", "tab\t${x}", async (verified, api, dir) => {
    assert.equal(verified.code, 0, verified.stderr);
    assert.match(verified.stderr, /^Verified 2 steps against .*: all pass/m);
    const run = await runCli(["run", `${dir}/flow.yaml`], { env: { BASE_URL: api.origin } });
    assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
    assert.ok(api.seen.some((s) => /^\/items\/itm_live\d+bb$/.test(s)), api.seen.join("\n"));
  }));

/** A small seeded generator: the same names on every run, so a failure is reproducible. */
function seeded(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Characters member names are made of: the ones a JSONPath quotes or escapes, and plain ones. */
const POOL = [
  ..."0123456789aZ_ .'\"$@?*[](){}\\/:-,&|=!<>~#%^`+",
  "${",
  "$${",
  "é",
  "日",
  "😀",
  "\t",
  "\n",
  "\r",
  "\b",
  "\f",
  "\u2028",
  "\u00a0",
];

Deno.test("a fuzz of member names: each candidate path loads in a flow and finds its value", async () => {
  const { Spelling } = await import("../../lib/convert/spelling.ts");
  const { unexpressible } = await import("../../lib/convert/verify_express.ts");
  const { compilePath, select } = await import("../../lib/expr/path.ts");
  const a = new Spelling("a");
  const b = new Spelling("b");
  const random = seeded(52);
  const failures: string[] = [];
  for (let n = 0; n < 400; n++) {
    const name = Array.from(
      { length: 1 + Math.floor(random() * 6) },
      () => POOL[Math.floor(random() * POOL.length)],
    ).join("");
    // A filter's value is template text by contract (a generated `Widget ${RUN_ID}`); a
    // recorded value holding `${` never names an element (canName), so none is tried here.
    const value = name.replaceAll("${", "$ {");
    const doc = { [name]: "v0", items: [{ [name]: "x" }, { [name]: value, id: "the-one" }] };
    const paths = [[name], ["items", { key: name, value }, "id"]] as const;
    for (const path of paths) {
      const why = unexpressible(a, { kind: "json", path: [...path] });
      const found = select(compilePath(b.jsonPath([...path]), "body"), doc);
      const expected = path.length === 1 ? "v0" : "the-one";
      const value = Array.isArray(found.value) ? found.value[0] : found.value;
      if (why || value !== expected) {
        failures.push(
          `${JSON.stringify(name)} ${b.jsonPath([...path])}: ${why ?? JSON.stringify(found)}`,
        );
      }
    }
  }
  assert.deepEqual(failures, []);
});

Deno.test("convert har --verify on a member no JSONPath engine reads: said, and never exit 3", () =>
  verifiedShape("an object under it", "nul\u0000x", (verified) => {
    // Said either way: the verification's line, or the converter's refusal (exit 2) to write a
    // flow that does not load; never an internal error.
    assert.notEqual(verified.code, 3, verified.stderr);
    if (verified.code !== 0) {
      assert.match(verified.stderr, /does not load|nothing to try/, verified.stderr);
    }
    return Promise.resolve();
  }));
