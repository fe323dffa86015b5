/**
 * `convert har` on a notes app that keeps a category as a folder named by what the page sent
 * (Raneto 0.16.0, by hand in docs/real-servers-har.md): the page sends only the name it made of
 * the typed title, `category=harbour-notes`, and the folder's name comes back in later paths
 * (`/harbour-notes/Dock-schedule/edit`, a page the converter drops, and each later Referer) and
 * inside later values (`file=/harbour-notes/Dock-schedule`). The page reloaded after the create,
 * so the recording lost its answer and the flow checks its status only: a second run on the
 * same instance passed while the server refused the create with a 200 (`EEXIST`), and acted on
 * the first run's folder.
 *
 * What the converter does (correlate/derived_names.ts): a name a write sent that nothing before
 * held, which later requests send again as a whole piece of a path (their URL's, their
 * Referer's, or a path they send as a value), is the run's own: the recorded name and the run's
 * tag (`harbour-notes-${vars.title_tag}`), sent wherever the recording sent it, inside longer
 * text too, so each run creates its own. Form and JSON writes.
 */
import assert from "node:assert/strict";
import { chromiumEntry, type Exchange } from "../support/chromium_entry.ts";
import { passesTwice } from "../support/form_pages.ts";

const JSON_TYPE = "application/json; charset=utf-8";
const ORIGIN = "http://127.0.0.1:3000";

/** The app: folders of pages; a create of a folder that exists is refused with a 200. */
function notesStandIn() {
  const folders = new Set<string>();
  const pages = new Set<string>();
  const refused: string[] = [];
  const answer = (status: number, message: unknown) =>
    new Response(JSON.stringify({ status, message }), {
      headers: { "content-type": JSON_TYPE },
    });
  const read = async (req: Request) =>
    /json/.test(req.headers.get("content-type") ?? "")
      ? await req.json() as Record<string, string>
      : Object.fromEntries(new URLSearchParams(await req.text()));
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (req.method === "GET") {
      return new Response(`<html><body>${url.pathname}</body></html>`, {
        headers: { "content-type": "text/html" },
      });
    }
    const body = await read(req);
    if (url.pathname === "/rn-add-category") {
      if (folders.has(body.category)) {
        refused.push(`add-category ${body.category}`);
        return answer(1, { code: "EEXIST" });
      }
      folders.add(body.category);
      return answer(0, "Category created");
    }
    if (url.pathname === "/rn-add-page") {
      if (!folders.has(body.category)) return answer(1, "No such category");
      pages.add(`/${body.category}/${body.name}`);
      return answer(0, "Page created");
    }
    if (!pages.has(body.file)) return answer(1, "No such page");
    if (url.pathname === "/rn-delete") pages.delete(body.file);
    return answer(0, url.pathname === "/rn-delete" ? "Page deleted" : "Page Saved");
  });
  const { port } = server.addr as Deno.NetAddr;
  return {
    origin: `http://127.0.0.1:${port}`,
    folders,
    refused,
    close: () => server.shutdown(),
  };
}

/** A write the page sent as a form or as JSON, from the page at `from`. */
function write(path: string, fields: Record<string, string>, from: string, json: boolean) {
  const mimeType = json ? "application/json" : "application/x-www-form-urlencoded; charset=UTF-8";
  const text = json ? JSON.stringify(fields) : new URLSearchParams(fields).toString();
  return {
    method: "POST",
    url: `${ORIGIN}${path}`,
    headers: [["Content-Type", mimeType], ["Referer", `${ORIGIN}${from}`]] as [string, string][],
    postData: { mimeType, text },
    type: "xhr",
  };
}

/** Add a category, add a page in it, open the page's editor and save, delete the page. */
function recording(json: boolean): string {
  const page = (path: string): Exchange => ({
    method: "GET",
    url: `${ORIGIN}${path}`,
    headers: [],
    status: 200,
    mime: "text/html",
    text: `<html><body>${path}</body></html>`,
    type: "document",
  });
  const verdict = (message: string) => JSON.stringify({ status: 0, message });
  const exchanges: Exchange[] = [
    page("/"),
    // The page reloaded at once: the recording kept the create's status, not its answer.
    {
      ...write("/rn-add-category", { category: "harbour-notes" }, "/", json),
      status: 200,
      mime: JSON_TYPE,
      text: "",
    },
    page("/"),
    {
      ...write("/rn-add-page", { name: "Dock-schedule", category: "harbour-notes" }, "/", json),
      status: 200,
      mime: JSON_TYPE,
      text: verdict("Page created"),
    },
    page("/harbour-notes/Dock-schedule/edit"),
    {
      ...write(
        "/rn-edit",
        {
          file: "/harbour-notes/Dock-schedule",
          content: "Crates leave dock 4 at noon.",
        },
        "/harbour-notes/Dock-schedule/edit",
        json,
      ),
      status: 200,
      mime: JSON_TYPE,
      text: verdict("Page Saved"),
    },
    page("/harbour-notes/Dock-schedule"),
    {
      ...write(
        "/rn-delete",
        { file: "/harbour-notes/Dock-schedule" },
        "/harbour-notes/Dock-schedule",
        json,
      ),
      status: 200,
      mime: JSON_TYPE,
      text: "",
    },
    page("/"),
  ];
  const entries = exchanges.map((e, i) => chromiumEntry(i, e));
  return JSON.stringify({ log: { version: "1.2", creator: { name: "stand-in" }, entries } });
}

for (const json of [false, true]) {
  Deno.test(`convert har: a name a write sent that later paths name again is the run's own, so a second run creates its own category where the recording lost the create's answer (${json ? "JSON" : "form"})`, async () => {
    const app = notesStandIn();
    try {
      await passesTwice(recording(json), app.origin, (flow) => {
        assert.doesNotMatch(flow, /category: harbour-notes\n/, flow);
        assert.doesNotMatch(flow, /file: \/harbour-notes\//, flow);
      });
      assert.deepEqual(app.refused, []);
      assert.equal(app.folders.size, 2, [...app.folders].join());
      for (const f of app.folders) assert.match(f, /^harbour-notes-[0-9a-f]{8}$/);
    } finally {
      await app.close();
    }
  });
}
