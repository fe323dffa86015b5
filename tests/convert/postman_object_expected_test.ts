/**
 * Expected values gathered in an object literal before the checks (a public
 * project's own Restful Booker suite, measured by hand, see
 * docs/real-servers.md: `const expectedResBody = { firstname: get("firstname"),
 * totalprice: parseInt(get("totalprice")), … }`, then
 * `pm.expect(json.totalprice).to.eql(expectedResBody.totalprice)`): each member
 * read is the member's own expression — a variable, a number read from one, a
 * literal, a nested object's member, a bracketed key — checked as Newman
 * checks it. The same checks pass on a right answer and fail on a bent one in
 * both runners; an object the script changes after declaring it stays a comment.
 */
import assert from "node:assert/strict";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { runCli } from "../support/cli.ts";
import { runNewman } from "../support/newman_counts.ts";
import { newmanThenFlow } from "../support/newman_then_flow.ts";
import { failingChecks } from "../support/postman_items.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

const READ_TESTS = [
  "const json = pm.response.json();",
  "const expected = {",
  '  firstname: pm.collectionVariables.get("firstname"),',
  '  totalprice: parseInt(pm.collectionVariables.get("totalprice")),',
  '  "deposit paid": true,',
  '  bookingdates: { checkin: pm.environment.get("checkin"), checkout: "2019-01-01" },',
  "};",
  'pm.test("firstname", () => pm.expect(json.firstname).to.eql(expected.firstname));',
  'pm.test("totalprice", () => pm.expect(json.totalprice).to.eql(expected.totalprice));',
  'pm.test("deposit", () => pm.expect(json["deposit paid"]).to.eql(expected["deposit paid"]));',
  'pm.test("checkin", () => pm.expect(json.bookingdates.checkin).to.eql(expected.bookingdates.checkin));',
  'pm.test("checkout", () => pm.expect(json.bookingdates.checkout).to.equal(expected.bookingdates.checkout));',
];

/** A create whose answer sets the check-in day, then a read checked against an object literal. */
function collection(base: string) {
  return {
    info: { name: "Expected", schema: V21 },
    variable: [
      { key: "baseUrl", value: base },
      { key: "firstname", value: "Jim" },
      { key: "totalprice", value: "111" },
    ],
    item: [{
      name: "Create",
      event: [{
        listen: "test",
        script: { exec: ['pm.environment.set("checkin", pm.response.json().checkin);'] },
      }],
      request: { method: "POST", url: "{{baseUrl}}/bookings" },
    }, {
      name: "Read",
      event: [{ listen: "test", script: { exec: READ_TESTS } }],
      request: { method: "GET", url: "{{baseUrl}}/bookings/1" },
    }],
  };
}

/** Answers the create with a check-in day; `bent` answers the read with other values in each. */
function bookingServer() {
  const state = { bent: false };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    if (req.method === "POST") return Response.json({ checkin: "2018-01-01" });
    return Response.json(
      state.bent
        ? {
          firstname: "Ann",
          totalprice: 112,
          "deposit paid": false,
          bookingdates: { checkin: "2018-02-02", checkout: "2019-02-02" },
        }
        : {
          firstname: "Jim",
          totalprice: 111,
          "deposit paid": true,
          bookingdates: { checkin: "2018-01-01", checkout: "2019-01-01" },
        },
    );
  });
  return { state, url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

Deno.test("postman object expected: members of an expected object are checked as Newman checks them", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-pm-object-expected-" });
  const server = bookingServer();
  try {
    const { counts, summary } = await newmanThenFlow(dir, collection(server.url), server.url);
    assert.equal(counts.failedAssertions, 0, JSON.stringify(counts));
    assert.equal(counts.assertions, 5);
    assert.match(summary, /5 translated, 0 untranslated/, summary);
    server.state.bent = true;
    const bent = await runNewman(`${dir}/collection.json`, { baseUrl: server.url });
    const run = await runCli(summary.match(/^Run: flowrun (.*)$/m)![1].split(" "));
    assert.notEqual(run.code, 0, run.stdout);
    const names = [...failingChecks(run.stdout + run.stderr)].sort();
    assert.deepEqual(names, ["checkin", "checkout", "deposit", "firstname", "totalprice"]);
    assert.equal(bent.failedAssertions, names.length, JSON.stringify(bent));
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("postman object expected: an object changed after it is declared stays a comment", () => {
  const c = collection("http://127.0.0.1:9");
  c.item[1].event[0].script.exec = [
    ...READ_TESTS.slice(0, 7),
    'expected.firstname = "Sally";',
    READ_TESTS[7],
  ];
  const { files } = convertPostman(JSON.stringify(c));
  const flow = files.find((f) => f.path.endsWith(".yaml"))!.text;
  assert.match(flow, /untranslated[^]*expected\.firstname\)/, flow);
  assert.doesNotMatch(flow, /equals: Jim/, flow);
});
