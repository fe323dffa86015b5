/**
 * `convert har` on an editor whose page makes a short random id for what it
 * creates (`"shortid": "22vxy3E98"`, beside the name) and sends it in the
 * create; the server keeps it and makes its own `_id` too, echoing both.
 * Later requests refer to the item by that short id (a template's
 * `data: {shortid}`). Sent as recorded, a second run on the same instance is
 * refused (jsreport: 500 "Entity with shortid … already exists"). Such an id
 * (no earlier request or answer held it, the create's answer echoes it under
 * the same key beside the server's own id) is the run's own: one var drawn
 * once a run, random hex of the recorded length, sent wherever the
 * recording had it. An id the answer echoes with no id of the server's
 * beside it, and one an earlier answer held, stay as recorded.
 */
import assert from "node:assert/strict";
import { convertHarFile, runCliTwice } from "../support/cli.ts";
import { harOf } from "../support/har_records.ts";

const API = "http://127.0.0.1:4242";

/** A stand-in keeping data sets and templates, each short id unique, a template naming its data. */
function standIn() {
  const sets = new Map<string, Record<string, unknown>>();
  const templates = new Map<string, Record<string, unknown>>();
  const id = () => crypto.randomUUID().replaceAll("-", "").slice(0, 16);
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    const store = path === "/odata/data" ? sets : path === "/odata/templates" ? templates : null;
    if (req.method === "POST" && store) {
      const body = await req.json();
      if (store.has(body.shortid)) {
        return new Response(`Entity with shortid "${body.shortid}" already exists.`, {
          status: 500,
        });
      }
      if (store === templates && !sets.has(body.data?.shortid)) {
        return new Response("no such data", { status: 400 });
      }
      const item = { ...body, _id: id() };
      store.set(body.shortid, item);
      return Response.json(item, { status: 201 });
    }
    return new Response(null, { status: 404 });
  });
}

/** The journey: a data set made with the page's short id, then a template naming it. */
function journey(): string {
  const set = { name: "Orders sample", shortid: "22vxy3E98" };
  const template = { name: "Orders intake", shortid: "C0oBCcrans", data: { shortid: set.shortid } };
  return harOf([
    {
      method: "POST",
      url: `${API}/odata/data`,
      body: JSON.stringify(set),
      status: 201,
      json: { ...set, _id: "hki8OGWi53bqXstg" },
    },
    {
      method: "POST",
      url: `${API}/odata/templates`,
      body: JSON.stringify(template),
      status: 201,
      json: { ...template, _id: "krcKcpBMgb9GlMcS" },
    },
  ]);
}

/** The lines of a flow that are sent or checked, its comments left out. */
function sentLines(flow: string): string {
  return flow.split("\n").filter((l) => !l.trimStart().startsWith("#")).join("\n");
}

Deno.test("convert har: a short id the page made for what it creates is the run's own, so a second run passes", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-short-id-" });
  const server = standIn();
  try {
    await Deno.writeTextFile(`${dir}/ui.har`, journey());
    const flow = await convertHarFile(`${dir}/ui.har`, `${dir}/ui.yaml`);
    assert.match(flow, /: "?\$\{RANDOM\.HEX_9\}"?\n/, flow);
    assert.match(flow, /: "?\$\{RANDOM\.HEX_10\}"?\n/, flow);
    assert.doesNotMatch(sentLines(flow), /22vxy3E98|C0oBCcrans/, flow);
    const { port } = server.addr as Deno.NetAddr;
    await runCliTwice(`${dir}/ui.yaml`, `http://127.0.0.1:${port}`, flow);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert har: a short id echoed with no id of the server's beside it, or one an earlier answer held, is sent as recorded", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-short-id-" });
  try {
    const set = { name: "Orders sample", shortid: "22vxy3E98" };
    const har = harOf([
      // The server's own id is the short id itself: nothing says the page made it.
      { method: "POST", url: `${API}/odata/data`, body: JSON.stringify(set), json: set },
      // An earlier answer listed this one: an existing item's.
      { url: `${API}/odata/tags`, json: { value: [{ shortid: "Tg7kQ2mZp" }] } },
      {
        method: "POST",
        url: `${API}/odata/templates`,
        body: JSON.stringify({ name: "Orders intake", shortid: "Tg7kQ2mZp" }),
        json: { name: "Orders intake", shortid: "Tg7kQ2mZp", _id: "krcKcpBMgb9GlMcS" },
      },
    ]);
    await Deno.writeTextFile(`${dir}/ui.har`, har);
    const flow = await convertHarFile(`${dir}/ui.har`, `${dir}/ui.yaml`);
    assert.doesNotMatch(flow, /RANDOM\.HEX_9/, flow);
    assert.match(flow, /shortid: "22vxy3E98"\n/, flow);
    assert.match(flow, /shortid: \$\{steps\.list_tags\.capture\.shortid\}\n/, flow);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
