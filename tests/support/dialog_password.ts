/**
 * The stand-in and the recording of the tests of a password a dialog chooses
 * for a new account (LDAP Account Manager's new + repeat dialog): an operator
 * signs in, the dialog posts the chosen password twice in some document, a
 * save makes the user, and the journey signs in as that user. Each test says
 * only how the dialog's document is written and read back.
 *
 * @module
 */
import assert from "node:assert/strict";
import { passesTwice } from "./form_pages.ts";

/** The operator's own sign-in password: asked of the user. */
export const OPERATOR = "harbour-master-77";
/** The password the dialog chose in the recording: never in the flow. */
export const CHOSEN = "Tidal-Gauge-4410";
/** The multipart boundary Chromium wrote. */
export const BOUNDARY = "----WebKitFormBoundaryQ1w2E3r4T5y6U7i8";
const HTML = "text/html; charset=utf-8";

/** A directory admin on 127.0.0.1: the dialog's two passwords read by `readPair`. */
export interface DirectoryStandIn {
  origin: string;
  /** Each password a save made an account with, in order. */
  chosen: string[];
  close: () => Promise<void>;
}

/**
 * Starts the stand-in: `/login` (form), `/dialog` (the document `readPair`
 * reads, refused unless both passwords match and have 8 characters), `/save`
 * (form `uid`), every GET a page with a password input.
 *
 * @example
 * ```ts
 * import { directoryStandIn } from "./dialog_password.ts";
 * const app = directoryStandIn(async (req) => Object.values(await req.json()));
 * const res = await fetch(`${app.origin}/dialog`, { method: "POST", body: "{}" });
 * if (res.status !== 403) throw new Error("signed in first");
 * await app.close();
 * ```
 */
export function directoryStandIn(readPair: (req: Request) => Promise<unknown[]>): DirectoryStandIn {
  const chosen: string[] = [];
  const users = new Map<string, string>();
  let pending: string | undefined;
  let sessions = 0;
  const page = (status: number, body: string, headers: Record<string, string> = {}) =>
    new Response(`<html><body>${body}</body></html>`, {
      status,
      headers: { "content-type": HTML, ...headers },
    });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const sid = /sid=([\w-]+)/.exec(req.headers.get("cookie") ?? "")?.[1] ?? "";
    if (req.method === "GET") return page(200, `<input type="password" name="password">`);
    if (url.pathname === "/login") {
      const form = new URLSearchParams(await req.text());
      const [user, password] = [form.get("username") ?? "", form.get("password") ?? ""];
      const known = user === "admin" ? OPERATOR : users.get(user);
      if (known === undefined || known !== password) return page(200, "wrong password");
      const cookie = `sid=${user === "admin" ? "admin" : "user"}-${++sessions}; Path=/`;
      return page(302, "", { location: `${url.origin}/users`, "set-cookie": cookie });
    }
    if (!sid.startsWith("admin-")) return page(403, "sign in first");
    if (url.pathname === "/dialog") {
      const [one, two] = await readPair(req).catch(() => []);
      if (typeof one !== "string" || one !== two || one.length < 8) {
        return Response.json({ ok: false }, { status: 400 });
      }
      pending = one;
      return Response.json({ ok: true });
    }
    const uid = new URLSearchParams(await req.text()).get("uid") ?? "";
    if (!pending || !uid) return page(200, "set a password first");
    users.set(uid, pending);
    chosen.push(pending);
    pending = undefined;
    return page(302, "", { location: `${url.origin}/users` });
  });
  const { port } = server.addr as Deno.NetAddr;
  return { origin: `http://127.0.0.1:${port}`, chosen, close: () => server.shutdown() };
}

/**
 * The journey Chromium records on the stand-in, the dialog's post being
 * `dialog` (its content type and text).
 *
 * @example
 * ```ts
 * import { dialogRecording } from "./dialog_password.ts";
 * const har = JSON.parse(dialogRecording({ mime: "application/json", text: "{}" }));
 * if (har.log.entries.length !== 7) throw new Error();
 * ```
 */
export function dialogRecording(dialog: { mime: string; text: string }): string {
  const origin = "http://127.0.0.1:8000";
  const form = "application/x-www-form-urlencoded";
  const entry = (
    i: number,
    method: string,
    path: string,
    opts: { mime?: string; text?: string; cookie?: string; setCookie?: string; to?: string } = {},
  ) => ({
    startedDateTime: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    time: 5,
    request: {
      method,
      url: `${origin}${path}`,
      headers: [
        ...(opts.mime ? [{ name: "Content-Type", value: opts.mime }] : []),
        ...(opts.cookie ? [{ name: "Cookie", value: opts.cookie }] : []),
      ],
      cookies: opts.cookie ? [{ name: "sid", value: opts.cookie.slice(4) }] : [],
      ...(opts.text ? { postData: { mimeType: opts.mime, text: opts.text } } : {}),
    },
    response: {
      status: opts.to ? 302 : 200,
      headers: [
        { name: "Content-Type", value: path === "/dialog" ? "application/json" : HTML },
        ...(opts.to ? [{ name: "Location", value: `${origin}${opts.to}` }] : []),
        ...(opts.setCookie ? [{ name: "Set-Cookie", value: `${opts.setCookie}; Path=/` }] : []),
      ],
      cookies: opts.setCookie ? [{ name: "sid", value: opts.setCookie.slice(4), path: "/" }] : [],
      content: {
        mimeType: path === "/dialog" ? "application/json" : HTML,
        text: path === "/dialog"
          ? '{"ok":true}'
          : `<html><body><input type="password" name="password"></body></html>`,
      },
      redirectURL: opts.to ? `${origin}${opts.to}` : "",
    },
    _resourceType: path === "/dialog" ? "fetch" : "document",
  });
  const admin = "sid=admin-1";
  const entries = [
    entry(0, "GET", "/login"),
    entry(1, "POST", "/login", {
      mime: form,
      text: `username=admin&password=${OPERATOR}`,
      setCookie: admin,
      to: "/users",
    }),
    entry(2, "GET", "/users", { cookie: admin }),
    entry(3, "POST", "/dialog", { mime: dialog.mime, text: dialog.text, cookie: admin }),
    entry(4, "POST", "/save", { mime: form, text: "uid=tide", cookie: admin, to: "/users" }),
    entry(5, "GET", "/users", { cookie: admin }),
    entry(6, "POST", "/login", {
      mime: form,
      text: `username=tide&password=${CHOSEN}`,
      cookie: admin,
      setCookie: "sid=user-2",
      to: "/users",
    }),
  ];
  return JSON.stringify({ log: { version: "1.2", creator: { name: "stand-in" }, entries } });
}

/**
 * Converts `recording`, runs the flow twice on `app` with the operator's
 * password alone, and asserts the chosen password is the run's own: never in
 * the flow, nothing else asked, a new one each run.
 */
export async function chosenIsTheRunsOwn(recording: string, app: DirectoryStandIn): Promise<void> {
  await passesTwice(recording, app.origin, (flow, summary) => {
    assert.ok(!flow.includes(CHOSEN), flow);
    assert.ok(!flow.includes(OPERATOR), flow);
    const asked = new Set(flow.match(/ENV\.\w+/g));
    assert.deepEqual([...asked].sort(), ["ENV.BASE_URL", "ENV.LOGIN_PASSWORD"], flow);
    assert.match(summary, /LOGIN_PASSWORD/);
  }, { LOGIN_PASSWORD: OPERATOR });
  assert.equal(app.chosen.length, 2);
  assert.notEqual(app.chosen[0], app.chosen[1]);
  assert.ok(!app.chosen.includes(CHOSEN));
}
