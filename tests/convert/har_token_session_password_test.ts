/**
 * `convert har` on a journey that signs in, adds an account with a password
 * its page sends once, and signs in as that account, where the session is a
 * token the sign-in answered (sent as `Authorization: Bearer` or in a header
 * of the app's own) or a cookie the sign-in set, as CNCjs 1.11.5's user
 * settings do (`POST /api/users` with `{"name", "password"}` under a Bearer
 * token). The page builds its inputs in a script, so no input was declared
 * `type="password"`, and the summary asked the user for the account's
 * password, which nobody knows before the run chooses it.
 *
 * What the converter does (lib/convert/correlate/chosen_passwords.ts): a
 * password sent once by a request that carries a credential an earlier
 * sign-in (another password) answered, whose own answer hands out none, and
 * that a later request sends beside the name this one sent, is the run's
 * own. The first sign-in's password stays the user's to give.
 */
import assert from "node:assert/strict";
import { chosenPasswords } from "../../lib/convert/correlate/chosen_passwords.ts";
import type { HarRecord } from "../../lib/convert/har_model.ts";
import { passesTwice } from "../support/form_pages.ts";

const ADMIN = "keeper-typed-51";
const CHOSEN = "Quiet-Lathe-73";

type Carrier = "bearer" | "header" | "cookie";
type Body = "json" | "form";

/** The stand-in: sign-in answers a token, adding an account needs one and a name not taken. */
function standIn(carrier: Carrier, body: Body) {
  const users = new Map([["keeper", ADMIN]]);
  const tokens = new Map<string, string>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const text = req.method === "POST" ? await req.text() : "";
    const sent: Record<string, string> = body === "json" && text
      ? JSON.parse(text)
      : Object.fromEntries(new URLSearchParams(text));
    const held = carrier === "bearer"
      ? (req.headers.get("authorization") ?? "").replace(/^Bearer /, "")
      : carrier === "header"
      ? req.headers.get("x-auth-token") ?? ""
      : /sess=(\w+)/.exec(req.headers.get("cookie") ?? "")?.[1] ?? "";
    if (url.pathname === "/api/signin") {
      if (!sent.name || users.get(sent.name) !== sent.password) {
        return Response.json({ msg: "refused" }, { status: 401 });
      }
      const token = crypto.randomUUID().replaceAll("-", "");
      tokens.set(token, sent.name);
      const res = Response.json(carrier === "cookie" ? { ok: true } : { token });
      if (carrier === "cookie") res.headers.set("set-cookie", `sess=${token}; Path=/`);
      return res;
    }
    const who = tokens.get(held);
    if (!who) return Response.json({ msg: "sign in" }, { status: 401 });
    if (url.pathname === "/api/users" && req.method === "POST") {
      if (who !== "keeper" || users.has(sent.name) || (sent.password ?? "").length < 8) {
        return Response.json({ msg: "no" }, { status: 422 });
      }
      users.set(sent.name, sent.password);
      return Response.json({ id: crypto.randomUUID() });
    }
    return Response.json({ name: who });
  });
  const { port } = server.addr as Deno.NetAddr;
  return { origin: `http://127.0.0.1:${port}`, close: () => server.shutdown() };
}

/** One recorded exchange: a request with `headers` and `body`, its JSON answer and cookies set. */
function entry(
  i: number,
  method: string,
  path: string,
  headers: { name: string; value: string }[],
  answer: unknown,
  body?: { mimeType: string; text: string },
  setCookie?: string,
) {
  const origin = "http://127.0.0.1:8300";
  return {
    startedDateTime: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    time: 5,
    request: {
      method,
      url: `${origin}${path}`,
      headers: [...headers, ...(body ? [{ name: "Content-Type", value: body.mimeType }] : [])],
      cookies: [],
      ...(body ? { postData: body } : {}),
    },
    response: {
      status: 200,
      headers: [
        { name: "Content-Type", value: "application/json" },
        ...(setCookie ? [{ name: "Set-Cookie", value: setCookie }] : []),
      ],
      cookies: [],
      content: { mimeType: "application/json", text: JSON.stringify(answer) },
      redirectURL: "",
    },
    _resourceType: "xhr",
  };
}

/** The journey recorded on another instance: sign in, add `night-shift`, sign in as it, read. */
function recording(carrier: Carrier, body: Body): string {
  const send = (fields: Record<string, string | boolean>) =>
    body === "json" ? { mimeType: "application/json", text: JSON.stringify(fields) } : {
      mimeType: "application/x-www-form-urlencoded",
      text: new URLSearchParams(Object.entries(fields).map(([k, v]) => [k, `${v}`])).toString(),
    };
  const tokens = ["a1b2c3d4e5f60718293a4b5c6d7e8f90", "0f9e8d7c6b5a49382716f5e4d3c2b1a0"];
  const carry = (t: string) =>
    carrier === "bearer"
      ? [{ name: "Authorization", value: `Bearer ${t}` }]
      : carrier === "header"
      ? [{ name: "X-Auth-Token", value: t }]
      : [{ name: "Cookie", value: `sess=${t}` }];
  const answer = (t: string) => carrier === "cookie" ? { ok: true } : { token: t };
  const setCookie = (t: string) => carrier === "cookie" ? `sess=${t}; Path=/` : undefined;
  const entries = [
    entry(
      0,
      "POST",
      "/api/signin",
      [],
      answer(tokens[0]),
      send({ name: "keeper", password: ADMIN }),
      setCookie(tokens[0]),
    ),
    entry(1, "GET", "/api/me", carry(tokens[0]), { name: "keeper" }),
    entry(
      2,
      "POST",
      "/api/users",
      carry(tokens[0]),
      { id: "5d0c7a52-3f1e-4b8a-9c2d-7e6f5a4b3c21" },
      send({ enabled: true, name: "night-shift", password: CHOSEN }),
    ),
    entry(
      3,
      "POST",
      "/api/signin",
      [],
      answer(tokens[1]),
      send({ name: "night-shift", password: CHOSEN }),
      setCookie(tokens[1]),
    ),
    entry(4, "GET", "/api/me", carry(tokens[1]), { name: "night-shift" }),
  ];
  return JSON.stringify({ log: { version: "1.2", creator: { name: "stand-in" }, entries } });
}

for (const carrier of ["bearer", "header", "cookie"] as const) {
  for (const body of ["json", "form"] as const) {
    Deno.test(`convert har: an account's password sent once under a ${carrier} session (${body}) is the run's own, twice`, async () => {
      const app = standIn(carrier, body);
      try {
        await passesTwice(recording(carrier, body), app.origin, (flow, summary) => {
          assert.match(summary, /Set before running: LOGIN_PASSWORD\./);
          assert.ok(!flow.includes(CHOSEN), flow);
          assert.ok(!flow.includes(ADMIN), flow);
        }, { LOGIN_PASSWORD: ADMIN });
      } finally {
        await app.close();
      }
    });
  }
}

Deno.test("convert har: a password sent under a token stays the user's when its answer hands out one, an answer held it, or no later sign-in sends it beside the name", () => {
  const first = "a1b2c3d4e5f60718293a4b5c6d7e8f90";
  const next = "0f9e8d7c6b5a49382716f5e4d3c2b1a0";
  const post = (body: object, token: string, answer: object) =>
    ({
      url: new URL("http://a.test/api"),
      bodyMime: "application/json",
      bodyText: JSON.stringify(body),
      headers: token ? [{ name: "Authorization", value: `Bearer ${token}` }] : [],
      cookies: [],
      setCookies: [],
      responseText: JSON.stringify(answer),
    }) as unknown as HarRecord;
  const typed = new Set<string>();
  const signIn = post({ name: "keeper", password: ADMIN }, "", { token: first });
  const add = post({ name: "night-shift", password: CHOSEN }, first, { id: 7 });
  const asIt = post({ name: "night-shift", password: CHOSEN }, "", { token: next });
  const read = post({}, next, {});
  assert.deepEqual([...chosenPasswords([signIn, add, asIt, read], typed)], [CHOSEN]);
  // A second sign-in sent while signed in, whose answer is the token later requests carry.
  const again = post({ name: "night-shift", password: CHOSEN }, first, { token: next });
  assert.deepEqual([...chosenPasswords([signIn, again, read], typed)], []);
  // No later sign-in with the name it sent: nothing says an account was made.
  const other = post({ name: "deckhand", password: CHOSEN }, "", { token: next });
  assert.deepEqual([...chosenPasswords([signIn, add, other, read], typed)], []);
  // A request sent again beside the same word, no sign-in answering it (an edit sent twice).
  const edit = post({ action: "stash", password: CHOSEN }, first, {});
  assert.deepEqual([...chosenPasswords([signIn, edit, edit, read], typed)], []);
  // A token an answer handed out (a CSRF token in a secret-named field) is no one's choice.
  const page = post({}, first, { csrf: CHOSEN });
  assert.deepEqual([...chosenPasswords([signIn, page, add, asIt, read], typed)], []);
  // Not signed in (no credential a sign-in answered): a sign-up, the user's to give.
  assert.deepEqual([...chosenPasswords([add, asIt, read], typed)], []);
});
