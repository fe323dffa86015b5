/**
 * A value a test script sets from a template literal holding a response part,
 * `pm.environment.set("auth", `Bearer ${json.token}`)`, as `"Bearer " + json.token` is set: the
 * template was read only when each part was text known now, so the set stayed a comment and the
 * later request sent `{{auth}}` unset, while the `+` form was a capture of the joined text. Both
 * now join alike (eval.ts's template reads a response part as `concat` does), so the later request
 * sends what Newman sends, and a template of a part of the response as a check's title
 * (`Row ${row.id}`, postman_element_title_test.ts) reads it the same way.
 */
import assert from "node:assert/strict";
import { newmanThenFlow } from "../support/newman_then_flow.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

function collection(base: string) {
  const ok = "pm.test('ok', () => pm.response.to.have.status(200));";
  return {
    info: { name: "Template sets", schema: V21 },
    variable: [{ key: "baseUrl", value: base }],
    item: [
      {
        name: "Login",
        event: [{
          listen: "test",
          script: {
            exec: [
              "const json = pm.response.json();",
              "pm.environment.set('auth', `Bearer ${json.token}`);",
              "pm.collectionVariables.set('who', `${json.user.name} <${json.user.id}>`);",
              ok,
            ],
          },
        }],
        request: { method: "POST", url: "{{baseUrl}}/login" },
      },
      {
        name: "Me",
        event: [{ listen: "test", script: { exec: [ok] } }],
        request: {
          method: "GET",
          url: "{{baseUrl}}/me",
          header: [{ key: "Authorization", value: "{{auth}}" }, { key: "X-Who", value: "{{who}}" }],
        },
      },
    ],
  };
}

Deno.test("postman template set: a template joining a response part is set as the joined text", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-pm-template-set-" });
  const seen: string[] = [];
  let issued = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    if (req.method === "POST") {
      issued++;
      return Response.json({ token: `t${issued}`, user: { id: 7, name: "ann" } });
    }
    const sent = `${req.headers.get("authorization")} | ${req.headers.get("x-who")}`;
    seen.push(sent);
    return new Response(null, { status: sent === `Bearer t${issued} | ann <7>` ? 200 : 401 });
  });
  const url = `http://127.0.0.1:${server.addr.port}`;
  try {
    const { counts } = await newmanThenFlow(dir, collection(url), url);
    assert.deepEqual([counts.assertions, counts.failedAssertions], [2, 0]);
    assert.deepEqual(seen, ["Bearer t1 | ann <7>", "Bearer t2 | ann <7>"]);
    const flow = await Deno.readTextFile(`${dir}/flows/1_template_sets.yaml`);
    assert.doesNotMatch(flow, /# untranslated/, flow);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
