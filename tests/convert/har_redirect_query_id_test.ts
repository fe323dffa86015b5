/**
 * `convert har` on a page that opens by a redirect naming what it made in
 * the `Location`'s query, as Roundcube's compose does
 * (`GET ?_task=mail&_action=compose` → 302
 * `?_task=mail&_action=compose&_id=1376580266b09620d4857c`,
 * tests/real/roundcube_har_test.ts): the compose page at that URL, then
 * the draft's form post sending the same `_id`. The redirect, a GET
 * document with no body, was dropped as an HTML document, so nothing
 * recorded had produced the id: it became `${ENV.RECORDED_SECRET}` in the
 * page's URL and the form, the summary asked for it, and a fresh instance
 * knew no such compose (the draft was refused).
 *
 * What the converter does (pages.ts): a dropped redirect whose `Location`
 * holds a value a later kept request sends takes part in the session and is
 * kept, so the value is captured from the fresh `Location` (handed.ts and
 * the correlation), and the page it leads to is fetched as handed out.
 */
import assert from "node:assert/strict";
import { formPost, htmlPage, pagesHar, passesTwice } from "../support/form_pages.ts";

/** A compose that hands out a new id by redirect and saves drafts only for ids it handed out. */
function composeStandIn() {
  const handed = new Set<string>();
  const saved: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const id = url.searchParams.get("_id");
    if (req.method === "GET" && url.searchParams.get("_action") === "compose") {
      if (id === null) {
        const fresh = crypto.randomUUID().replaceAll("-", "").slice(0, 22);
        handed.add(fresh);
        // Relative, as PHP's header() writes it.
        const location = `/?_task=mail&_action=compose&_id=${fresh}`;
        return new Response(null, { status: 302, headers: { location } });
      }
      if (!handed.has(id)) return htmlPage(url.origin, 404, "no such compose");
      return htmlPage(
        url.origin,
        200,
        `<form><input type="hidden" name="_id" value="${id}"></form>`,
      );
    }
    if (req.method === "POST") {
      const form = new URLSearchParams(await req.text());
      const posted = form.get("_id") ?? "";
      if (!handed.has(posted)) return htmlPage(url.origin, 400, "invalid compose id");
      saved.push(posted);
      return htmlPage(url.origin, 200, "saved");
    }
    if (url.searchParams.get("_action") === "list") {
      return Response.json({ action: "list", exec: "this.set_message_count(0)" });
    }
    return htmlPage(url.origin, 200, "mail");
  });
  const { port } = server.addr as Deno.NetAddr;
  return { origin: `http://127.0.0.1:${port}`, saved, close: () => server.shutdown() };
}

const ORIGIN = "http://127.0.0.1:8000";
const ID = "1376580266b09620d4857c";

/** The page's XHR of the message list (the app's JSON calls, so not every page is a step). */
function listCall(at: string) {
  const json = '{"action":"list","exec":"this.set_message_count(0)"}';
  return {
    startedDateTime: at,
    time: 5,
    request: {
      method: "GET",
      url: `${ORIGIN}/?_task=mail&_action=list&_remote=1`,
      headers: [{ name: "X-Requested-With", value: "XMLHttpRequest" }],
      cookies: [],
    },
    response: {
      status: 200,
      headers: [{ name: "Content-Type", value: "application/json; charset=UTF-8" }],
      cookies: [],
      content: { mimeType: "application/json; charset=UTF-8", text: json },
      redirectURL: "",
    },
    _resourceType: "xhr",
  };
}

/** The journey on another instance, whose compose id was {@linkcode ID}: relative Location, as PHP writes it. */
function recording(): string {
  const har = JSON.parse(pagesHar(ORIGIN, [
    { method: "GET", path: "/?_task=mail" },
    {
      method: "GET",
      path: "/?_task=mail&_action=compose",
      location: `/?_task=mail&_action=compose&_id=${ID}`,
    },
    { method: "GET", path: `/?_task=mail&_action=compose&_id=${ID}` },
    {
      method: "POST",
      path: "/?_task=mail&_framed=1",
      ...formPost(`_task=mail&_action=send&_id=${ID}&_subject=Mooring&_draft=1`),
    },
  ]));
  const [home, redirect, compose] = har.log.entries;
  // The compose page hands the id to its form too, as Roundcube's does.
  compose.response.content.text = `<form><input type="hidden" name="_id" value="${ID}"></form>`;
  const location = redirect.response.headers.find((h: { name: string }) => h.name === "Location");
  location.value = location.value.slice(ORIGIN.length);
  har.log.entries.splice(1, 0, listCall(home.startedDateTime));
  return JSON.stringify(har);
}

Deno.test("convert har: an id a redirect hands out in its Location's query is captured from the fresh redirect, never asked for, twice on one instance", async () => {
  const app = composeStandIn();
  try {
    await passesTwice(recording(), app.origin, (flow) => {
      assert.doesNotMatch(flow, /ENV\.RECORDED_SECRET|ENV\.[A-Z_]*ID\b/, flow);
      assert.ok(!flow.includes(ID), flow);
    });
    assert.equal(app.saved.length, 2);
    assert.notEqual(app.saved[0], app.saved[1]);
  } finally {
    await app.close();
  }
});
