/**
 * `convert har` on a UI where the user names what they create: the page
 * posts `{"name": "summer-sale"}` to a collection and then addresses the new
 * item by that name (`…/items/summer-sale`). Sent as recorded, a second run
 * on the same instance is refused (409: the name is taken). The evidence that
 * the client chose it, whatever the key: no answer held it before, and a
 * later request opens it right under the collection the write went to. Such
 * a name is made the run's own (`summer-sale-${RUN_ID}`) everywhere it is
 * sent and checked; a value of the same write nothing addresses stays.
 */
import assert from "node:assert/strict";
import { convertHarFile, runCliTwice } from "../support/cli.ts";
import { fullRequest, jsonAnswer } from "../support/har_records.ts";

function entry(method: string, url: string, at: string, answer?: unknown, sent?: unknown) {
  const body = sent === undefined ? undefined : JSON.stringify(sent);
  const text = answer === undefined ? "" : JSON.stringify(answer);
  return {
    startedDateTime: at,
    time: 1,
    request: fullRequest(method, url, body),
    ...jsonAnswer(method === "POST" && url.endsWith("/items") ? 201 : 200, "OK", [{
      name: "content-type",
      value: "application/json",
    }], text),
  };
}

/** A stand-in that keeps what is created, by name, and refuses a name taken (409). */
function standIn() {
  const made = new Map<string, Record<string, unknown>>();
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    const name = decodeURIComponent(path.slice(path.lastIndexOf("/") + 1));
    if (req.method === "POST" && path.endsWith("/validate")) {
      const sent = await req.json();
      return made.has(sent.name) ? new Response(null, { status: 409 }) : Response.json({});
    }
    if (req.method === "POST" && path.endsWith("/archive")) {
      const { items } = await req.json();
      const known = Array.isArray(items) && items.every((n) => made.has(n));
      return known
        ? Response.json({ archived: items.length })
        : new Response(null, { status: 400 });
    }
    if (req.method === "POST") {
      const sent = await req.json();
      if (made.has(sent.name)) return new Response(null, { status: 409 });
      const item = { name: sent.name, type: sent.type, stale: false };
      made.set(sent.name, item);
      return Response.json(item, { status: 201 });
    }
    const item = made.get(name);
    return item ? Response.json(item) : new Response(null, { status: 404 });
  });
}

Deno.test("convert har: a name the client chose for what it creates is made the run's own, so a second run on the same instance passes", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-client-named-" });
  const server = standIn();
  try {
    const api = "http://127.0.0.1:4242/api/projects/main";
    const item = { name: "summer-sale", type: "release", stale: false };
    const har = {
      log: {
        version: "1.2",
        creator: { name: "test", version: "1" },
        entries: [
          entry("POST", `${api}/validate`, "2026-01-01T00:00:00.000Z", {}, { name: "summer-sale" }),
          entry("POST", `${api}/items`, "2026-01-01T00:00:01.000Z", item, {
            name: "summer-sale",
            type: "release",
          }),
          entry("GET", `${api}/items/summer-sale`, "2026-01-01T00:00:02.000Z", item),
          entry("POST", `${api}/archive`, "2026-01-01T00:00:03.000Z", { archived: 1 }, {
            items: ["summer-sale"],
          }),
        ],
      },
    };
    await Deno.writeTextFile(`${dir}/ui.har`, JSON.stringify(har));
    const flow = await convertHarFile(`${dir}/ui.har`, `${dir}/ui.yaml`);
    const sent = flow.split("\n").filter((l) => !l.trimStart().startsWith("#")).join("\n");
    assert.doesNotMatch(sent, /summer-sale(?!-\$\{RUN_ID\})/, flow);
    // What nothing addresses by it stays as recorded.
    assert.match(flow, /type: release/, flow);
    const { port } = server.addr as Deno.NetAddr;
    await runCliTwice(`${dir}/ui.yaml`, `http://127.0.0.1:${port}`, flow);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert har: a name an earlier answer gave is not the client's: it is sent as recorded", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-client-named-" });
  try {
    const api = "http://127.0.0.1:4242/api/projects/main";
    const item = { name: "summer-sale", type: "release", stale: false };
    const har = {
      log: {
        version: "1.2",
        creator: { name: "test", version: "1" },
        entries: [
          entry("GET", `${api}/templates`, "2026-01-01T00:00:00.000Z", [{ name: "summer-sale" }]),
          entry("POST", `${api}/items`, "2026-01-01T00:00:01.000Z", item, { name: "summer-sale" }),
          entry("GET", `${api}/items/summer-sale`, "2026-01-01T00:00:02.000Z", item),
        ],
      },
    };
    await Deno.writeTextFile(`${dir}/ui.har`, JSON.stringify(har));
    const flow = await convertHarFile(`${dir}/ui.har`, `${dir}/ui.yaml`);
    assert.doesNotMatch(flow, /RUN_ID/, flow);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
