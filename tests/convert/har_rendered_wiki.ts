/**
 * A server-rendered wiki as DokuWiki is one (tests/real/dokuwiki_har_test.ts),
 * for the `convert har` tests of its classes: a stand-in on 127.0.0.1 and a
 * recording of one journey on ANOTHER instance of it, built here the shape
 * Chromium records (documents and an XHR, HTML answers only).
 *
 * The journey: open the login form (a session cookie, an empty hidden
 * `sectok`, a password input named `p`), post it (302, the login cookie,
 * whose name is the instance's), open the page's editor (a hidden `sectok`
 * and a hidden `date`: the revision the edit starts from), post the save
 * (302 unless the `date` is the current revision's: a conflict answers 200),
 * edit again and save again, open the revisions (a link to the difference
 * with the older revision), open the difference, log out with a link that
 * carries the `sectok` (302).
 */
import { runCli } from "../support/cli.ts";
import { type PageExchange, pageJourneyHar } from "../support/page_journey.ts";

/** How the instance names its login cookie, from its own address. */
export type CookieName = (host: string) => Promise<string>;

/** The hex SHA-256 of `text`, `length` digits of it. */
export async function hexDigest(text: string, length = 64): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("")
    .slice(0, length);
}

/** DokuWiki's spelling: `DW` and a 32-digit digest of the address. */
export const dokuwikiName: CookieName = async (host) => `DW${await hexDigest(host, 32)}`;

/** The password the recording typed (and the user sets). */
export const PASSWORD = "typed-at-the-form-7";

const html = (body: string) => `<!DOCTYPE html><html><body>${body}</body></html>`;

/** The login form: its token empty before a login, its password input named `p`. */
const loginPage = () =>
  html(
    '<form id="dw__login" method="post" action="/wiki?id=start"><input type="hidden" name="sectok" value="" />' +
      '<input type="text" name="u" /><input type="password" name="p" /></form>',
  );

/** The editor: the session's token and the revision the edit starts from. */
const editPage = (sectok: string, date: string) =>
  html(
    `<form id="dw__editform" method="post"><input type="hidden" name="sectok" value="${sectok}" />` +
      `<input type="hidden" name="date" value="${date}" /><textarea name="wikitext"></textarea></form>` +
      `<a href="/wiki?id=tides&amp;do=logout&amp;sectok=${sectok}">Log out</a>`,
  );

/** The revisions: a link to the difference with each older one, newest first, and the logout. */
const revisionsPage = (revisions: string[], sectok: string) =>
  html(
    revisions.slice(0, -1).reverse()
      .map((r) => `<a href="/wiki?id=tides&amp;rev=${r}&amp;do=diff">${r}</a>`).join("") +
      `<a href="/wiki?id=tides&amp;do=logout&amp;sectok=${sectok}">Log out</a>`,
  );

/** What one instance holds: its revisions and sessions. */
interface Wiki {
  revisions: string[];
  sessions: Set<string>;
  logins: Set<string>;
  saves: number[];
}

/** The fields a request posts, urlencoded or multipart. */
async function formOf(req: Request): Promise<URLSearchParams> {
  if (req.method !== "POST") return new URLSearchParams();
  if (!/multipart/.test(req.headers.get("content-type") ?? "")) {
    return new URLSearchParams(await req.text());
  }
  const fields = new URLSearchParams();
  for (const [k, v] of await req.formData()) if (typeof v === "string") fields.append(k, v);
  return fields;
}

/** A fresh instance's answer to one request. */
async function answer(wiki: Wiki, req: Request, cookieName: CookieName): Promise<Response> {
  const url = new URL(req.url);
  const cookies = new Map(
    (req.headers.get("cookie") ?? "").split(/;\s*/).filter(Boolean).map((c) => {
      const eq = c.indexOf("=");
      return [c.slice(0, eq), c.slice(eq + 1)] as [string, string];
    }),
  );
  const name = await cookieName(url.host);
  const sectok = cookies.get(name) ? await hexDigest(`tok${cookies.get(name)}`, 32) : "";
  const page = (body: string, headers: Record<string, string> = {}) =>
    new Response(body, { headers: { "content-type": "text/html; charset=utf-8", ...headers } });
  const redirect = (to: string, cookie?: string) =>
    new Response(null, {
      status: 302,
      headers: { location: to, ...(cookie ? { "set-cookie": cookie } : {}) },
    });
  const action = url.searchParams.get("do") ?? "";
  if (req.method === "GET" && action === "login") {
    const session = crypto.randomUUID().replaceAll("-", "");
    wiki.sessions.add(session);
    return page(loginPage(), { "set-cookie": `Wiki=${session}; path=/; HttpOnly` });
  }
  const form = await formOf(req);
  if (req.method === "POST" && form.get("do") === "login") {
    if (!wiki.sessions.has(cookies.get("Wiki") ?? "") || form.get("p") !== PASSWORD) {
      return page(loginPage());
    }
    const auth = crypto.randomUUID();
    wiki.logins.add(auth);
    return redirect("/wiki?id=start", `${name}=${auth}; path=/; HttpOnly`);
  }
  if (!wiki.logins.has(cookies.get(name) ?? "")) return page(loginPage(), {}); // not logged in
  if (action === "logout") {
    return url.searchParams.get("sectok") === sectok
      ? redirect("/wiki?id=tides&do=login")
      : new Response("bad token", { status: 403 });
  }
  if (req.method === "POST") {
    const current = wiki.revisions.at(-1) ?? "";
    if (form.get("sectok") !== sectok || form.get("date") !== current) {
      return page(html("<p>conflict</p>"));
    }
    // Each instance's clock: revisions a second apart from its own start.
    wiki.revisions.push(String(wiki.saves[0] + wiki.revisions.length));
    return redirect("/wiki?id=tides");
  }
  if (action === "edit") return page(editPage(sectok, wiki.revisions.at(-1) ?? ""));
  if (action === "revisions") return page(revisionsPage(wiki.revisions, sectok));
  if (action === "diff") {
    return wiki.revisions.includes(url.searchParams.get("rev") ?? "")
      ? page(html("<table class=diff></table>"))
      : new Response("no such revision", { status: 404 });
  }
  return page(html("<h1>tides</h1>"));
}

/** A stand-in instance whose login cookie `cookieName` names, its clock starting at `clock`. */
export function wikiStandIn(cookieName: CookieName = dokuwikiName, clock = 1_795_000_000) {
  const wiki: Wiki = { revisions: [], sessions: new Set(), logins: new Set(), saves: [clock] };
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (req) => answer(wiki, req, cookieName),
  );
  return {
    origin: `http://127.0.0.1:${server.addr.port}`,
    wiki,
    close: () => server.shutdown(),
  };
}

const BOUNDARY = "----WebKitFormBoundaryq3uGkVw1XnTz7Ab2";

/** A save is sent multipart when asked (a form of `enctype="multipart/form-data"`); the login never. */
const asMultipart = (form: string, multipart: boolean) => multipart && form.includes("wikitext=");

/** The content type a recorded form body was sent with. */
const bodyType = (form: string, multipart: boolean) =>
  asMultipart(form, multipart)
    ? `multipart/form-data; boundary=${BOUNDARY}`
    : "application/x-www-form-urlencoded";

/** The recorded body of `form` (urlencoded), as `bodyType` says. */
function body(form: string, multipart: boolean): string {
  if (!asMultipart(form, multipart)) return form;
  const parts = [...new URLSearchParams(form)].map(([k, v]) =>
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`
  );
  return `${parts.join("")}--${BOUNDARY}--\r\n`;
}

/**
 * The journey as an instance at 127.0.0.1:8181 answered it (clock 1700000000), its saves
 * multipart when `multipart`.
 */
export async function wikiRecording(
  cookieName: CookieName = dokuwikiName,
  multipart = false,
): Promise<string> {
  const name = await cookieName("127.0.0.1:8181");
  const session = "Wiki=6r42icgdg014pj5nst3rtl9e23";
  const auth = `${name}=0b5e1c2a-8d7f-4e3a-9c1b-2f6d8e4a7c90`;
  const both = `${session}; ${auth}`;
  const sectok = await hexDigest("tok0b5e1c2a-8d7f-4e3a-9c1b-2f6d8e4a7c90", 32);
  const save = (date: string, text: string) =>
    `sectok=${sectok}&id=tides&date=${date}&wikitext=${encodeURIComponent(text)}&do%5Bsave%5D=1`;
  const exchanges: PageExchange[] = [
    {
      method: "GET",
      path: "/wiki?id=start&do=login",
      html: loginPage(),
      setCookie: `${session}; path=/`,
    },
    {
      method: "POST",
      path: "/wiki?id=start",
      cookie: session,
      form: `sectok=&id=start&do=login&u=editor&p=${PASSWORD}`,
      status: 302,
      setCookie: `${auth}; path=/; HttpOnly`,
      location: "/wiki?id=start",
    },
    { method: "GET", path: "/wiki?id=tides&do=edit", cookie: both, html: editPage(sectok, "") },
    {
      method: "POST",
      path: "/wiki?id=tides&do=edit",
      cookie: both,
      form: save("", "High water"),
      status: 302,
      location: "/wiki?id=tides",
    },
    {
      method: "GET",
      path: "/wiki?id=tides&do=edit",
      cookie: both,
      html: editPage(sectok, "1700000000"),
    },
    {
      method: "POST",
      path: "/wiki?id=tides&do=edit",
      cookie: both,
      form: save("1700000000", "Low water"),
      status: 302,
      location: "/wiki?id=tides",
    },
    {
      method: "GET",
      path: "/wiki?id=tides&do=revisions",
      cookie: both,
      html: revisionsPage(["1700000000", "1700000001"], sectok),
    },
    {
      method: "GET",
      path: "/wiki?id=tides&rev=1700000000&do=diff",
      cookie: both,
      html: html("<table class=diff></table>"),
    },
    {
      method: "GET",
      path: `/wiki?id=tides&do=logout&sectok=${sectok}`,
      cookie: both,
      status: 302,
      location: "/wiki?id=tides&do=login",
    },
  ];
  return pageJourneyHar(
    "http://127.0.0.1:8181",
    exchanges,
    (form) => ({ mimeType: bodyType(form, multipart), text: body(form, multipart) }),
  );
}

/** Converts `har` (written into `dir`) with default options: the CLI's run and the flow. */
export async function convertWiki(dir: string, har: string) {
  await Deno.writeTextFile(`${dir}/wiki.har`, har);
  const flowPath = `${dir}/wiki.yaml`;
  const converted = await runCli(["convert", "har", `${dir}/wiki.har`, "-o", flowPath]);
  const flow = converted.code === 0 ? await Deno.readTextFile(flowPath) : "";
  return { converted, flow, flowPath };
}

/** Runs the flow at `flowPath` against `origin` with the password the summary asks for. */
export async function runWiki(flowPath: string, origin: string, password = PASSWORD) {
  return await runCli(["run", flowPath], {
    env: { BASE_URL: origin, LOGIN_PASSWORD: password },
  });
}
