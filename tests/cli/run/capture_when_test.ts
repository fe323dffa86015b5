/**
 * `when` and `otherwise` on a capture: the source is read only when the
 * response says so, and otherwise the capture keeps an earlier value, as a
 * Postman script that sets a variable only on success
 * (`if (pm.response.code === 201) pm.environment.set("id", json.id)`) keeps
 * the one it had. The created user exists at the second create, which is
 * refused with 400 (an `id` of its own in the answer, which must not be
 * kept), and the read after it still reads the first user. Without
 * `otherwise` the capture is left unset, the step passes; `otherwise`
 * without `when` is refused before any request.
 */
import assert from "node:assert/strict";
import { runFlowServed, stepStatuses } from "../../support/cli.ts";

const FLOW = (otherwise: string) =>
  `name: kept unless created
steps:
  - name: first
    request: {method: POST, url: "\${ENV.BASE_URL}/users"}
    capture: {id: {path: $.json.id, when: {path: $.status, equals: 201}}}
  - name: again
    request: {method: POST, url: "\${ENV.BASE_URL}/users"}
    capture:
      id: {path: $.json.id, when: [{path: $.status, equals: 201}]${otherwise}}
  - name: read
    request: {url: "\${ENV.BASE_URL}/users/\${steps.again.capture.id}"}
    assert: {status: 200}
`;

/** Creates one user (id 7); a second create is refused with 400 and an id of its own. */
function server() {
  const seen: string[] = [];
  let made = 0;
  const s = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    seen.push(`${req.method} ${path}`);
    if (req.method === "POST") {
      return made++ === 0
        ? Response.json({ id: 7 }, { status: 201 })
        : Response.json({ id: 99, error: "exists" }, { status: 400 });
    }
    return Response.json({ path }, { status: path === "/users/7" ? 200 : 404 });
  });
  return { seen, base: `http://127.0.0.1:${(s.addr as Deno.NetAddr).port}`, s };
}

const run = (flow: string) => runFlowServed(server(), flow);

const steps = stepStatuses;

Deno.test("a capture whose condition does not hold keeps the earlier value", async () => {
  const got = await run(FLOW(', otherwise: "${steps.first.capture.id}"'));
  assert.equal(got.code, 0, got.stdout + got.stderr);
  assert.deepEqual(steps(got.report), ["first passed", "again passed", "read passed"]);
  assert.deepEqual(got.seen, ["POST /users", "POST /users", "GET /users/7"]);
});

Deno.test("without otherwise it is left unset, its step passing; a read of it is the reader's error", async () => {
  const got = await run(FLOW(""));
  assert.equal(got.code, 1, got.stdout + got.stderr);
  assert.deepEqual(steps(got.report).slice(0, 2), ["first passed", "again passed"]);
  assert.deepEqual(got.seen, ["POST /users", "POST /users"]);
});

Deno.test("otherwise without when is refused before any request", async () => {
  const flow = FLOW("").replace("when: [{path: $.status, equals: 201}]", 'otherwise: "x"');
  const got = await run(flow);
  assert.equal(got.code, 2, got.stdout + got.stderr);
  assert.match(got.stdout + got.stderr, /"otherwise" value of capture "id" .* needs a "when"/);
  assert.deepEqual(got.seen, []);
});
