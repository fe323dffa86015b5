/**
 * `convert har` on a Rails app's form that reloads itself by an XHR, as
 * Redmine's issue form does (tests/real/redmine_har_test.ts): changing the
 * issue's status posts the form to `/issues/1/edit.js` with the page's token
 * as `X-CSRF-Token`; the server answers JavaScript (a server-generated
 * script that swaps the form) and, as on every answer, a renewed session
 * cookie, which the save sends next. The XHR was dropped as a static asset
 * (a `.js` path answered `text/javascript`), so no step produced the cookie
 * the save sends and the summary asked for `SESSION_COOKIE`; kept, it was an
 * API call and the rendered app's pages were dropped.
 *
 * What the converter does: a request sent with a body (any method but GET
 * and HEAD) is never a static asset (lib/convert/noise.ts), and a recording
 * whose only calls answer script is still a server-rendered app whose pages
 * are the journey (lib/convert/rendered_app.ts). Widened: the token sent as
 * `X-CSRF-Token` is captured from the page (the `<meta name="csrf-token">`
 * Rails' script reads), the logout posts the meta's token, and two runs on
 * one instance pass.
 *
 * chrome-har loses the `Set-Cookie` of some answers (a login's 302, the page
 * a redirect loads): the next request sends a session cookie no answer of
 * the recording set, and it was asked as `SESSION_COOKIE` (four of them for
 * Redmine's chrome-har recording). The server set that cookie's name
 * before, so the browser's jar held the value it set last: that capture is
 * sent (correlate/credentials.ts).
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

/** A Rails-like instance: sessions by cookie, every answer renews it; tokens per session. */
function railsStandIn() {
  const sessions = new Map<string, { token: string; user?: string }>();
  let issued = 0;
  const saves: string[] = [];
  const cookieOf = (req: Request) =>
    /(?:^|;\s*)_app_session=([^;]+)/.exec(req.headers.get("cookie") ?? "")?.[1] ?? "";
  const masked = (token: string) => btoa(`${crypto.randomUUID().slice(0, 8)}:${token}`);
  const valid = (sent: string | null, token: string) => {
    try {
      return sent !== null && atob(sent).split(":")[1] === token;
    } catch {
      return false;
    }
  };
  const page = (token: string, body: string) =>
    `<!DOCTYPE html><html><head><meta name="csrf-param" content="authenticity_token" />` +
    `<meta name="csrf-token" content="${masked(token)}" /></head><body>${body}</body></html>`;
  const form = (token: string, action: string, fields: string) =>
    `<form action="${action}" method="post"><input type="hidden" name="authenticity_token" value="${
      masked(token)
    }" autocomplete="off" />${fields}</form>`;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const old = sessions.get(cookieOf(req));
    const session = old ?? { token: crypto.randomUUID() };
    const cookie = `s${++issued}${crypto.randomUUID().slice(0, 6)}`;
    sessions.set(cookie, session);
    const headers = new Headers({ "set-cookie": `_app_session=${cookie}; path=/; HttpOnly` });
    const answer = (status: number, body: string, type = "text/html; charset=utf-8") => {
      headers.set("content-type", type);
      return new Response(body, { status, headers });
    };
    const redirect = (to: string) => {
      headers.set("location", `${url.origin}${to}`);
      return answer(302, "<html><body>You are being redirected.</body></html>");
    };
    /** A page of the session holding one form to `action` with `fields` and its token. */
    const formPage = (action: string, fields: string) =>
      answer(200, page(session.token, form(session.token, action, fields)));
    const sent = req.method === "POST" ? new URLSearchParams(await req.text()) : undefined;
    if (
      sent &&
      !valid(req.headers.get("x-csrf-token") ?? sent.get("authenticity_token"), session.token)
    ) {
      return answer(422, "<h1>Invalid authenticity token</h1>");
    }
    const route = `${req.method} ${url.pathname}`;
    if (route === "GET /login") {
      return formPage(
        "/login",
        '<input name="username" /><input type="password" name="password" />',
      );
    }
    if (route === "POST /login") {
      if (sent!.get("password") !== PASSWORD) return answer(200, page(session.token, "Invalid"));
      // A login renews the session (Rails' reset_session): the cookies before it stay anonymous.
      sessions.set(cookie, { token: session.token, user: sent!.get("username") ?? "" });
      return redirect("/my/page");
    }
    if (!session.user) return redirect("/login");
    if (route === "GET /my/page") return answer(200, page(session.token, "<h2>My page</h2>"));
    if (route === "GET /issues/1/edit") {
      return formPage(
        "/issues/1",
        '<input type="hidden" name="_method" value="patch" /><select name="issue[status_id]"></select><textarea name="issue[notes]"></textarea>',
      );
    }
    if (route === "POST /issues/1/edit.js") {
      return answer(
        200,
        `replaceIssueFormWith('<form></form>');`,
        "text/javascript; charset=utf-8",
      );
    }
    if (route === "POST /issues/1" && sent!.get("_method") === "patch") {
      saves.push(sent!.get("issue[notes]") ?? "");
      return redirect("/issues/1");
    }
    if (route === "GET /issues/1") return answer(200, page(session.token, "<h2>Issue #1</h2>"));
    if (route === "POST /logout") {
      session.user = undefined;
      return redirect("/");
    }
    return answer(404, "<h1>Not found</h1>");
  });
  const { port } = server.addr as Deno.NetAddr;
  return { origin: `http://127.0.0.1:${port}`, saves, close: () => server.shutdown() };
}

const PASSWORD = "typed-at-the-form-7";
const ORIGIN = "http://127.0.0.1:3000";
const TOKEN = "recorded-token-of-another-instance";
const mask = (n: number) => btoa(`rec${n}mask:${TOKEN}`);
const html = (n: number, body = "") =>
  `<html><head><meta name="csrf-token" content="${mask(n)}" /></head><body>${body}` +
  `<form><input type="hidden" name="authenticity_token" value="${
    mask(n + 50)
  }" autocomplete="off" /></form></body></html>`;

/** One exchange of the recording, the shape Chromium records. */
interface Exchange {
  method: string;
  path: string;
  cookie?: number;
  form?: string;
  csrf?: string;
  status?: number;
  setCookie: number;
  location?: string;
  text?: string;
  xhr?: boolean;
}

/** The journey recorded on another instance: log in, open the edit, reload the form, save, log out. */
function recording(lost: number[] = []): string {
  const x: Exchange[] = [
    { method: "GET", path: "/login", setCookie: 1, text: html(1) },
    {
      method: "POST",
      path: "/login",
      cookie: 1,
      form: `authenticity_token=${
        encodeURIComponent(mask(51))
      }&username=admin&password=${PASSWORD}`,
      status: 302,
      setCookie: 2,
      location: "/my/page",
    },
    { method: "GET", path: "/my/page", cookie: 2, setCookie: 3, text: html(2) },
    { method: "GET", path: "/issues/1/edit", cookie: 3, setCookie: 4, text: html(3) },
    {
      method: "POST",
      path: "/issues/1/edit.js",
      cookie: 4,
      csrf: mask(3),
      form: `authenticity_token=${encodeURIComponent(mask(53))}&issue%5Bstatus_id%5D=2`,
      setCookie: 5,
      text: "replaceIssueFormWith('<form></form>');",
      xhr: true,
    },
    {
      method: "POST",
      path: "/issues/1",
      cookie: 5,
      form: `_method=patch&authenticity_token=${
        encodeURIComponent(mask(53))
      }&issue%5Bstatus_id%5D=2&issue%5Bnotes%5D=Recalibrated`,
      status: 302,
      setCookie: 6,
      location: "/issues/1",
    },
    { method: "GET", path: "/issues/1", cookie: 6, setCookie: 7, text: html(4) },
    {
      method: "POST",
      path: "/logout",
      cookie: 7,
      form: `_method=post&authenticity_token=${encodeURIComponent(mask(4))}`,
      status: 302,
      setCookie: 8,
      location: "/",
    },
  ];
  const cookie = (n: number) => `_app_session=rec${n}cookie${"x".repeat(40)}`;
  const entries = x.map((e, i) => {
    const type = e.xhr ? "text/javascript; charset=utf-8" : "text/html; charset=utf-8";
    return {
      startedDateTime: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
      time: 5,
      request: {
        method: e.method,
        url: `${ORIGIN}${e.path}`,
        headers: [
          ...(e.cookie ? [{ name: "Cookie", value: cookie(e.cookie) }] : []),
          ...(e.csrf
            ? [{ name: "X-CSRF-Token", value: e.csrf }, {
              name: "X-Requested-With",
              value: "XMLHttpRequest",
            }]
            : []),
          ...(e.form ? [{ name: "Content-Type", value: "application/x-www-form-urlencoded" }] : []),
        ],
        cookies: [],
        ...(e.form
          ? { postData: { mimeType: "application/x-www-form-urlencoded", text: e.form } }
          : {}),
      },
      response: {
        status: e.status ?? 200,
        headers: [
          { name: "Content-Type", value: type },
          ...(lost.includes(e.setCookie)
            ? []
            : [{ name: "Set-Cookie", value: `${cookie(e.setCookie)}; path=/; HttpOnly` }]),
          ...(e.location ? [{ name: "Location", value: `${ORIGIN}${e.location}` }] : []),
        ],
        cookies: [],
        content: { mimeType: type, text: e.text ?? "" },
        redirectURL: e.location ? `${ORIGIN}${e.location}` : "",
      },
      _resourceType: e.xhr ? "xhr" : "document",
    };
  });
  return JSON.stringify({ log: { version: "1.2", creator: { name: "stand-in" }, entries } });
}

/**
 * Converts the recording (its Set-Cookie headers of `lost` left out), has `check` read the
 * flow, and runs it twice on one stand-in: the password asked, every step passes both times,
 * the recorded cookies never sent, and each run saved the edit.
 */
async function passesTwice(lost: number[], check: (flow: string) => void): Promise<void> {
  const dir = await Deno.makeTempDir();
  const app = railsStandIn();
  try {
    await Deno.writeTextFile(`${dir}/app.har`, recording(lost));
    const converted = await runCli(["convert", "har", `${dir}/app.har`, "-o", `${dir}/app.yaml`]);
    assert.equal(converted.code, 0, converted.stderr);
    const flow = await Deno.readTextFile(`${dir}/app.yaml`);
    assert.match(converted.stderr, /Set before running: LOGIN_PASSWORD\./, converted.stderr);
    check(flow);
    assert.doesNotMatch(flow, new RegExp(`rec\\dcookie|${btoa("rec")}`), flow);
    for (const n of [1, 2]) {
      const run = await runCli(["run", `${dir}/app.yaml`], {
        env: { BASE_URL: app.origin, LOGIN_PASSWORD: PASSWORD },
      });
      assert.equal(run.code, 0, `run ${n}\n${run.stdout}\n${flow}`);
      assert.match(run.stdout, /8 steps: 8 passed/, run.stdout);
    }
    assert.deepEqual(app.saves, ["Recalibrated", "Recalibrated"]);
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("convert har: a form's XHR answered with script keeps its step, and the cookie it renewed is the save's, twice on one instance", async () => {
  await passesTwice([], (flow) => {
    assert.match(flow, /url: \$\{vars\.base_url\}\/issues\/1\/edit\.js\n/, flow);
  });
});

Deno.test("convert har: a session cookie whose Set-Cookie the recording lost is the one the server set last, not a variable, twice on one instance", async () => {
  await passesTwice([2, 5], () => {});
});
