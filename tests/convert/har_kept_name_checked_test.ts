/**
 * `convert har` on a UI that checks a typed name before it makes the item:
 * the page posts `{"name": "Orders sample"}` to a validation endpoint (the
 * answer says nothing but 200), then creates the item with the same name,
 * the answer echoing it beside the item's `_id`, and the journey keeps it.
 * The check is the same typed name sent a moment earlier, not an existing
 * row: no answer held the name before the create. Sent as recorded, a second
 * run on the same instance is refused at the check (400, "already exists").
 * The name is made the run's own at the check and at the create alike. A
 * name that an earlier request sent under another key, or that a login sent
 * (an account's), stays as recorded, and so does one the journey deletes
 * again, here by the item's OData key in the path (`DELETE /odata/data(id)`).
 */
import assert from "node:assert/strict";
import { convertHarFile, runCliTwice } from "../support/cli.ts";
import { harOf } from "../support/har_records.ts";

const API = "http://127.0.0.1:4242";

/** A stand-in keeping data sets, each name unique, checked before a create. */
function standIn() {
  const sets = new Map<string, { _id: string; name: string }>();
  const taken = (name: string) => [...sets.values()].some((s) => s.name === name);
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    if (req.method === "POST" && path === "/studio/validate-name") {
      const { name } = await req.json();
      return taken(name)
        ? new Response(`Entity with name "${name}" already exists`, { status: 400 })
        : new Response("", { status: 200 });
    }
    if (req.method === "POST" && path === "/odata/data") {
      const { name } = await req.json();
      if (taken(name)) return new Response("duplicate", { status: 400 });
      const set = { name, _id: crypto.randomUUID().replaceAll("-", "").slice(0, 16) };
      sets.set(set._id, set);
      return Response.json(set, { status: 201 });
    }
    return new Response(null, { status: 404 });
  });
}

const SET = { name: "Orders sample", _id: "hki8OGWi53bqXstg" };

/** The journey: the name checked, then the data set made with it and kept (or deleted). */
function journey(checkKey = "name", deleted = false): string {
  const removal = { method: "DELETE", url: `${API}/odata/data(${SET._id})`, status: 204 };
  return harOf([
    {
      method: "POST",
      url: `${API}/studio/validate-name`,
      body: JSON.stringify({ [checkKey]: SET.name, entitySet: "data" }),
      json: {},
    },
    {
      method: "POST",
      url: `${API}/odata/data`,
      body: JSON.stringify({ name: SET.name, dataJson: "{}" }),
      status: 201,
      json: SET,
    },
    ...(deleted ? [removal] : []),
  ]);
}

/** The lines of a flow that are sent or checked, its comments left out. */
function sentLines(flow: string): string {
  return flow.split("\n").filter((l) => !l.trimStart().startsWith("#")).join("\n");
}

Deno.test("convert har: a kept name the page checked before making it is the run's own at the check and the create, so a second run passes", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-kept-checked-" });
  const server = standIn();
  try {
    await Deno.writeTextFile(`${dir}/ui.har`, journey());
    const flow = await convertHarFile(`${dir}/ui.har`, `${dir}/ui.yaml`);
    assert.match(flow, /Orders sample-\$\{RANDOM\.HEX_8\}/, flow);
    assert.doesNotMatch(sentLines(flow), /Orders sample(?!-\$\{RANDOM)/, flow);
    const { port } = server.addr as Deno.NetAddr;
    await runCliTwice(`${dir}/ui.yaml`, `http://127.0.0.1:${port}`, flow);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert har: a name an earlier request sent under another key is no check of it: sent as recorded", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-kept-checked-" });
  try {
    await Deno.writeTextFile(`${dir}/ui.har`, journey("template"));
    const flow = await convertHarFile(`${dir}/ui.har`, `${dir}/ui.yaml`);
    assert.doesNotMatch(flow, /RANDOM|RUN_ID/, flow);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert har: a checked name the journey deletes again, by an OData key in the path, is sent as recorded", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-kept-checked-" });
  try {
    await Deno.writeTextFile(`${dir}/ui.har`, journey("name", true));
    const flow = await convertHarFile(`${dir}/ui.har`, `${dir}/ui.yaml`);
    assert.doesNotMatch(flow, /RANDOM|RUN_ID/, flow);
    assert.match(flow, /name: Orders sample\n/, flow);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
