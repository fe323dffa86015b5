/**
 * A collection of more than 100 requests, converted and run: the warehouse
 * suite written here (tests/fixtures/postman/warehouse-200.postman_collection.json,
 * 200 requests, a test script on every one, in the shape of a product's own
 * Newman suite; written by tests/support/warehouse_collection.ts, and this
 * test checks the committed file is what it writes). No warehouse runs here,
 * so a replay server answers each request the way the collection's own
 * scripts say the API does (tests/support/postman_replay.ts); the converted
 * suite sends every one of the 200 requests in collection order and its
 * translated checks pass, and a server that answers one of them wrongly
 * fails exactly that check.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { type ReplayAnswer, replayAnswers, startReplay } from "../support/postman_replay.ts";
import { WAREHOUSE, warehouseCollection } from "../support/warehouse_collection.ts";

const COLLECTION = "tests/fixtures/postman/warehouse-200.postman_collection.json";

interface Check {
  passed: boolean;
  name?: string;
  message: string;
  skipped?: boolean;
}
type Report = { flows: { steps: { name: string; assertions: Check[] }[] }[] };
const checksOf = (json: Report) => json.flows.flatMap((f) => f.steps.flatMap((s) => s.assertions));

async function runWarehouse(
  mutate?: (i: number, a: ReplayAnswer) => ReplayAnswer,
  seen: (answers: ReplayAnswer[]) => void = () => {},
) {
  const answers = replayAnswers(JSON.parse(await Deno.readTextFile(COLLECTION)));
  seen(answers);
  const server = startReplay(answers, mutate);
  const dir = await Deno.makeTempDir();
  try {
    const conv = await runCli(["convert", "postman", COLLECTION, "-o", dir]);
    assert.equal(conv.code, 0, conv.stderr);
    const report = `${dir}/report.json`;
    const env: Record<string, string> = {
      WAREHOUSE_STAFF_URL: `${server.origin}/staff`,
      WAREHOUSE_SHOP_URL: `${server.origin}/shop`,
    };
    // The rest the summary asks for (passwords, Authorization values) need only be set.
    const line = conv.stderr.split("\n").find((l) => l.startsWith("Set before running: ")) ?? "";
    for (const m of line.matchAll(/\b([A-Z][A-Z0-9_]*) \(/g)) {
      // A base URL is the server's (its first path segment is dropped there), anything else a value.
      env[m[1]] ??= /URL/.test(m[1]) ? `${server.origin}/${m[1].toLowerCase()}` : "Basic eDp5";
    }
    const result = await runCli(["run", dir, "--jobs", "1", "--report-json", report], { env });
    const json = JSON.parse(await Deno.readTextFile(report)) as Report;
    return { answers, conv, result, checks: checksOf(json), server };
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("convert postman: the committed warehouse collection is what its script writes", async () => {
  const committed = JSON.parse(await Deno.readTextFile(WAREHOUSE));
  assert.deepEqual(committed, warehouseCollection(), "run tests/support/warehouse_collection.ts");
});

Deno.test("convert postman: the 200-request warehouse suite runs green, every request sent in order, its translated checks checked", async () => {
  const { answers, conv, result, checks, server } = await runWarehouse();
  assert.equal(answers.length, 200);
  assert.match(conv.stderr, /^Converted 200 requests /m);
  assert.equal(result.code, 0, result.stdout + result.stderr);
  assert.deepEqual(server.mismatches, []);
  assert.equal(server.received.length, 200, server.received.join("\n"));
  const translated = Number(conv.stderr.match(/^Assertions: (\d+) translated/m)?.[1]);
  const evaluated = checks.filter((c) => !c.skipped);
  assert.ok(
    evaluated.length >= translated,
    `${evaluated.length} checks evaluated, ${translated} translated`,
  );
  assert.ok(evaluated.every((c) => c.passed), JSON.stringify(evaluated.filter((c) => !c.passed)));
});

Deno.test("convert postman: a warehouse that answers the last product state check wrongly fails exactly that translated check and still gets every later request, as under Newman", async () => {
  // The last request whose scripts assert the product's state. As under Newman, the failure
  // stops nothing: every request is still sent, in the replay's strict order.
  let at = -1;
  const { answers, result, checks, server } = await runWarehouse((i, a) => {
    const body = a.body as Record<string, unknown>;
    if (i === at) body.state = "running";
    return a;
  }, (answers) => {
    at = answers.findLastIndex((a) => (a.body as Record<string, unknown>).state === "paused");
  });
  assert.ok(at > 100, `${at}`);
  assert.equal(result.code, 1, result.stdout);
  assert.deepEqual(server.mismatches, []);
  assert.equal(server.received.length, answers.length, answers[at].name);
  const failed = checks.filter((c) => !c.passed);
  assert.equal(failed.length, 1, JSON.stringify(failed));
  assert.match(failed[0].message, /\$\.json\.state: expected "paused", got "running"/);
});
