/**
 * A header whose name holds a variable (`{{headerName}}: x`, `X-{{tenant}}-Id: 1`, a name a script
 * set from an answer): Postman fills the name as it fills the value, but the converter took the
 * braces for no header name and left the header out (a note beside the step), so the server never
 * saw it. A flow's header names may hold expressions, so the name is now the variable's expression
 * where its written parts are those of a header name. Newman's checks of the echoed headers pass
 * in both runners; a name whose written parts are no header name is still left out, said.
 */
import assert from "node:assert/strict";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { newmanThenFlow } from "../support/newman_then_flow.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

function collection(base: string) {
  return {
    info: { name: "Header names", schema: V21 },
    variable: [
      { key: "baseUrl", value: base },
      { key: "headerName", value: "X-Trace" },
      { key: "tenant", value: "acme" },
    ],
    item: [{
      name: "Which header",
      event: [{
        listen: "test",
        script: {
          exec: [
            "const j = pm.response.json();",
            'pm.environment.set("hname", j.header);',
            'pm.environment.set("hval", j.value);',
          ],
        },
      }],
      request: { method: "GET", url: "{{baseUrl}}/which" },
    }, {
      name: "Echo",
      event: [{
        listen: "test",
        script: {
          exec: [
            "const h = pm.response.json().headers;",
            'pm.test("named by a variable", () => pm.expect(h["x-trace"]).to.eql("x-acme"));',
            'pm.test("part of the name", () => pm.expect(h["x-acme-id"]).to.eql("1"));',
            'pm.test("named by the answer", () => pm.expect(h["x-csrf-guard"]).to.eql("g-7"));',
          ],
        },
      }],
      request: {
        method: "GET",
        url: "{{baseUrl}}/echo",
        header: [
          { key: "{{headerName}}", value: "x-{{tenant}}" },
          { key: "X-{{tenant}}-Id", value: "1" },
          { key: "{{hname}}", value: "{{hval}}" },
        ],
      },
    }],
  };
}

/** `/which` names a header and its value; `/echo` answers the request's headers. */
function echo() {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    if (new URL(req.url).pathname === "/which") {
      return Response.json({ header: "X-Csrf-Guard", value: "g-7" });
    }
    return Response.json({ headers: Object.fromEntries(req.headers) });
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

Deno.test("postman header name var: a header named by a variable is sent under the name Postman fills", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-pm-header-name-" });
  const server = echo();
  try {
    const { counts } = await newmanThenFlow(dir, collection(server.url), server.url);
    assert.equal(counts.failedAssertions, 0, JSON.stringify(counts));
    assert.equal(counts.assertions, 3);
    const flow = await Deno.readTextFile(`${dir}/flows/1_header_names.yaml`);
    assert.doesNotMatch(flow, /left out/, flow);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("postman header name var: written parts that are no header name are still left out", () => {
  const c = collection("http://127.0.0.1:9");
  c.item[1].request.header = [{ key: "Bad {{tenant}}", value: "v" }];
  const { files } = convertPostman(JSON.stringify(c));
  const flow = files.find((f) => f.path.endsWith(".yaml"))!.text;
  assert.match(flow, /the header "Bad \{\{tenant\}\}" is left out: it is not a header name/, flow);
});
