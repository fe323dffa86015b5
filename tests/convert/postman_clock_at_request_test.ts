/**
 * A time a pre-request script makes and its own request sends, proven against Newman: a forum's
 * date search (measured by hand) sets `EndTime` to `new Date().toISOString().slice(0, 23)` just
 * before it searches the posts made earlier in the run. Newman reads the clock when the script
 * runs, after those posts; the flow made it a flow var, read once when the flow starts, before
 * the first post, so its search ended before anything it looked for began. A made time its own
 * request alone reads is now written in that request (`${NOW.…}` is read when the request is
 * made); a time read anywhere else stays one var, the same value at every read, as in Newman.
 *
 * The server the test starts answers the first request slowly, and takes a search only when its
 * end is no earlier than that answer: the order of the clocks, never a duration.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { runNewman } from "../support/newman_counts.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

/** Each search's variable and the expression its pre-request script sets it to. */
const MADE: [string, string, string][] = [
  ["end", "environment", "new Date().toISOString()"],
  ["until", "collectionVariables", "new Date().toISOString().slice(0, 23)"],
  ["ms", "environment", "Date.now()"],
];

/** A server that answers `/post` after a pause, and judges each search's clock against it. */
function clockJudge() {
  const searches: string[] = [];
  let answered = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/post") {
      await new Promise((r) => setTimeout(r, 200));
      answered = Date.now();
      return Response.json({ id: 1 }, { status: 201 });
    }
    const end = url.searchParams.get("end") ?? "";
    const at = /^\d+$/.test(end) ? Number(end) : Date.parse(/Z$/.test(end) ? end : `${end}Z`);
    searches.push(end);
    return Response.json({ end }, { status: at >= answered ? 200 : 400 });
  });
  return { searches, url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

const NOW = "new Date().toISOString()";
const ECHO =
  "pm.test('echo', () => pm.expect(pm.response.json().end).to.eql(pm.environment.get('stamp')));";

const search = (key: string, scope: string, expr: string) => ({
  name: `Search ${key}`,
  event: [
    { listen: "prerequest", script: { exec: [`pm.${scope}.set("${key}", ${expr});`] } },
    {
      listen: "test",
      script: { exec: ["pm.test('200', () => pm.response.to.have.status(200));"] },
    },
  ],
  request: { method: "GET", url: `{{baseUrl}}/search?end={{${key}}}` },
});

Deno.test("postman clock at request: a time its own request sends is read when it is sent", async () => {
  const judge = clockJudge();
  const dir = await Deno.makeTempDir();
  try {
    const file = `${dir}/clock.json`;
    await Deno.writeTextFile(
      file,
      JSON.stringify({
        info: { name: "Clock", schema: V21 },
        variable: [{ key: "baseUrl", value: judge.url }],
        item: [
          // A time its request sends and its test compares: one value, a var.
          {
            name: "Echo",
            event: [
              { listen: "prerequest", script: { exec: [`pm.environment.set("stamp", ${NOW});`] } },
              { listen: "test", script: { exec: [ECHO] } },
            ],
            request: { method: "GET", url: "{{baseUrl}}/search?end={{stamp}}" },
          },
          { name: "Post", request: { method: "POST", url: "{{baseUrl}}/post" } },
          ...MADE.map(([key, scope, expr]) => search(key, scope, expr)),
        ],
      }),
    );
    const counts = await runNewman(file, { baseUrl: judge.url });
    assert.equal(counts.assertions, MADE.length + 1);
    assert.equal(counts.failedAssertions, 0, judge.searches.join(" "));
    const converted = await runCli(["convert", "postman", file, "-o", `${dir}/flows`]);
    assert.equal(converted.code, 0, converted.stderr);
    const summary = converted.stdout + converted.stderr;
    assert.doesNotMatch(summary, /cannot express/, summary);
    const run = await runCli(summary.match(/^Run: flowrun (.*)$/m)![1].split(" "));
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(judge.searches.length, 2 * (MADE.length + 1));
    const yaml = await Deno.readTextFile(`${dir}/flows/1_clock.yaml`);
    assert.match(yaml, /end=\$\{NOW\.ISO\}/);
    // Only the echoed time is a var: its request and its check read the same value.
    assert.match(yaml, /^ {2}stamp: \$\{NOW\.ISO\}$/m);
    assert.doesNotMatch(yaml, /^ {2}(end|until|ms): /m);
    assert.match(yaml, /equals: "\$\{vars\.stamp\}"/);
  } finally {
    await judge.close();
    await Deno.remove(dir, { recursive: true });
  }
});
