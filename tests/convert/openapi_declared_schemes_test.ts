/**
 * A document that declares security schemes and requires none anywhere (no
 * `security` at its top or on any operation: Signal K's apps document
 * declares `bearerAuth` and `cookieAuth`, and its server answers
 * `GET /plugins` 401 without one) is read as requiring its first declared
 * scheme: the summary asks for its credential and every step sends it. An
 * operation's explicit `security: []` still sends none, and a document
 * whose operations require schemes themselves is read as it says.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { serveStandIn } from "../support/openapi_suite.ts";

const list = {
  "200": { description: "OK", content: { "application/json": { schema: { type: "array" } } } },
};

/** A document of `/plugins` (and a public `/health`) whose components declare `schemes`. */
function documentWith(schemes: Record<string, unknown>, pluginsSecurity?: unknown[]) {
  return {
    openapi: "3.0.0",
    info: { title: "Apps", version: "1" },
    paths: {
      "/plugins": {
        get: { ...(pluginsSecurity ? { security: pluginsSecurity } : {}), responses: list },
      },
      "/health": { get: { security: [], responses: { "200": { description: "OK" } } } },
    },
    components: { securitySchemes: schemes },
  };
}

/** Converts `doc`, runs the printed command against a stand-in that wants `X-Key: k-1` on `/plugins`. */
async function trial(doc: unknown) {
  const dir = await Deno.makeTempDir();
  const seen: string[] = [];
  const server = serveStandIn((req) => {
    const path = new URL(req.url).pathname;
    seen.push(`${path} ${req.headers.get("x-key") ?? "-"}`);
    if (path === "/plugins" && req.headers.get("x-key") !== "k-1") {
      return new Response("You do not have permission", { status: 401 });
    }
    return path === "/plugins" ? Response.json([]) : new Response(null, { status: 200 });
  });
  try {
    await Deno.writeTextFile(`${dir}/api.json`, JSON.stringify(doc));
    const converted = await runCli(["convert", "openapi", `${dir}/api.json`, "-o", `${dir}/flows`]);
    assert.equal(converted.code, 0, converted.stderr);
    const line = /^Run: flowrun (.*)$/m.exec(converted.stderr)?.[1];
    assert.ok(line, converted.stderr);
    const run = await runCli(line.split(" "), { env: { BASE_URL: server.base, API_KEY: "k-1" } });
    const flows = [...Deno.readDirSync(`${dir}/flows`)].filter((e) => e.name.endsWith(".yaml"))
      .map((e) => Deno.readTextFileSync(`${dir}/flows/${e.name}`)).join("\n");
    return { summary: converted.stderr, run, seen, flows };
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
}

const KEY = { type: "apiKey", in: "header", name: "X-Key" };
const BEARER = { type: "http", scheme: "bearer" };

Deno.test("convert openapi sends the first declared scheme of a document that requires none anywhere", async () => {
  const { summary, run, seen, flows } = await trial(documentWith({ key: KEY, jwt: BEARER }));
  assert.match(summary, /^ {2}API_KEY: /m);
  assert.equal(run.code, 0, run.stdout);
  assert.ok(seen.includes("/plugins k-1"), seen.join(", "));
  // `security: []` of an operation is its own word: no credential.
  assert.ok(seen.includes("/health -"), seen.join(", "));
  assert.ok(!flows.includes("k-1"), "no literal credential");
});

Deno.test("a document whose operations require schemes themselves is read as it says", async () => {
  // /plugins requires nothing of its own accord beside an operation that requires the key.
  const doc = documentWith({ key: KEY });
  (doc.paths as Record<string, unknown>)["/admin"] = {
    get: { security: [{ key: [] }], responses: { "200": { description: "OK" } } },
  };
  const { summary, seen } = await trial(doc);
  assert.match(summary, /^ {2}API_KEY: /m);
  assert.ok(seen.includes("/plugins -"), seen.join(", "));
  assert.ok(seen.includes("/admin k-1"), seen.join(", "));
});
