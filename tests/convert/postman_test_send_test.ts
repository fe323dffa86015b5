/**
 * A test script's `pm.sendRequest` that reads the response it follows (a
 * user-management project's own collection, measured by hand, see
 * docs/real-servers.md, cleans up so: it finds its test user in the listing
 * and deletes it by its id, only when it is there). Newman sends it when its
 * `if` holds, at the URL the response gave; the flow sends it as a step just
 * after, its URL reading what the step captured, under the same condition.
 * Every spelling: a `find` tested with `if (u)`, an element read always, a
 * template literal, a body `JSON.stringify` writes of the answer's members, a
 * status or member condition.
 */
import assert from "node:assert/strict";
import { convertPostman, formatPostmanSummary } from "../../lib/convert/postman/mod.ts";
import { runNewman } from "../support/newman_counts.ts";
import { runCli } from "../support/cli.ts";

const V20 = "https://schema.getpostman.com/json/collection/v2.0.0/collection.json";

/** A users API in memory: the listing, a create refusing a taken e-mail, a read and a delete by id. */
function usersServer() {
  const seen: string[] = [];
  let users: { id: number; email: string }[] = [];
  let next = 1;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    seen.push(`${req.method} ${url.pathname}`);
    // What a script sends of an answer: its body, as the server reads it.
    if (url.pathname === "/audit") seen.push(JSON.stringify(await req.json()));
    if (url.pathname === "/audit") return Response.json({}, { status: 201 });
    const id = Number(url.pathname.split("/")[2]);
    const user = users.find((u) => u.id === id);
    if (req.method === "GET" && url.pathname === "/users") return Response.json(users);
    if (req.method === "POST") {
      const body = await req.json();
      if (users.some((u) => u.email === body.email)) return Response.json({}, { status: 400 });
      users.push({ id: next, email: body.email });
      return Response.json({ id: next++ }, { status: 201 });
    }
    if (!user) return Response.json({}, { status: 404 });
    if (req.method === "DELETE") users = users.filter((u) => u !== user);
    return req.method === "DELETE" ? new Response(null, { status: 204 }) : Response.json(user);
  });
  return {
    seen,
    url: `http://127.0.0.1:${server.addr.port}`,
    /** Back to a fresh instance, holding the given e-mails' users. */
    reset(emails: string[]) {
      users = emails.map((email, i) => ({ id: i + 1, email }));
      next = emails.length + 1;
      seen.length = 0;
    },
    close: () => server.shutdown(),
  };
}

const SENDS: [string, string[]][] = [
  ["find then if", [
    "var jsonData = pm.response.json();",
    'var testUser = jsonData.find(u => u.email === "test@example.com");',
    "if (testUser) {",
    "  pm.sendRequest({",
    '    url: pm.variables.get("baseUrl") + "/users/" + testUser.id,',
    "    method: 'DELETE'",
    "  }, function(err, res) { console.log(err ? 'Error' : 'Success'); });",
    "} else {",
    '  console.log("No existing test user found");',
    "}",
  ]],
  ["element always, template", [
    "const first = pm.response.json()[0];",
    'pm.sendRequest(`${pm.variables.get("baseUrl")}/users/${first.id}`, () => {});',
  ]],
  ["body of the answer", [
    "const first = pm.response.json()[0];",
    "pm.sendRequest({",
    '  url: pm.variables.get("baseUrl") + "/audit", method: "POST",',
    '  header: { "Content-Type": "application/json" },',
    '  body: { mode: "raw", raw: JSON.stringify({ id: first.id, email: first.email, note: "was " + first.id }) },',
    "}, () => {});",
  ]],
  ["status condition", [
    "if (pm.response.code === 200) {",
    '  pm.sendRequest({ url: pm.variables.get("baseUrl") + "/users/" + pm.response.json()[0].id, method: "GET" }, () => {});',
    "}",
  ]],
];

function collection(base: string) {
  return {
    info: { name: "Cleanup", schema: V20 },
    variable: [{ key: "baseUrl", value: base }],
    item: [
      ...SENDS.map(([name, exec]) => ({
        name,
        event: [{ listen: "test", script: { exec } }],
        request: { method: "GET", url: "{{baseUrl}}/users" },
      })),
      {
        name: "Add",
        event: [{
          listen: "test",
          script: {
            exec: ['pm.test("Status code is 201", () => pm.response.to.have.status(201));'],
          },
        }],
        request: {
          method: "POST",
          header: [{ key: "Content-Type", value: "application/json" }],
          body: { mode: "raw", raw: '{"email": "test@example.com"}' },
          url: "{{baseUrl}}/users",
        },
      },
    ],
  };
}

Deno.test("postman test send: a test script's request reading its response is sent as Newman sends it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-pm-test-send-" });
  const api = usersServer();
  try {
    const file = `${dir}/collection.json`;
    await Deno.writeTextFile(file, JSON.stringify(collection(api.url)));
    const converted = await runCli(["convert", "postman", file, "-o", `${dir}/flows`]);
    assert.equal(converted.code, 0, converted.stderr);
    const run = (converted.stdout + converted.stderr).match(/^Run: flowrun (.*)$/m)![1].split(" ");
    // Left by an earlier run (the user the cleanup deletes) and not: Newman's requests, in order.
    for (const held of [["a@example.com", "test@example.com"], ["a@example.com"]]) {
      api.reset(held);
      const counts = await runNewman(file, {});
      assert.equal(counts.failedAssertions, 0, JSON.stringify(counts));
      const newman = [...api.seen];
      api.reset(held);
      const flow = await runCli(run);
      assert.equal(flow.code, 0, flow.stdout + flow.stderr);
      assert.deepEqual(api.seen, newman, `${held}\n${flow.stdout}`);
    }
    assert.ok(api.seen.includes("GET /users/1"), api.seen.join("\n"));
    // JSON.stringify keeps each member's type: the id a number, the joined note text.
    assert.ok(
      api.seen.includes('{"id":1,"email":"a@example.com","note":"was 1"}'),
      api.seen.join("\n"),
    );
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("postman test send: one whose condition cannot be said is named in the summary", () => {
  const c = collection("http://127.0.0.1:9");
  c.item = [c.item[0]];
  c.item[0].event[0].script.exec = [
    "const list = pm.response.json();",
    "if (list.length > Math.random()) {",
    '  pm.sendRequest(pm.variables.get("baseUrl") + "/users/" + list[0].id, () => {});',
    "}",
  ];
  const { summary } = convertPostman(JSON.stringify(c));
  const text = formatPostmanSummary(summary, "out");
  assert.match(text, /Not converted[^\n]*find then if \(a pm\.sendRequest of its script/, text);
});
