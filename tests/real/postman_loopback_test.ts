/**
 * `convert postman` on the collections LoopBack's users actually have (the
 * project publishes none) for `@loopback/example-todo` and
 * `@loopback/example-file-transfer`: the one Postman makes when the app's
 * own `/openapi.json` is imported (`openapi-to-postmanv2`), and Portman's
 * contract suite with the configs in tests/fixtures/real/ (statuses,
 * content types, JSON bodies and schemas asserted; the created todo's id,
 * or the listed file name, chained by `assignVariables`).
 *
 * The reference is Newman against fresh instance A; flowrun converts with
 * default options and runs as the summary prints it, with only the
 * variables it asks for, against fresh instance B. Both go through one
 * recording proxy (the origin the collection names), which records what
 * each instance received. Goal: the same requests in the same order, and
 * every translated check with Newman's verdict. See docs/real-servers.md.
 */
import assert from "node:assert/strict";
import type { ReportStep } from "./measure.ts";
import { FILES, filesLaunch, TODO, todoLaunch } from "./loopback.ts";
import { GENERATORS, portman, postmanImport } from "./postman_generators.ts";
import { type Measured, measurePostman } from "./postman_measure.ts";
import type { Received } from "./postman_proxy.ts";
import { type Launch, prepare } from "./servers.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const servers = await prepare([TODO]);
const files = await prepare([FILES]);
const generators = await prepare(GENERATORS);
const ignoredBecause = servers.ignoredBecause || generators.ignoredBecause;
const filesIgnoredBecause = files.ignoredBecause || generators.ignoredBecause;

/** {@linkcode measurePostman} of LoopBack's document, which each app serves at `/openapi.json`. */
function measure(
  launch: Launch,
  make: (doc: string, collection: string, dir: string) => Promise<void>,
  prepareB?: (origin: string) => Promise<void>,
): Promise<Measured> {
  return measurePostman(launch, "/openapi.json", make, prepareB);
}

/**
 * `METHOD /path?query` of each request, in order; the id the first creation
 * (`POST /todos`) answered reads `{created}` in every later path, so that two
 * runs whose instances gave different ids compare equal where each chained
 * its own.
 */
function lines(received: readonly Received[]): string[] {
  const creation = received.find((r) => r.method === "POST" && r.target === "/todos");
  let id: unknown;
  try {
    id = JSON.parse(creation?.answer ?? "")?.id;
  } catch {
    // No creation answered JSON: nothing to name.
  }
  return received.map((r) => {
    const target = id === undefined
      ? r.target
      : r.target.replace(new RegExp(`/${id}(?=$|[/?])`), "/{created}");
    return `${r.method} ${target}`;
  });
}

/** Creates a todo on `origin` (not through the proxy), so that its next id differs from a fresh instance's. */
async function createOne(origin: string): Promise<void> {
  const response = await fetch(`${origin}/todos`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ title: "taken by the test, so ids differ from instance A's" }),
  });
  await response.body?.cancel();
  assert.equal(response.status, 200);
}

/** How many leading requests are the same in both, and the first difference. */
function sameOrder(newman: readonly string[], flowrun: readonly string[]): number {
  let i = 0;
  while (i < newman.length && i < flowrun.length && newman[i] === flowrun[i]) i++;
  return i;
}

/**
 * A body as what it says: parsed JSON, or a multipart body's parts (field
 * name, file name, content; the boundary differs between any two senders),
 * else the text.
 */
function meaning(body: string): string {
  const boundary = /^--(\S+)\r\n/.exec(body)?.[1];
  if (boundary) {
    const parts = body.split(`--${boundary}`).slice(1, -1).map((part) => {
      const [head, ...content] = part.replace(/^\r\n/, "").split("\r\n\r\n");
      const name = /name="([^"]*)"/.exec(head)?.[1];
      const filename = /filename="([^"]*)"/.exec(head)?.[1];
      return { name, filename, content: content.join("\r\n\r\n").replace(/\r\n$/, "") };
    });
    return JSON.stringify(parts);
  }
  try {
    return JSON.stringify(JSON.parse(body || "null"));
  } catch {
    return body;
  }
}

/** A check of flowrun's report, as far as these tests read it. */
interface Check {
  name?: string;
  operator: string;
  passed: boolean;
}

/**
 * The checks of `step` that stand for Newman's test `name`: those carrying
 * its name, else, for Portman's "Schema is valid", the step's `schema`
 * check (which the converter writes without the test's name).
 */
function checksFor(step: ReportStep | undefined, name: string): Check[] {
  const all = (step?.assertions ?? []) as Check[];
  const named = all.filter((a) => a.name === name);
  if (named.length > 0 || !name.endsWith("Schema is valid")) return named;
  return all.filter((a) => a.operator === "schema");
}

/**
 * Each of Newman's tests beside what flowrun made of it: request `i` of
 * Newman's run is step `i` of flowrun's (the same order is asserted apart).
 */
function testsSideBySide(m: Measured) {
  return m.newman.flatMap((request, i) =>
    request.assertions.map((t) => {
      const checks = checksFor(m.steps[i], t.name);
      return {
        request: i,
        name: t.name,
        newman: t.passed,
        translated: checks.length > 0,
        flowrun: checks.length > 0 && checks.every((c) => c.passed),
      };
    })
  );
}

/** Prints the comparison and returns its numbers. */
function compare(name: string, m: Measured) {
  const newman = lines(m.newmanReceived);
  const flowrun = lines(m.flowrunReceived);
  const same = sameOrder(newman, flowrun);
  const pairs = m.newmanReceived.slice(0, same).map((r, i) => [r, m.flowrunReceived[i]] as const);
  const bodies = pairs.filter(([n, f]) => meaning(n.body) !== meaning(f.body))
    .map(([n, f]) =>
      `${n.method} ${n.target}: Newman ${meaning(n.body)}, flowrun ${meaning(f.body)}`
    );
  const statuses = pairs.filter(([n, f]) => n.status !== f.status)
    .map(([n, f]) => `${n.method} ${n.target}: Newman got ${n.status}, flowrun ${f.status}`);
  const newmanTests = m.newman.flatMap((r) => r.assertions);
  const tests = testsSideBySide(m);
  // A test of a request flowrun never sent is not counted as untranslated.
  const notSent = tests.filter((t) => t.request >= flowrun.length).map((t) => t.name);
  const untranslated = tests.filter((t) => t.request < flowrun.length && !t.translated)
    .map((t) => t.name);
  const failing = tests.filter((t) => t.translated && !t.flowrun).map((t) => t.name);
  const newmanFailing = newmanTests.filter((t) => !t.passed).map((t) => `${t.name}: ${t.error}`);
  console.error(
    `${name}: Newman sent ${newman.length} requests, ${newmanTests.length} tests (${newmanFailing.length} failed); ` +
      `flowrun sent ${flowrun.length}, the first ${same} the same in order; ${
        tests.length - untranslated.length - notSent.length
      } tests translated, ${failing.length} of them failing; ` +
      `asked for ${m.asked.join(", ") || "nothing"}\n  Newman:  ${newman.join(" | ")}\n  flowrun: ${
        flowrun.join(" | ")
      }` +
      (bodies.length ? `\n  bodies differ: ${bodies.join("\n    ")}` : "") +
      (statuses.length ? `\n  statuses differ: ${statuses.join("; ")}` : "") +
      (newmanFailing.length ? `\n  Newman failed: ${newmanFailing.join("; ")}` : "") +
      (untranslated.length ? `\n  not translated: ${untranslated.join("; ")}` : "") +
      (notSent.length ? `\n  tests of requests flowrun did not send: ${notSent.join("; ")}` : "") +
      (failing.length ? `\n  flowrun failed: ${failing.join("; ")}` : ""),
  );
  return { newman, flowrun, same, bodies, statuses, newmanTests, tests, untranslated, failing };
}

Deno.test({
  name:
    `real servers: LoopBack Todo's OpenAPI document imported into Postman, converted and run, sends Newman's requests in Newman's order${ignoredBecause}`,
  ignore: ignoredBecause !== "",
  sanitizeResources: false,
  async fn() {
    const m = await measure(
      todoLaunch(servers.install!.prefix),
      (doc, out) => postmanImport(generators.install!.prefix, doc, out),
    );
    const c = compare("Todo, Postman import", m);
    assert.equal(c.newman.length, 8);
    assert.deepEqual(c.flowrun, c.newman);
    assert.deepEqual(c.bodies, []);
    assert.deepEqual(c.statuses, []);
    // The importer writes no tests: nothing to translate, nothing asked but the base URL.
    assert.equal(c.newmanTests.length, 0);
    assert.deepEqual(m.asked, ["BASE_URL"]);
  },
});

Deno.test({
  name:
    `real servers: LoopBack Todo's Portman contract suite, converted and run, sends Newman's requests in Newman's order and passes every check Newman passes${ignoredBecause}`,
  ignore: ignoredBecause !== "",
  sanitizeResources: false,
  async fn() {
    const once = () =>
      measure(
        todoLaunch(servers.install!.prefix),
        (doc, out, dir) =>
          portman(
            generators.install!.prefix,
            doc,
            `${ROOT}tests/fixtures/real/portman-todo.json`,
            out,
            dir,
          ).then(() => {}),
        createOne,
      );
    // Portman fakes the create's body from the schema: once in a loaded CI run the body it made
    // was one LoopBack refuses (422 under Newman itself), a collection with nothing to compare on
    // (the failing-check test below is that case). Made anew, at most twice more.
    let m = await once();
    for (let again = 0; again < 2 && !(m.newmanReceived[0]?.status < 300); again++) {
      console.error(`Todo, Portman: Newman's create got ${m.newmanReceived[0]?.status}; made anew`);
      m = await once();
    }
    const c = compare("Todo, Portman", m);
    assert.equal(c.newman.length, 8);
    assert.deepEqual(c.flowrun, c.newman);
    assert.deepEqual(c.bodies, []);
    assert.deepEqual(c.statuses, []);
    // Instance B gave the creation another id than A did, and each run read its own.
    const ids = [m.newmanReceived, m.flowrunReceived].map((r) => JSON.parse(r[0].answer).id);
    assert.notEqual(ids[0], ids[1]);
    assert.equal(c.flowrun.filter((l) => l.includes("/todos/{created}")).length, 4);
    // Every test is Portman's own and passes under Newman; each is translated and passes.
    assert.equal(c.newmanTests.length, 26);
    assert.ok(c.newmanTests.every((t) => t.passed));
    assert.deepEqual(c.untranslated, []);
    assert.deepEqual(c.failing, [], m.runOutput.slice(0, 4000));
    assert.deepEqual(m.asked, ["BASE_URL"]);
  },
});

Deno.test({
  name:
    `real servers: LoopBack file transfer's OpenAPI document imported into Postman, converted and run, sends Newman's requests in Newman's order${filesIgnoredBecause}`,
  ignore: filesIgnoredBecause !== "",
  sanitizeResources: false,
  async fn() {
    const m = await measure(
      filesLaunch(files.install!.prefix),
      (doc, out) => postmanImport(generators.install!.prefix, doc, out),
    );
    const c = compare("File transfer, Postman import", m);
    assert.equal(c.newman.length, 3);
    assert.deepEqual(c.flowrun, c.newman);
    assert.deepEqual(c.statuses, []);
    // Goal met: the importer's form field `file` has no `src`; Newman sends the part with
    // filename="" and no content, and so does flowrun since 2026-11-26 (it uploaded its empty
    // placeholder as filename="file.bin", which the server stored: one body differed).
    assert.deepEqual(c.bodies, []);
  },
});

// Found with Portman's first config: a test that fails under Newman (PUT sends the body's own
// random `id`, which LoopBack refuses with 400 since it differs from the path's) does not stop
// Newman, which sends the PATCH and DELETE after it; flowrun stopped the flow at the failed step
// (6 of 8 sent) until converted steps became `always: true` (2026-11-26).
Deno.test({
  name:
    `real servers: LoopBack Todo's Portman suite with a failing check sends all of Newman's 8 requests, in order, each test with Newman's verdict${ignoredBecause}`,
  ignore: ignoredBecause !== "",
  sanitizeResources: false,
  async fn() {
    const m = await measure(
      todoLaunch(servers.install!.prefix),
      async (doc, out, dir) => {
        const config = JSON.parse(
          await Deno.readTextFile(`${ROOT}tests/fixtures/real/portman-todo.json`),
        );
        // The PUT and PATCH bodies keep the `id` Portman generated from the schema.
        for (const o of config.overwrites) {
          if (o.openApiOperation === "*::/todos/{id}") delete o.overwriteRequestBody;
        }
        await Deno.writeTextFile(`${dir}/portman.json`, JSON.stringify(config));
        await portman(generators.install!.prefix, doc, `${dir}/portman.json`, out, dir);
      },
    );
    const c = compare("Todo, Portman with a failing check", m);
    assert.equal(c.newman.length, 8);
    assert.deepEqual(
      c.tests.filter((t) => !t.newman).map((t) => t.name),
      ["[PUT]::/todos/:id - Status code is 2xx", "[PUT]::/todos/:id - Response has empty Body"],
    );
    // What was sent is Newman's, in order, the PATCH and DELETE after the failed PUT included,
    // each test translated with Newman's verdict.
    assert.deepEqual(c.flowrun, c.newman);
    assert.deepEqual(c.tests.filter((t) => !t.translated || t.newman !== t.flowrun), []);
    assert.deepEqual(m.steps.filter((s) => s.status === "skipped"), []);
  },
});

/** The file app with one file already uploaded (`seeded.txt`), so that its listing names one. */
function filesHoldingOne(prefix: string): Launch {
  const launch = filesLaunch(prefix);
  return {
    ...launch,
    seed: async (dir) => {
      await launch.seed?.(dir);
      await Deno.writeTextFile(`${dir}/uploads/seeded.txt`, "uploaded before the run\n");
    },
  };
}

Deno.test({
  name:
    `real servers: LoopBack file transfer's Portman suite (upload, list, download the listed file), converted and run, matches Newman${filesIgnoredBecause}`,
  ignore: filesIgnoredBecause !== "",
  sanitizeResources: false,
  async fn() {
    const m = await measure(
      filesHoldingOne(files.install!.prefix),
      async (doc, out, dir) => {
        await Deno.copyFile(`${ROOT}tests/fixtures/real/notes.txt`, `${dir}/notes.txt`);
        await portman(
          generators.install!.prefix,
          doc,
          `${ROOT}tests/fixtures/real/portman-files.json`,
          out,
          dir,
        );
      },
    );
    const c = compare("File transfer, Portman", m);
    assert.equal(c.newman.length, 3);
    assert.deepEqual(c.flowrun, c.newman);
    assert.deepEqual(c.bodies, []);
    assert.deepEqual(c.statuses, []);
    // Each of Portman's 10 tests is translated and has Newman's verdict. One fails under both:
    // the document says the download is application/octet-stream, the server answers a .txt
    // as text/plain (a contract finding, the same in both runners).
    assert.equal(c.newmanTests.length, 10);
    assert.deepEqual(c.untranslated, []);
    assert.deepEqual(c.tests.filter((t) => t.newman !== t.flowrun), [], m.runOutput.slice(0, 4000));
    assert.deepEqual(c.tests.filter((t) => !t.newman).map((t) => t.name), [
      "[GET]::/files/:filename - Content-Type is application/octet-stream",
    ]);
    assert.deepEqual(m.asked, ["BASE_URL"]);
  },
});
