/**
 * `convert har` on two recordings of a page that posts each edit as a JSON
 * document in one value: Federated Wiki (measured by hand,
 * docs/real-servers-har.md) sends `PUT /page/<slug>/action` with the form
 * field `action={"type":"add","id":"<16 hex>","date":<ms>,…}`, the ids and
 * the time made by the page, so every action differs between the two
 * recordings. Two defects broke the flow:
 *
 * - the create differs only in its `date`, a millisecond clock reading inside
 *   the document, and was made `"date":${RUN_ID}`: no number, broken JSON,
 *   answered 500, every later step skipped (9 of 25);
 * - the others became `${ENV.UPDATE_ACTION_2_ACTION:-{"item":…}}`, and a
 *   fallback ends at its first `}`: unset, the variable sent the document cut
 *   and glued back wrong, answered 500.
 *
 * What the converter does (fresh_from.ts, two_recordings_fallback.ts): a
 * value that differs only in a clock reading inside it is sent as recorded,
 * as a whole clock reading already was; a differing value that holds `}` is
 * sent as the first recording sent it, with one note naming each. Widened to
 * the places a page sends such a value: a form field, a JSON body's string
 * member, a header. Each runs twice on one server the test starts.
 */
import assert from "node:assert/strict";
import { runCliTwice } from "../support/cli.ts";
import { convertHars } from "./har_convert.ts";

/** One place a page sends its action document, and how the server reads it back. */
interface Place {
  name: string;
  send: (doc: string) => { headers: { name: string; value: string }[]; body?: string };
  read: (req: Request) => Promise<string | null>;
}

const FORM = "application/x-www-form-urlencoded; charset=UTF-8";
const PLACES: Place[] = [
  {
    name: "a form field",
    send: (doc) => ({
      headers: [{ name: "Content-Type", value: FORM }],
      body: `action=${encodeURIComponent(doc)}`,
    }),
    read: async (req) => new URLSearchParams(await req.text()).get("action"),
  },
  {
    name: "a JSON body's string member",
    send: (doc) => ({
      headers: [{ name: "Content-Type", value: "application/json" }],
      body: JSON.stringify({ action: doc }),
    }),
    read: async (req) => (await req.json()).action ?? null,
  },
  {
    name: "a header",
    send: (doc) => ({ headers: [{ name: "X-Action", value: doc }] }),
    read: (req) => Promise.resolve(req.headers.get("x-action")),
  },
];

/** The journey's actions, with the ids the page made and the clock at `t0`. */
function actions(ids: [string, string], t0: number): Record<string, unknown>[] {
  return [
    { type: "create", item: { title: "tides", story: [] }, date: t0 },
    {
      type: "add",
      id: ids[0],
      item: { type: "paragraph", id: ids[0], text: "High" },
      date: t0 + 1,
    },
    { type: "add", id: ids[1], item: { type: "paragraph", id: ids[1], text: "Low" }, date: t0 + 2 },
    { type: "move", id: ids[1], order: [ids[1], ids[0]], date: t0 + 3 },
    { type: "remove", id: ids[0], date: t0 + 4 },
  ];
}

/** One recording of the journey through `place`: each action, then the page read and deleted. */
function recording(place: Place, origin: string, ids: [string, string], t0: number): string {
  const at = "2026-11-30T00:30:00.000Z";
  const answer = (text: string, mimeType = "text/html") => ({
    status: 200,
    headers: [],
    content: { mimeType, text },
  });
  const entries = actions(ids, t0).map((a) => {
    const sent = place.send(JSON.stringify(a));
    return {
      startedDateTime: at,
      request: {
        method: "PUT",
        url: `${origin}/page/tides/action`,
        headers: sent.headers,
        ...(sent.body ? { postData: { mimeType: sent.headers[0].value, text: sent.body } } : {}),
      },
      response: answer("ok"),
      _resourceType: "xhr",
    };
  });
  const page = { title: "tides", story: [{ type: "paragraph", id: ids[1], text: "Low" }] };
  for (const method of ["GET", "DELETE"]) {
    entries.push({
      startedDateTime: at,
      request: { method, url: `${origin}/tides.json`, headers: [] },
      response: method === "GET" ? answer(JSON.stringify(page), "application/json") : answer(""),
      _resourceType: "xhr",
    });
  }
  return JSON.stringify({ log: { entries } });
}

/** The wiki: a page made by `create`, changed by the story's ids, read and deleted. */
function wiki(place: Place) {
  let page: { story: { id: string }[] } | undefined;
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/tides.json") {
      if (!page) return new Response("not found", { status: 404 });
      if (req.method === "DELETE") page = undefined;
      return Response.json({ title: "tides", ...page });
    }
    let a;
    try {
      a = JSON.parse((await place.read(req)) ?? "");
    } catch {
      return new Response("broken action", { status: 500 });
    }
    if (typeof a.date !== "number" || a.date < 1e12) {
      return new Response("no date", { status: 500 });
    }
    if (a.type === "create") {
      if (page) return new Response("Page already exists.", { status: 409 });
      page = { story: [] };
      return new Response("ok");
    }
    if (!page) return new Response("no page", { status: 404 });
    const story = page.story;
    if (a.type === "add") story.push(a.item);
    if (a.type === "remove") page.story = story.filter((p) => p.id !== a.id);
    if (a.type === "move") {
      const moved = (a.order as string[]).map((id) => story.find((p) => p.id === id));
      if (moved.some((p) => !p)) return new Response("Ignoring move.", { status: 500 });
      page.story = moved as { id: string }[];
    }
    return new Response("ok");
  });
}

for (const place of PLACES) {
  Deno.test(`convert har: two recordings of documents the page made (${place.name})`, async () => {
    const server = wiki(place);
    const origin = `http://127.0.0.1:${server.addr.port}`;
    const dir = await Deno.makeTempDir();
    try {
      const { converted, flow } = await convertHars(dir, [
        recording(place, origin, ["2ed422ef768e6bd8", "ac54b9aa57f9e0dd"], 1795998569881),
        recording(place, origin, ["71c0e4d2b9a83f56", "0b9d5e7a3c2f1486"], 1795998696896),
      ]);
      assert.doesNotMatch(flow, /RUN_ID/, flow);
      assert.doesNotMatch(converted.stderr, /Set before running/, converted.stderr);
      await runCliTwice(`${dir}/flow.yaml`, origin, flow);
    } finally {
      await server.shutdown();
      await Deno.remove(dir, { recursive: true });
    }
  });
}
