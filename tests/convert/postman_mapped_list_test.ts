/**
 * A list of one field of each element, `json.map(b => b.bookingid)`, checked with chai's list
 * words, as a public project's own collection wrote it (measured by hand, see
 * docs/real-servers.md): `pm.expect(json.map(b => b.bookingid)).to.include(Number(id))`.
 *
 * Every spelling of the map (arrow, bracket, `function … return`), of the number (`Number`,
 * `parseInt`, unary `+`, `String`) and of the word (`include`, `contain`, `not.include`,
 * `length`, `lengthOf`, `an("array")`, `ids.includes(v)` under `to.be.true`) is a check of the
 * flow. Newman is the reference: on a list where every check holds both runners pass; on a bent list (another id, the absent id there, one more
 * element) the same checks fail in both, and on an object instead of a list none passes in either
 * (Newman's script throws at its first map, the flow fails each check). The list holds an
 * element without the field: JavaScript's map keeps it (`undefined` at its index), so the
 * length is the list's, not the count of fields found.
 */
import assert from "node:assert/strict";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { runCli } from "../support/cli.ts";
import { runNewman } from "../support/newman_counts.ts";
import { newmanThenFlow } from "../support/newman_then_flow.ts";
import { createThenRead, failingChecks } from "../support/postman_items.ts";

const READ_TESTS = [
  "const json = pm.response.json();",
  "const ids = json.map(b => b.bookingid);",
  'pm.test("arrow Number", () => pm.expect(json.map(b => b.bookingid)).to.include(Number(pm.environment.get("id"))));',
  'pm.test("bracket parseInt", () => pm.expect(json.map(b => b["bookingid"])).to.contain(parseInt(pm.environment.get("headerId"))));',
  'pm.test("function plus", () => pm.expect(json.map(function (b) { return b.bookingid; })).to.include(+pm.collectionVariables.get("textId")));',
  'pm.test("const held", () => pm.expect(ids).to.include(parseInt(pm.environment.get("headerId"), 10)));',
  'pm.test("not gone", () => pm.expect(ids).to.not.include(Number(pm.collectionVariables.get("goneId"))));',
  'pm.test("name literal", () => pm.expect(json.map(b => b.name)).to.include("a"));',
  'pm.test("not literal", () => pm.expect(json.map(b => b.name)).to.not.include("zz"));',
  'pm.test("held var", () => pm.expect(ids).to.include(pm.environment.get("id")));',
  'pm.test("length", () => pm.expect(ids.length).to.eql(2));',
  'pm.test("lengthOf", () => pm.expect(json.map(b => b.bookingid)).to.have.lengthOf(2));',
  'pm.test("an array", () => pm.expect(ids).to.be.an("array"));',
  'pm.test("String include", () => pm.expect(json.map(b => b.code)).to.include(String(pm.environment.get("id"))));',
  'pm.test("String eql", () => pm.expect(json[0].code).to.eql(String(pm.environment.get("id"))));',
  'pm.test("includes true", () => pm.expect(ids.includes(Number(pm.environment.get("id")))).to.be.true);',
  'pm.test("plus eql", () => pm.expect(json[0].bookingid).to.eql(+pm.environment.get("headerId")));',
];

/** A create giving id 7 (a JSON number, and a header's text), then a list read. */
const collection = (base: string) =>
  createThenRead(base, {
    name: "Mapped",
    variables: { textId: "7", goneId: "99" },
    keep: [
      "const made = pm.response.json();",
      'pm.environment.set("id", made.bookingid);',
      'pm.environment.set("headerId", pm.response.headers.get("X-Id"));',
    ],
    createPath: "/booking",
    read: ["List", "/booking"],
    checks: READ_TESTS,
  });

/** The list's answers: right, bent (another id, the absent one there, three), an object. */
const LISTS: Record<string, unknown> = {
  right: [{ bookingid: 7, name: "a", code: "7" }, { name: "b" }],
  bent: [{ bookingid: 8, name: "c", code: 7 }, { bookingid: 99, name: "zz" }, { name: "d" }],
  object: { bookingid: 7, name: "a", code: "7" },
};

function listServer() {
  const state = { list: "right" };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    if (req.method === "POST") {
      return Response.json({ bookingid: 7 }, { status: 200, headers: { "x-id": "7" } });
    }
    return Response.json(LISTS[state.list]);
  });
  return { state, url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

const NAMES = READ_TESTS.flatMap((t) => t.match(/pm\.test\("([^"]+)"/)?.[1] ?? []);

Deno.test("postman mapped list: json.map(x => x.f) with include, length and type checks as Newman does", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-pm-mapped-" });
  const server = listServer();
  try {
    const { counts, summary } = await newmanThenFlow(dir, collection(server.url), server.url);
    assert.equal(counts.failedAssertions, 0, JSON.stringify(counts));
    assert.equal(counts.assertions, NAMES.length);
    const flow = await Deno.readTextFile(`${dir}/flows/1_mapped.yaml`);
    assert.doesNotMatch(flow, /# untranslated/, flow);
    assert.match(summary, new RegExp(`${NAMES.length} translated, 0 untranslated`), summary);
    const run = () => runCli(summary.match(/^Run: flowrun (.*)$/m)![1].split(" "));
    // A bent list fails every check but the type; an object fails every one (map throws on it).
    const expected: Record<string, string[]> = {
      bent: NAMES.filter((n) => n !== "an array"),
      object: NAMES,
    };
    for (const list of ["bent", "object"]) {
      server.state.list = list;
      const newman = await runNewman(`${dir}/collection.json`, { baseUrl: server.url });
      const out = await run();
      assert.notEqual(out.code, 0, out.stdout);
      const names = failingChecks(out.stdout + out.stderr);
      assert.deepEqual([...names].sort(), expected[list].sort(), `${list}\n${out.stdout}`);
      // On the object the script's own `const ids = json.map(…)` throws: Newman runs none of
      // its checks (none passes), where the flow fails each.
      const passed = NAMES.length - expected[list].length;
      assert.equal(newman.assertions - newman.failedAssertions, passed, JSON.stringify(newman));
      if (list === "bent") assert.equal(newman.failedAssertions, expected[list].length);
    }
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("postman mapped list: what cannot be said exactly stays a comment", () => {
  const c = collection("http://127.0.0.1:9");
  c.item[1].event[0].script.exec = [
    "const json = pm.response.json();",
    // A deeper member (JavaScript throws where `b.a` is missing, JSONPath skips), a variable
    // not included (its type is known only at run time), and `include(undefined)`.
    'pm.test("deep", () => pm.expect(json.map(b => b.a.id)).to.include(1));',
    'pm.test("not var", () => pm.expect(json.map(b => b.id)).to.not.include(pm.environment.get("id")));',
    'pm.test("undefined", () => pm.expect(json.map(b => b.id)).to.include(undefined));',
  ];
  const { files } = convertPostman(JSON.stringify(c));
  const flow = files.find((f) => f.path.endsWith(".yaml"))!.text;
  assert.doesNotMatch(flow, /name: (deep|not var|undefined)/, flow);
});
