/**
 * `convert postman` on the collection Unleash's users have (the project
 * publishes none): Postman's import of its own document
 * (`/docs/openapi.json`, `openapi-to-postmanv2`, its options untouched).
 * Newman runs it against fresh instance A with the admin token as the
 * collection's `apiKey`; flowrun converts it with default options and runs
 * it as its summary prints it, with the variables it asks for (`API_KEY`,
 * `BASE_URL`), against fresh instance B; both through one recording proxy.
 * Goal: the same requests in the same order, with the same statuses.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { printedRun, readReport } from "./measure.ts";
import { GENERATORS, postmanImport } from "./postman_generators.ts";
import { newmanRun } from "./newman_child.ts";
import { type Received, startRecordingProxy } from "./postman_proxy.ts";
import { prepare, realTest, start } from "./servers.ts";
import {
  postgresMissing,
  UNLEASH,
  UNLEASH_ADMIN_TOKEN,
  UNLEASH_DOCUMENT,
  withUnleash,
} from "./unleash.ts";

const postgres = postgresMissing();
const unleash = postgres ? { ignoredBecause: postgres } : await prepare([UNLEASH]);
const generators = await prepare(GENERATORS);
const ignoredBecause = unleash.ignoredBecause || generators.ignoredBecause;

/** `METHOD /path?query` of each request, the run's own names (`-0a1b2c3d`) and ids left out. */
function lines(received: readonly Received[]): string[] {
  return received.map((r) => `${r.method} ${r.target}`);
}

realTest(
  "Unleash's own document imported into Postman, converted and run, sends Newman's requests in Newman's order with Newman's statuses",
  ignoredBecause,
  async (dir) => {
    const prefix = unleash.install!.prefix;
    const proxy = startRecordingProxy();
    try {
      const doc = await withUnleash(prefix, start, async (a) => {
        const response = await fetch(`${a.origin}${UNLEASH_DOCUMENT}`);
        assert.equal(response.status, 200);
        return await response.json();
      });
      doc.servers = [{ url: proxy.origin }];
      await Deno.writeTextFile(`${dir}/openapi.json`, JSON.stringify(doc, null, 2));
      const collection = `${dir}/collection.json`;
      await postmanImport(generators.install!.prefix, `${dir}/openapi.json`, collection);
      const newmanReceived = await withUnleash(prefix, start, async (a) => {
        proxy.point(a.origin);
        await newmanRun(collection, dir, [`apiKey=${UNLEASH_ADMIN_TOKEN}`]);
        return proxy.received();
      });
      const converted = await runCli(["convert", "postman", collection, "-o", `${dir}/flows`]);
      assert.equal(converted.code, 0, converted.stdout + converted.stderr);
      const asked = /^Set before running: (.*)$/m.exec(converted.stderr)?.[1] ?? "";
      assert.match(asked, /^API_KEY \(\{\{apiKey\}\}\), BASE_URL \(/);
      const args = printedRun(converted.stderr);
      assert.ok(args, `no Run: line in\n${converted.stderr}`);
      const flowrunReceived = await withUnleash(prefix, start, async (b) => {
        proxy.point(b.origin);
        const env = { API_KEY: UNLEASH_ADMIN_TOKEN, BASE_URL: proxy.origin };
        await runCli([...args, "--report-json", `${dir}/report.json`], { env });
        const report = await readReport(`${dir}/report.json`).catch(() => undefined);
        assert.ok(report, "no report");
        return proxy.received();
      });
      const n = lines(newmanReceived);
      const f = lines(flowrunReceived);
      const statuses = newmanReceived.map((r, i) => [r, flowrunReceived[i]] as const)
        .filter(([a, b]) => b && a.status !== b.status)
        .map(([a, b]) => `${a.method} ${a.target}: Newman ${a.status}, flowrun ${b.status}`);
      console.error(
        `Unleash, Postman import: Newman sent ${n.length} requests, flowrun ${f.length}; statuses differ: ${
          statuses.join("; ") || "none"
        }`,
      );
      assert.equal(n.length, 211);
      assert.deepEqual(f, n);
      assert.deepEqual(statuses, []);
    } finally {
      await proxy.close();
    }
  },
);
