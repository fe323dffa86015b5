/**
 * The script census against a real server: `census-httpbin.postman_collection.json`
 * (written here from the idioms public collections use, see docs/converting.md's
 * "Script idioms") run by Newman against fresh httpbin A (Debian's `python3-httpbin`,
 * which echoes what it is sent, so values chain through its answers), then converted
 * with default options and run as the summary prints it, with only the variables it
 * asks for, against fresh httpbin B; both through one recording proxy.
 *
 * Goal: Newman's requests in Newman's order, and every check flowrun translated with
 * Newman's verdict. Where a script does what flowrun cannot express, the summary must
 * say so by name: the requests it names as reading such a value are the only ones
 * allowed to send something else (`{{author}}` as written) or to get another verdict,
 * and `pm.sendRequest`'s own request is a step of its own, as Newman sends it first.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { httpbinLaunch, httpbinMissing } from "./httpbin.ts";
import { printedRun, readReport } from "./measure.ts";
import { newmanRun } from "./newman_child.ts";
import type { NewmanRequest } from "./postman_newman.ts";
import { type Received, startRecordingProxy } from "./postman_proxy.ts";
import { realTest, start, withRetriedStart } from "./servers.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const CENSUS = `${ROOT}tests/fixtures/postman/census-httpbin.postman_collection.json`;

/** Newman's executions, the one `pm.sendRequest` adds under its item's name left out. */
function items(newman: NewmanRequest[]): NewmanRequest[] {
  return newman.filter((r, i) => i === 0 || newman[i - 1].name !== r.name);
}

/** The requests the summary names as reading a value a script set in a way not translated. */
function readers(summary: string): Set<string> {
  const out = new Set<string>();
  for (const m of summary.matchAll(/^Not translated: .* read by (.*)\.$/gm)) {
    for (const name of m[1].split(", ")) out.add(name);
  }
  return out;
}

/**
 * A request's target as the server reads it (decoded: Newman sends a `/` in a query value as it
 * is, flowrun as `%2F`), the UUIDs each run gets from httpbin (and makes) read `{uuid}`, and
 * the 13 digits of a time in milliseconds each run makes when it sends (`Date.now()`) read `{ms}`.
 */
const target = (r: Received) =>
  decodeURIComponent(r.target).replace(
    /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g,
    "{uuid}",
  ).replace(/(?<!\d)\d{13}(?!\d)/g, "{ms}");
const path = (r: Received) => `${r.method} ${target(r).replace(/\?.*/, "")}`;

/**
 * The execution each received request belongs to, by name: a redirect's next hop (after
 * an answer 3xx) reaches the proxy as a request of its own, of the same execution.
 */
function namesOf(received: Received[], newman: NewmanRequest[]): string[] {
  let at = -1;
  return received.map((_, i) => {
    const hop = i > 0 && received[i - 1].status >= 300 && received[i - 1].status < 400;
    if (!hop) at++;
    return newman[at]?.name ?? "";
  });
}

realTest(
  "httpbin: the script census, converted and run, sends Newman's requests in Newman's order and gives every translated check Newman's verdict",
  httpbinMissing(),
  async (dir) => {
    const proxy = startRecordingProxy();
    try {
      const withHttpbin = <T>(fn: (origin: string) => Promise<T>) =>
        withRetriedStart(start, () => httpbinLaunch, (i) => fn(i.origin));
      const [newman, newmanReceived] = await withHttpbin(async (a) => {
        proxy.point(a);
        const sent = await newmanRun(CENSUS, dir, [`baseUrl=${proxy.origin}`]);
        return [sent, proxy.received()] as const;
      });
      const converted = await runCli(["convert", "postman", CENSUS, "-o", `${dir}/flows`]);
      assert.equal(converted.code, 0, converted.stdout + converted.stderr);
      const summary = converted.stderr;
      assert.match(summary, /^Set before running: BASE_URL \([^)]*\)\.$/m);
      // Each request with a check flowrun cannot express names the idiom beside its count.
      const unnamed = summary.split("\n").filter((l) =>
        /^ {2}.*: \d+ translated, [1-9]\d* untranslated$/.test(l)
      );
      assert.deepEqual(unnamed, [], summary);
      const args = printedRun(summary);
      assert.ok(args, `no Run: line in\n${summary}`);
      const flowrunReceived = await withHttpbin(async (b) => {
        proxy.point(b);
        await runCli([...args, "--report-json", `${dir}/report.json`], {
          env: { BASE_URL: proxy.origin },
        });
        return proxy.received();
      });
      const report = await readReport(`${dir}/report.json`);
      const named = readers(summary);
      const requests = items(newman);

      // Newman's requests in its order, pm.sendRequest's own GET /uuid (a step of its own) included.
      const n = newmanReceived.map(path);
      assert.deepEqual(flowrunReceived.map(path), n);
      // A request sends what Newman sent, unless the summary named it as reading a value not set.
      // Newman lists pm.sendRequest's request under its item's name, so its list names each one.
      const names = namesOf(newmanReceived, newman);
      const sentOtherwise = newmanReceived
        .map((r, i) => [r, flowrunReceived[i], names[i]] as const)
        .filter(([a, b]) => target(a) !== target(b))
        .map(([a, b, name]) => `${name}: Newman ${target(a)}, flowrun ${target(b)}`);
      assert.deepEqual(
        sentOtherwise.filter((s) => !named.has(s.slice(0, s.indexOf(":")))),
        [],
        summary,
      );
      // The steps of the collection's own requests, pm.sendRequest's left out.
      const steps = report.steps.filter((s) => !/_pm_send_request(_\d+)?$/.test(s.name));
      assert.equal(steps.length, requests.length);

      const tests = requests.flatMap((request, i) =>
        request.assertions.map((t) => {
          const checks = (steps[i]?.assertions ?? []) as {
            name?: string;
            passed: boolean;
          }[];
          const same = checks.filter((c) => c.name === t.name);
          return {
            request: request.name,
            name: t.name,
            newman: t.passed,
            translated: same.length > 0,
            flowrun: same.length > 0 && same.every((c) => c.passed),
          };
        })
      );
      const translated = tests.filter((t) => t.translated);
      const differ = translated.filter((t) => t.newman !== t.flowrun);
      console.error(
        `httpbin census: Newman sent ${n.length} requests (${requests.length} items), ${tests.length} tests (${
          tests.filter((t) => !t.newman).length
        } failed); flowrun sent ${flowrunReceived.length}; ${translated.length} tests translated, ${differ.length} with another verdict, all on requests the summary names (${
          [...named].join(", ")
        })`,
      );
      assert.equal(requests.length, 36);
      // The one check the census writes to fail fails under both.
      assert.deepEqual(tests.filter((t) => !t.newman).map((t) => t.name), ["Expected 200 (fails)"]);
      assert.deepEqual(differ.filter((t) => !named.has(t.request)), [], JSON.stringify(differ));
      assert.ok(translated.length >= 100, `${translated.length} translated`);
      assert.ok(differ.length <= 4, JSON.stringify(differ));
    } finally {
      await proxy.close();
    }
  },
);
