/**
 * A value found at a fixed index of a long list (`data[90]`) is captured by
 * a filter on its neighbours, the sibling members that identify the element,
 * not by position: a fresh instance lists the same elements in another
 * order. No single sibling tells the element apart here (91 fields of 13
 * collections, each field name used by several collections), so the filter
 * names two. The recording is made against one live instance the test
 * starts; `--verify` runs against a fresh one, and the flow it writes then
 * passes on a third.
 */
import assert from "node:assert/strict";
import { convertVerified, passesAsNewUser } from "../support/cli.ts";

const COLLECTIONS = Array.from(
  { length: 13 },
  (_, i) => `collection_${String.fromCharCode(97 + i)}`,
);
const FIELDS = ["id", "status", "sort", "title", "body", "author", "date_created"];

/** A schema listing: 91 fields in an order of its own, each with an id this instance made. */
function startApi() {
  const fields = COLLECTIONS.flatMap((collection) =>
    FIELDS.map((field) => ({
      collection,
      field,
      type: "string",
      meta: { id: crypto.randomUUID() },
    }))
  );
  // Each instance lists them in another order (a fresh install's own).
  const shift = Math.floor(Math.random() * 80) + 5;
  const listed = [...fields.slice(shift), ...fields.slice(0, shift)];
  const refused: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    await req.body?.cancel();
    if (url.pathname === "/fields") return Response.json({ data: listed });
    const m = /^\/fields\/by-id\/(.+)$/.exec(url.pathname);
    const found = m && fields.find((f) => f.meta.id === m[1]);
    // The journey opens the title of collection_m: another field is the wrong page.
    if (!found || found.collection !== "collection_m" || found.field !== "title") {
      refused.push(url.pathname);
      return Response.json({ errors: [{ message: "not that field" }] }, { status: 404 });
    }
    return Response.json({ data: found });
  });
  return {
    origin: `http://127.0.0.1:${server.addr.port}`,
    refused,
    indexOfTarget: () =>
      listed.findIndex((f) => f.collection === "collection_m" && f.field === "title"),
    close: () => server.shutdown(),
  };
}

async function record(origin: string): Promise<string> {
  const entries: unknown[] = [];
  const send = async (path: string) => {
    const res = await fetch(`${origin}${path}`);
    const text = await res.text();
    entries.push({
      startedDateTime: new Date(Date.UTC(2026, 0, 1, 0, 0, entries.length)).toISOString(),
      request: { method: "GET", url: `${origin}${path}`, headers: [] },
      response: {
        status: res.status,
        headers: [{ name: "content-type", value: "application/json" }],
        content: { mimeType: "application/json", text },
      },
      _resourceType: "fetch",
    });
    return JSON.parse(text);
  };
  const { data } = await send("/fields");
  const target = data.find((f: { collection: string; field: string }) =>
    f.collection === "collection_m" && f.field === "title"
  );
  await send(`/fields/by-id/${target.meta.id}`);
  return JSON.stringify({ log: { entries } });
}

for (const mode of ["--no-correlate", "--spelling=a"]) {
  Deno.test(`--verify (${mode}) captures an element of a long list by its neighbours, not its index`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "flowrun-verify-neighbours-" });
    try {
      const first = startApi();
      try {
        await Deno.writeTextFile(`${dir}/s.har`, await record(first.origin));
      } finally {
        await first.close();
      }
      const { verified, flow } = await convertVerified(
        startApi,
        `${dir}/s.har`,
        `${dir}/flow.yaml`,
        [mode],
      );
      assert.equal(verified.code, 0, `${verified.stderr}\n${flow}`);
      assert.match(flow, /\[\?@\.collection == 'collection_m' && @\.field == 'title'\]/, flow);
      assert.doesNotMatch(flow, /\$\.json\.data\[\d+\]/, flow);
      // A third instance lists the fields in yet another order: the flow still finds the title.
      let third = startApi();
      for (let i = 0; i < 10 && third.indexOfTarget() === first.indexOfTarget(); i++) {
        await third.close();
        third = startApi();
      }
      await passesAsNewUser(third, `${dir}/flow.yaml`, flow);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}

Deno.test("byNeighbours: one field, else two together; never ids, control characters or no pair", async () => {
  const { byNeighbours } = await import("../../lib/convert/verify_neighbours.ts");
  const { emptyCorrelator } = await import("../../lib/convert/correlate/state.ts");
  const c = emptyCorrelator("a", true);
  const at = (data: unknown[], i: number) => byNeighbours(c, { data }, ["data", i, "v"])[1];
  // One field tells it apart.
  assert.deepEqual(at([{ n: "a", v: 1 }, { n: "b", v: 2 }], 1), { key: "n", value: "b" });
  // Only two together do.
  const pairs = [{ k: "a", f: "x" }, { k: "a", f: "y" }, { k: "b", f: "x" }, { k: "b", f: "y" }];
  assert.deepEqual(at(pairs, 2), { key: "k", value: "b", also: [{ key: "f", value: "x" }] });
  // An id, a UUID, a field with a control character: no filter names the element by them.
  const ids = [{ id: "itm_3fa2c1d4e5f6" }, { id: "itm_9fa2c1d4e5f7" }];
  assert.equal(at(ids, 1), 1);
  const control = [{ "a\u0001": "x" }, { "a\u0001": "y" }];
  assert.equal(at(control, 1), 1);
  // Nothing tells two equal elements apart: the position stays.
  assert.equal(at([{ k: "a" }, { k: "a" }], 1), 1);
});
