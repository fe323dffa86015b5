/**
 * A server-rendered tracker as Fossil's web UI is one (docs/real-servers-har.md), for the
 * `convert har` tests of its classes: a stand-in on 127.0.0.1 and a recording of one journey on
 * ANOTHER instance of it, built here the shape Chromium records (documents, HTML answers).
 *
 * Each instance has a project code of its own (16 hex digits). The journey: open the login form
 * (`u`, `p`), post it (302; the login cookie, named `tracker-<code>` when `namedByCode`, its value
 * `<hash>/<code>/<user>`), open the new-ticket form (a hidden `csrf`: the hash's first 10
 * digits), post it (302 to the ticket), open the ticket, post a new wiki page's name and markup
 * (302 to the editor, whose query echoes both when `echoes`), save the page (JSON). Every post
 * sends the browser's `Origin` and `Referer`; with `checksReferer` a write refuses any other.
 */
import { runCli } from "../support/cli.ts";
import { type PageExchange, pageJourneyHar } from "../support/page_journey.ts";

/** The password the recording typed (and the user sets). */
export const PASSWORD = "typed-at-the-form-9";

/** How the stand-in and the recording name things. */
export interface TrackerShape {
  /** The login cookie is named for the instance's project code (else `tracker_login`). */
  namedByCode: boolean;
  /** The new page's redirect echoes the fields the form sent (`?name=…&mimetype=…`). */
  echoes: boolean;
  /** A write is refused unless its `Referer` is a page of the instance's own (Fossil's CSRF check). */
  checksReferer?: boolean;
}

const html = (body: string) => `<!DOCTYPE html><html><body>${body}</body></html>`;
const loginPage = () =>
  html(
    '<form method="POST" action="/login"><input name="u"><input type="password" name="p"></form>',
  );
const ticketForm = (csrf: string) =>
  html(
    `<form method="POST" action="/tktnew"><input type="hidden" name="csrf" value="${csrf}">` +
      '<input name="title"></form>',
  );
const cookieName = (shape: TrackerShape, code: string) =>
  shape.namedByCode ? `tracker-${code}` : "tracker_login";
const editorPath = (shape: TrackerShape) =>
  shape.echoes ? "/wikiedit?name=OpsNotes&mimetype=text/x-markdown" : "/wikiedit?name=OpsNotes";

/** A fresh instance: its own project code, logins and tickets. */
export function trackerStandIn(shape: TrackerShape) {
  const code = crypto.randomUUID().replaceAll("-", "").slice(0, 16);
  const logins = new Set<string>();
  const saved: string[] = [];
  let tickets = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const page = (body: string, headers: Record<string, string> = {}) =>
      new Response(body, { headers: { "content-type": "text/html; charset=utf-8", ...headers } });
    const redirect = (to: string, headers: Record<string, string> = {}) =>
      new Response(null, { status: 302, headers: { location: to, ...headers } });
    const form = req.method === "POST" ? await req.formData() : new FormData();
    if (url.pathname === "/login" && req.method === "GET") return page(loginPage());
    if (url.pathname === "/login") {
      if (form.get("p") !== PASSWORD) return page(loginPage());
      const hash = crypto.randomUUID().replaceAll("-", "").toUpperCase();
      logins.add(hash);
      const value = encodeURIComponent(`${hash}/${code}/${form.get("u")}`);
      return redirect("/", {
        "set-cookie": `${cookieName(shape, code)}=${value}; Path=/; HttpOnly`,
      });
    }
    const sent = /(?:^|;\s*)([^=;\s]+)=([^;]*)/.exec(req.headers.get("cookie") ?? "");
    const [hash, owner] = decodeURIComponent(sent?.[2] ?? "").split("/");
    if (sent?.[1] !== cookieName(shape, code) || !logins.has(hash) || owner !== code) {
      return page(loginPage(), { "x-login": "required" });
    }
    const csrf = hash.slice(0, 10);
    const referer = req.headers.get("referer") ?? "";
    if (shape.checksReferer && req.method === "POST" && !referer.startsWith(`${url.origin}/`)) {
      return new Response("not authorized: no same-origin Referer", { status: 400 });
    }
    if (url.pathname === "/tktnew" && req.method === "GET") return page(ticketForm(csrf));
    if (url.pathname === "/tktnew") {
      if (form.get("csrf") !== csrf) return new Response("bad csrf", { status: 403 });
      return redirect(`/tktview/${(++tickets).toString(16).padStart(8, "0")}${code}`);
    }
    if (url.pathname.startsWith("/tktview/")) return page(html("<h1>ticket</h1>"));
    if (url.pathname === "/wikinew") return redirect(editorPath(shape));
    if (url.pathname === "/wikiajax/save" && form.get("mimetype") === "text/x-markdown") {
      saved.push(String(form.get("content")));
      return Response.json({ name: form.get("page"), version: `v${saved.length}` });
    }
    return new Response("not found", { status: 404 });
  });
  return {
    origin: `http://127.0.0.1:${server.addr.port}`,
    code,
    saved,
    close: () => server.shutdown(),
  };
}

/** Where the recorded instance answered. */
const ORIGIN = "http://127.0.0.1:8080";

/** The journey as an instance at 127.0.0.1:8080 with project code `84ed909103a16e91` answered it. */
export function trackerRecording(shape: TrackerShape): string {
  const code = "84ed909103a16e91";
  const hash = "D617D098FD95A8DAAE5B8E7049FA07F2C0257A34D49B62F0CB";
  const login = `${cookieName(shape, code)}=${hash}%2F${code}%2Fadmin`;
  const exchanges: PageExchange[] = [
    { method: "GET", path: "/login", html: loginPage() },
    {
      method: "POST",
      path: "/login",
      referer: "/login",
      form: `u=admin&p=${PASSWORD}&in=Login`,
      status: 302,
      setCookie: `${login}; Path=/; HttpOnly`,
      location: "/",
    },
    { method: "GET", path: "/tktnew", cookie: login, html: ticketForm(hash.slice(0, 10)) },
    {
      method: "POST",
      path: "/tktnew",
      cookie: login,
      referer: "/tktnew",
      form: `csrf=${hash.slice(0, 10)}&title=Backup+stalls`,
      status: 302,
      location: `/tktview/00000001${code}`,
    },
    { method: "GET", path: `/tktview/00000001${code}`, cookie: login, html: html("<h1>t</h1>") },
    {
      method: "POST",
      path: "/wikinew",
      cookie: login,
      referer: "/wikinew",
      form: "name=OpsNotes&mimetype=text%2Fx-markdown",
      status: 302,
      location: editorPath(shape),
    },
    {
      method: "POST",
      path: "/wikiajax/save",
      cookie: login,
      referer: editorPath(shape),
      form: "page=OpsNotes&mimetype=text%2Fx-markdown&content=Backups+at+4am",
      json: { name: "OpsNotes", version: "v1" },
    },
  ];
  return pageJourneyHar(ORIGIN, exchanges);
}

/** Converts `har` (written into `dir`) with default options, then runs it on `origin`. */
export async function convertThenRun(dir: string, har: string, origin: string) {
  await Deno.writeTextFile(`${dir}/tracker.har`, har);
  const flowPath = `${dir}/tracker.yaml`;
  const converted = await runCli(["convert", "har", `${dir}/tracker.har`, "-o", flowPath]);
  const flow = converted.code === 0 ? await Deno.readTextFile(flowPath) : "";
  const run = await runCli(["run", flowPath], {
    env: { BASE_URL: origin, LOGIN_PASSWORD: PASSWORD },
  });
  return { converted, flow, run };
}
