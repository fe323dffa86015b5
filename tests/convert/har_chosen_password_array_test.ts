/**
 * `convert har` on a password a dialog chooses for a new account and posts
 * inside a JSON array: a bulk form's `{"users": [{"uid": …, "password1": …,
 * "password2": …}]}`, a top-level list of such objects, or a JSON Patch
 * (RFC 6902) document whose operations name the field by their `path`
 * (`[{"op": "replace", "path": "/password1", "value": …}, …]`), sent as a
 * JSON body or held as text in a multipart part or a urlencoded field. The
 * fields a request sends were read from JSON objects only, so a list's items
 * sent nothing: the value typed twice was asked of the user
 * (`EDIT_2_PASSWORD`) instead of being made up by the run, and a second run
 * on the same instance made the same account again with it.
 *
 * What the converter does (correlate/body_fields.ts): a list's items are read
 * as an object's members are, and a JSON Patch operation sends its `value`
 * under the last segment of its `path`, so the value typed twice there is the
 * run's own (`${RANDOM.PASSWORD}`), sent in the dialog and in the later
 * sign-in as the new user; the operator's sign-in password stays asked. Each
 * encoding runs twice on one stand-in.
 */
import assert from "node:assert/strict";
import { passesTwice } from "../support/form_pages.ts";

const OPERATOR = "harbour-master-77";
const CHOSEN = "Tidal-Gauge-4410";
const HTML = "text/html; charset=utf-8";
const BOUNDARY = "----WebKitFormBoundaryQ1w2E3r4T5y6U7i8";

/** A JSON document holding the dialog's two fields, and how to read them back. */
interface Shape {
  name: string;
  json: (one: string, two: string) => unknown;
  pair: (doc: unknown) => unknown[];
}

// deno-lint-ignore no-explicit-any
type Any = any;

const SHAPES: Shape[] = [
  {
    name: "an object's list of items",
    json: (one, two) => ({
      users: [{ uid: "tide", password1: one, password2: two }],
      random: false,
    }),
    pair: (doc: Any) => [doc?.users?.[0]?.password1, doc?.users?.[0]?.password2],
  },
  {
    name: "a top-level list",
    json: (one, two) => [{ uid: "tide", password1: one, password2: two }],
    pair: (doc: Any) => [doc?.[0]?.password1, doc?.[0]?.password2],
  },
  {
    name: "a JSON Patch",
    json: (one, two) => [
      { op: "replace", path: "/password1", value: one },
      { op: "replace", path: "/password2", value: two },
      { op: "replace", path: "/random", value: false },
    ],
    pair: (doc: Any) =>
      ["/password1", "/password2"].map((p) =>
        (Array.isArray(doc) ? doc : []).find((op: Any) => op?.path === p)?.value
      ),
  },
];

/** How the page's script posts the document. */
interface Encoding {
  name: string;
  mime: string;
  body: (json: string) => string;
  read: (req: Request) => Promise<unknown>;
}

const ENCODINGS: Encoding[] = [
  {
    name: "as the JSON body",
    mime: "application/json",
    body: (json) => json,
    read: (req) => req.json(),
  },
  {
    name: "in a multipart part",
    mime: `multipart/form-data; boundary=${BOUNDARY}`,
    body: (json) =>
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="jsonInput"\r\n\r\n${json}\r\n` +
      `--${BOUNDARY}--\r\n`,
    read: async (req) => JSON.parse(String((await req.formData()).get("jsonInput") ?? "{}")),
  },
  {
    name: "in a urlencoded field",
    mime: "application/x-www-form-urlencoded",
    body: (json) => `jsonInput=${encodeURIComponent(json)}&action=change`,
    read: async (req) => JSON.parse(new URLSearchParams(await req.text()).get("jsonInput") ?? "{}"),
  },
];

/** A directory admin: the operator signs in, a dialog picks the new user's password, a save makes the user. */
function directoryStandIn(shape: Shape, encoding: Encoding) {
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
      const [one, two] = shape.pair(await encoding.read(req).catch(() => undefined));
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

/** The journey Chromium records: sign in, pick the password in the dialog, save, sign in as the user. */
function recording(shape: Shape, encoding: Encoding): string {
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
  const json = JSON.stringify(shape.json(CHOSEN, CHOSEN));
  const entries = [
    entry(0, "GET", "/login"),
    entry(1, "POST", "/login", {
      mime: form,
      text: `username=admin&password=${OPERATOR}`,
      setCookie: admin,
      to: "/users",
    }),
    entry(2, "GET", "/users", { cookie: admin }),
    entry(3, "POST", "/dialog", { mime: encoding.mime, text: encoding.body(json), cookie: admin }),
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

for (const shape of SHAPES) {
  for (const encoding of ENCODINGS) {
    Deno.test(`convert har: a password a dialog chooses inside ${shape.name}, ${encoding.name}, is the run's own`, async () => {
      const app = directoryStandIn(shape, encoding);
      try {
        await passesTwice(recording(shape, encoding), app.origin, (flow, summary) => {
          assert.ok(!flow.includes(CHOSEN), flow);
          assert.ok(!flow.includes(OPERATOR), flow);
          const asked = new Set(flow.match(/ENV\.\w+/g));
          assert.deepEqual([...asked].sort(), ["ENV.BASE_URL", "ENV.LOGIN_PASSWORD"], flow);
          assert.match(summary, /LOGIN_PASSWORD/);
        }, { LOGIN_PASSWORD: OPERATOR });
        assert.equal(app.chosen.length, 2);
        assert.notEqual(app.chosen[0], app.chosen[1]);
        assert.ok(!app.chosen.includes(CHOSEN));
      } finally {
        await app.close();
      }
    });
  }
}
