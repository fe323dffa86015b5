/**
 * `convert har` where an answer hands out a URL on the instance's own
 * address and the page sends it back: an OData create answers
 * `"@odata.editLink": "http://127.0.0.1:42569/odata/templates('HZ2R…')"`
 * and the editor renders the template it holds, those links included.
 * Sent as recorded, the flow names the recorded instance's address on
 * another one (jsreport ignores it; a server that reads the link does not).
 * A string an answer gives that is a URL on the origin that answered is
 * the instance's own, captured like an id and sent from the live answer.
 */
import assert from "node:assert/strict";
import { convertHarThenRun } from "../support/cli.ts";
import { harOf } from "../support/har_records.ts";

const API = "http://127.0.0.1:42569";

/** A stand-in whose creates answer their own address, and whose render reads it back. */
function standIn() {
  const ids = new Set<string>();
  let origin = "";
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    if (req.method === "POST" && path === "/odata/templates") {
      const id = crypto.randomUUID().replaceAll("-", "").slice(0, 16);
      ids.add(id);
      return Response.json({
        "@odata.editLink": `${origin}/odata/templates('${id}')`,
        _id: id,
      }, { status: 201 });
    }
    if (req.method === "POST" && path === "/api/report") {
      const { template } = await req.json();
      const link = /^(.*)\/odata\/templates\('(\w+)'\)$/.exec(template["@odata.editLink"]);
      return link && link[1] === origin && ids.has(link[2])
        ? new Response("rendered")
        : new Response("no such template here", { status: 400 });
    }
    return new Response(null, { status: 404 });
  });
  origin = `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`;
  return { origin, close: () => server.shutdown() };
}

Deno.test("convert har: a URL an answer gave on the instance's own address is captured, so another instance reads its own", async () => {
  const link = `${API}/odata/templates('HZ2RufjDBXAjBBnw')`;
  const har = harOf([
    {
      method: "POST",
      url: `${API}/odata/templates`,
      body: JSON.stringify({ name: "Orders intake" }),
      status: 201,
      json: { "@odata.editLink": link, _id: "HZ2RufjDBXAjBBnw" },
    },
    {
      method: "POST",
      url: `${API}/api/report`,
      body: JSON.stringify({ template: { "@odata.editLink": link } }),
      json: {},
    },
  ]);
  const { flow, run } = await convertHarThenRun(standIn, har);
  assert.match(flow, /odata_edit_link: \$\.json\['@odata\.editLink'\]/, flow);
  const sent = flow.split("\n").filter((l) => !l.trimStart().startsWith("#")).join("\n");
  assert.doesNotMatch(sent, /42569\/odata/, flow);
  assert.equal(run.code, 0, `${run.stdout}${run.stderr}\n${flow}`);
});
