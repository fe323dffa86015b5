/**
 * `convert postman` on the collections WireMock's users have (the project
 * publishes none): Postman's import of the admin API's own document
 * (`/__admin/docs/swagger`, `openapi-to-postmanv2`, its options untouched)
 * and Portman's contract suite with tests/real/fixtures/wiremock/portman.json
 * (statuses, content types and JSON bodies asserted; the created stub
 * mapping's `id` chained into the requests on
 * `/__admin/mappings/{stubMappingId}`), run with `--ignoreCircularRefs`,
 * which Portman's own error asks for on this document.
 *
 * As for LoopBack (postman_loopback_test.ts): Newman against fresh instance
 * A, flowrun converted with default options and run as its summary prints
 * it against fresh instance B, both through one recording proxy. Goal: the
 * same requests in the same order, with the same bodies and statuses, and
 * every translated check with Newman's verdict.
 */
import assert from "node:assert/strict";
import { GENERATORS, portman, postmanImport } from "./postman_generators.ts";
import { type Measured, measurePostman } from "./postman_measure.ts";
import type { Received } from "./postman_proxy.ts";
import { prepare } from "./servers.ts";
import { javaMissing, WIREMOCK, WIREMOCK_DOCUMENT, wiremockLaunch } from "./wiremock.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const java = javaMissing();
const wiremock = java ? { ignoredBecause: java } : await prepare([WIREMOCK]);
const generators = await prepare(GENERATORS);
const ignoredBecause = wiremock.ignoredBecause || generators.ignoredBecause;

/** {@linkcode measurePostman} of WireMock's admin document, on fresh instances. */
function measure(
  make: (doc: string, collection: string, dir: string) => Promise<void>,
): Promise<Measured> {
  return measurePostman(wiremockLaunch(wiremock.install!.prefix), WIREMOCK_DOCUMENT, make);
}

/**
 * `METHOD /path?query` of each request; the id the first stub mapping's
 * creation answered reads `{created}`, so runs on instances that gave
 * different ids compare equal where each chained its own.
 */
function lines(received: readonly Received[]): string[] {
  const creation = received.find((r) =>
    r.method === "POST" && r.target === "/__admin/mappings" && r.status === 201
  );
  let id: string | undefined;
  try {
    id = JSON.parse(creation?.answer ?? "").id;
  } catch {
    // No creation answered JSON: nothing to name.
  }
  return received.map((r) => `${r.method} ${id ? r.target.replaceAll(id, "{created}") : r.target}`);
}

/** A body as what it says: parsed JSON, else the text. */
function meaning(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body || "null"));
  } catch {
    return body;
  }
}

/** How many requests got each status (`0`: no answer), as `201 ×1, 404 ×3`. */
function tally(received: readonly Received[]): string {
  const count = new Map<number, number>();
  for (const r of received) count.set(r.status, (count.get(r.status) ?? 0) + 1);
  return [...count].sort(([a], [b]) => a - b).map(([s, n]) => `${s} ×${n}`).join(", ");
}

/** Newman's and flowrun's requests side by side, with bodies, statuses and tests compared. */
function compare(name: string, m: Measured) {
  const newman = lines(m.newmanReceived);
  const flowrun = lines(m.flowrunReceived);
  const pairs = m.newmanReceived.map((r, i) => [r, m.flowrunReceived[i]] as const)
    .filter(([, f]) => f !== undefined);
  const bodies = pairs.filter(([n, f]) => meaning(n.body) !== meaning(f.body))
    .map(([n, f]) =>
      `${n.method} ${n.target}: Newman ${meaning(n.body)}, flowrun ${meaning(f.body)}`
    );
  // A request after `POST /__admin/shutdown` races the server stopping (WireMock stops a moment
  // after it answers): whether it is answered says how fast the client was, not what it sent.
  const shutdown = m.newmanReceived.findIndex((r) => r.target === "/__admin/shutdown");
  const settled = shutdown === -1 ? pairs : pairs.slice(0, shutdown + 1);
  const statuses = settled.filter(([n, f]) => n.status !== f.status)
    .map(([n, f]) =>
      `${n.method} ${n.target}: Newman got ${n.status}, flowrun ${f.status}` +
      (n.status === 0 || f.status === 0 ? ` (${n.status === 0 ? n.answer : f.answer})` : "")
    );
  const tests = m.newman.flatMap((request, i) =>
    request.assertions.map((t) => {
      const checks = (m.steps[i]?.assertions ?? []) as { name?: string; passed: boolean }[];
      const named = checks.filter((c) => c.name === t.name);
      return {
        name: t.name,
        newman: t.passed,
        translated: named.length > 0,
        flowrun: named.length > 0 && named.every((c) => c.passed),
      };
    })
  );
  console.error(
    `${name}: Newman sent ${newman.length} requests, ${tests.length} tests (${
      tests.filter((t) => !t.newman).length
    } failed); flowrun sent ${flowrun.length}; ${
      tests.filter((t) => t.translated).length
    } tests translated; asked for ${m.asked.join(", ") || "nothing"}; statuses (Newman): ${
      tally(m.newmanReceived)
    }` +
      (bodies.length ? `\n  bodies differ: ${bodies.join("\n    ")}` : "") +
      (statuses.length ? `\n  statuses differ: ${statuses.join("; ")}` : "") +
      (newman.join() !== flowrun.join()
        ? `\n  Newman:  ${newman.join(" | ")}\n  flowrun: ${flowrun.join(" | ")}`
        : ""),
  );
  return { newman, flowrun, bodies, statuses, tests };
}

Deno.test({
  name:
    `real servers: WireMock's admin document imported into Postman, converted and run, sends Newman's requests in Newman's order${ignoredBecause}`,
  ignore: ignoredBecause !== "",
  sanitizeResources: false,
  async fn() {
    const m = await measure((doc, out) => postmanImport(generators.install!.prefix, doc, out));
    const c = compare("WireMock, Postman import", m);
    assert.equal(c.newman.length, 41);
    assert.deepEqual(c.flowrun, c.newman);
    assert.deepEqual(c.bodies, []);
    assert.deepEqual(c.statuses, [], m.runOutput.slice(0, 4000));
    assert.equal(c.tests.length, 0, "the importer writes no tests");
    assert.deepEqual(m.asked, ["BASE_URL"]);
  },
});

Deno.test({
  name:
    `real servers: WireMock's Portman contract suite (the stub mapping's id chained), converted and run, sends Newman's requests in Newman's order and gives every test Newman's verdict${ignoredBecause}`,
  ignore: ignoredBecause !== "",
  sanitizeResources: false,
  async fn() {
    const m = await measure(async (doc, out, dir) => {
      await portman(
        generators.install!.prefix,
        doc,
        `${ROOT}tests/real/fixtures/wiremock/portman.json`,
        out,
        dir,
        // Portman refuses the document as served ("Circular $ref pointer found at
        // #/components/schemas/not-pattern/properties/not") and points to its ERRORS.md,
        // which says to ignore circular references: what a user then does.
        ["--ignoreCircularRefs"],
      );
    });
    const c = compare("WireMock, Portman", m);
    assert.equal(c.newman.length, 41);
    assert.deepEqual(c.flowrun, c.newman);
    assert.deepEqual(c.bodies, []);
    assert.deepEqual(c.statuses, [], m.runOutput.slice(0, 4000));
    assert.equal(c.flowrun.filter((l) => l.includes("/__admin/mappings/{created}")).length, 3);
    // Portman's tests of the five stub mapping operations (with circular references ignored it
    // leaves out the schema checks); each passes under Newman, is translated, and passes.
    assert.equal(c.tests.length, 8);
    assert.ok(c.tests.every((t) => t.newman), c.tests.map((t) => t.name).join("\n"));
    assert.deepEqual(c.tests.filter((t) => !t.translated).map((t) => t.name), []);
    assert.deepEqual(c.tests.filter((t) => t.newman !== t.flowrun), []);
    assert.deepEqual(m.asked, ["BASE_URL"]);
  },
});
