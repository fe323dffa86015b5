/**
 * moment.js taken under a name of the script's own (`const clock = require('moment')`, then
 * `clock()` and `.format("YYYY-MM-DD")` on later lines), as a booking tester's collection
 * makes its check-in and check-out. Only a library called `moment` was read, so both dates
 * stayed comments, were sent empty (the booking server stored `0NaN-aN-aN`) and the checks
 * comparing them failed. What `require('moment')` gives is the library whatever it is called:
 * the evidence is the `require`, not the name. A name the script binds otherwise (its own
 * `clock` function) still means nothing known. A small server stores the booking and answers
 * it back; one check is written to fail, so the checks are seen to run.
 */
import assert from "node:assert/strict";
import { convertPostman, formatPostmanSummary } from "../../lib/convert/postman/mod.ts";
import { runCli } from "../support/cli.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";
const DAY = 86_400_000;

const PRE = [
  "const clock = require('moment');",
  "const started = clock();",
  'var firstDay = started.format("YYYY-MM-DD");',
  'pm.environment.set("arrive", firstDay);',
  "const later = require('moment');",
  "const leaving = later();",
  "var lastDay = leaving.add(4, 'd').format(\"YYYY-MM-DD\");",
  'pm.environment.set("leave", lastDay);',
];

const TESTS = [
  "var json = pm.response.json();",
  'pm.test("Arrival", function () { pm.expect(pm.environment.get("arrive")).to.eql(json.dates.arrive) });',
  'pm.test("Leaving", function () { pm.expect(pm.environment.get("leave")).to.eql(json.dates.leave) });',
  'pm.test("Leaving is arrival (fails)", function () { pm.expect(pm.environment.get("arrive")).to.eql(json.dates.leave) });',
];

/** The collection: a booking made with the two days, then read back and checked. */
function collection(base: string, pre: string[]): string {
  return JSON.stringify({
    info: { name: "Stays", schema: V21 },
    item: [{
      name: "Book",
      event: [
        { listen: "prerequest", script: { exec: pre } },
        { listen: "test", script: { exec: ["pm.environment.set('id', pm.response.json().id)"] } },
      ],
      request: {
        method: "POST",
        url: `${base}/stays`,
        header: [{ key: "Content-Type", value: "application/json" }],
        body: { mode: "raw", raw: '{"dates": {"arrive": "{{arrive}}", "leave": "{{leave}}"}}' },
      },
    }, {
      name: "Read",
      event: [{ listen: "test", script: { exec: TESTS } }],
      request: { method: "GET", url: `${base}/stays/{{id}}` },
    }],
  });
}

Deno.test("postman moment under its own name: require('moment') bound to any name makes the days", async () => {
  const stays: { dates: Record<string, string> }[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    if (req.method === "POST") {
      stays.push(await req.json());
      return Response.json({ id: stays.length });
    }
    const at = Number(new URL(req.url).pathname.split("/").pop()) - 1;
    return Response.json(stays[at] ?? {}, { status: stays[at] ? 200 : 404 });
  });
  const dir = await Deno.makeTempDir();
  try {
    const { files, summary } = convertPostman(
      collection(`http://127.0.0.1:${server.addr.port}`, PRE),
    );
    const flow = files.find((f) => f.path.endsWith(".yaml"))!;
    const said = formatPostmanSummary(summary, dir);
    assert.doesNotMatch(flow.text, /untranslated, from/, flow.text);
    assert.doesNotMatch(said, /cannot express/, said);
    await Deno.writeTextFile(`${dir}/${flow.path}`, flow.text);
    const before = Date.now();
    const run = await runCli(["run", `${dir}/${flow.path}`]);
    const after = Date.now();
    assert.equal(run.code, 1, run.stdout + run.stderr + flow.text);
    assert.match(run.stdout, /Leaving is arrival \(fails\)/);
    assert.doesNotMatch(run.stdout, /✘ Arrival:|✘ Leaving:/, run.stdout);
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const { arrive, leave } = stays[0].dates;
    assert.ok([day(before), day(after)].includes(arrive), arrive);
    assert.equal(day(Date.parse(arrive) + 4 * DAY), leave);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("postman moment under its own name: a name the script binds itself is not the library", () => {
  const own = [
    "const clock = function () { return { format: function () { return 'soon' } } };",
    'pm.environment.set("arrive", clock().format("YYYY-MM-DD"));',
  ];
  const { files } = convertPostman(collection("http://127.0.0.1:1", own));
  const flow = files.find((f) => f.path.endsWith(".yaml"))!;
  assert.doesNotMatch(flow.text, /NOW\.DATE/, flow.text);
});
