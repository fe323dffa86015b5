/**
 * A notes app of a JSON API and a cookie session, for the `convert har` tests of values judged
 * by their key's name: a stand-in on 127.0.0.1 and a recording of one journey on ANOTHER instance,
 * built here the shape Chromium records (XHRs).
 *
 * The journey: log in (`POST /api/login`, the session cookie `sid`, random and HttpOnly), then
 * add a note (`POST /api/notes`) with the cookies the browser held: the session and the ones the
 * page's own script wrote (`extraCookies`, which no answer set), and a random UUID the page made
 * for the note under `tokenKey`, which the app takes once (a replayed one is refused 409).
 */
import { runCli } from "../support/cli.ts";

/** The password the recording typed (and the user sets). */
export const PASSWORD = "typed-at-the-form-4";

/** A fresh instance: sessions, notes, and the page-made tokens it has seen. */
export function notesStandIn(tokenKey: string) {
  const sessions = new Set<string>();
  const seen = new Set<string>();
  const notes: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const body = await req.json().catch(() => ({}));
    if (url.pathname === "/api/login") {
      if (body.password !== PASSWORD) return Response.json({ error: "bad login" }, { status: 401 });
      const sid = crypto.randomUUID().replaceAll("-", "");
      sessions.add(sid);
      return Response.json({ ok: true }, {
        headers: { "set-cookie": `sid=${sid}; Path=/; HttpOnly` },
      });
    }
    const sid = /(?:^|;\s*)sid=([^;]*)/.exec(req.headers.get("cookie") ?? "")?.[1] ?? "";
    if (!sessions.has(sid)) return Response.json({ error: "no session" }, { status: 401 });
    const token = String(body[tokenKey] ?? "");
    if (!/^[0-9a-f-]{36}$/.test(token) || seen.has(token)) {
      return Response.json({ error: "token used" }, { status: 409 });
    }
    seen.add(token);
    notes.push(String(body.title));
    return Response.json({ id: `n${notes.length}`, title: body.title }, { status: 201 });
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, notes, close: () => server.shutdown() };
}

/** The journey as an instance at 127.0.0.1:8080 answered it. */
export function notesRecording(tokenKey: string, extraCookies: string): string {
  const sid = "9f2c4e6a8b0d1f3e5a7c9e1b3d5f7a9c";
  const entry = (path: string, sent: unknown, answer: unknown, status: number, more = {}) => ({
    startedDateTime: "2026-01-01T00:00:00.000Z",
    time: 3,
    request: {
      method: "POST",
      url: `http://127.0.0.1:8080${path}`,
      headers: [
        { name: "Content-Type", value: "application/json" },
        ...(more as { req?: [] }).req ?? [],
      ],
      cookies: [],
      postData: { mimeType: "application/json", text: JSON.stringify(sent) },
    },
    response: {
      status,
      headers: [
        { name: "Content-Type", value: "application/json" },
        ...(more as { res?: [] }).res ?? [],
      ],
      cookies: [],
      content: { mimeType: "application/json", text: JSON.stringify(answer) },
      redirectURL: "",
    },
    _resourceType: "xhr",
  });
  const cookie = [`sid=${sid}`, extraCookies].filter((c) => c !== "").join("; ");
  const entries = [
    entry("/api/login", { user: "ann", password: PASSWORD }, { ok: true }, 200, {
      res: [{ name: "Set-Cookie", value: `sid=${sid}; Path=/; HttpOnly` }],
    }),
    entry(
      "/api/notes",
      { title: "Tide tables", [tokenKey]: "6f1c2b7e-8d4a-4e3f-9a1b-c5d6e7f80912" },
      { id: "n1", title: "Tide tables" },
      201,
      { req: [{ name: "Cookie", value: cookie }] },
    ),
  ];
  return JSON.stringify({ log: { version: "1.2", creator: { name: "stand-in" }, entries } });
}

/** Converts `har` (written into `dir`) with default options, then runs it on `origin` twice. */
export async function convertThenRunTwice(dir: string, har: string, origin: string) {
  await Deno.writeTextFile(`${dir}/notes.har`, har);
  const flowPath = `${dir}/notes.yaml`;
  const converted = await runCli(["convert", "har", `${dir}/notes.har`, "-o", flowPath]);
  const flow = converted.code === 0 ? await Deno.readTextFile(flowPath) : "";
  const env = { BASE_URL: origin, LOGIN_PASSWORD: PASSWORD };
  const first = await runCli(["run", flowPath], { env });
  const second = await runCli(["run", flowPath], { env });
  return { converted, flow, first, second };
}
