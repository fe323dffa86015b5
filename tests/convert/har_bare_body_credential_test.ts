/**
 * `convert har` on a sign-in whose whole body is the credential the user
 * typed, with no field name around it. Federated Wiki's owner "reclaim"
 * (measured by hand, docs/real-servers-har.md) posts the code typed into its
 * password dialog as the `text/plain` body of `POST /auth/reclaim/`; the
 * converter read the body as a urlencoded name with no value, found no
 * credential, took the login's name from the step and wrote the typed code
 * into the flow. Its summary asked for nothing, and a fresh wiki (its own
 * code) refused the sign-in and every write after it: 4 of 25 steps.
 *
 * What the converter does (correlate/bare_credential.ts): a login (by its
 * path or by what its answer hands out) whose body is one bare value, as
 * text or as a JSON string, that no earlier answer produced and the run does
 * not choose, sends a credential: the value is asked of the user
 * (`LOGIN_PASSWORD`), never written. A bare value an earlier answer produced
 * (a refresh token posted back whole) stays its capture, and a bare body
 * sent anywhere else (a note's text) is sent as recorded.
 *
 * Each spelling of the body runs twice on one server the test starts, whose
 * code differs from the recorded one; a curl command of the same sign-in
 * (no answer pasted: the path alone says login) asks for it too.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { convertHar } from "./har_convert.ts";

const RECORDED = "a1b2c3d4e5f60718a1b2c3d4e5f60718";
const FRESH = "9f8e7d6c5b4a39281706f5e4d3c2b1a0";

/** One way a page's script posts the typed code. */
interface Spelling {
  name: string;
  path: string;
  mime: string | undefined;
  body: (code: string) => string;
  /** The code the server reads back from a posted body. */
  read: (text: string) => string;
}

const SPELLINGS: Spelling[] = [
  {
    name: "text/plain, as Federated Wiki's reclaim",
    path: "/auth/reclaim/",
    mime: "text/plain;charset=UTF-8",
    body: (code) => code,
    read: (text) => text,
  },
  {
    name: "no type at all",
    path: "/login",
    mime: undefined,
    body: (code) => code,
    read: (text) => text,
  },
  {
    name: "a JSON string",
    path: "/api/session",
    mime: "application/json",
    body: (code) => JSON.stringify(code),
    read: (text) => {
      try {
        return String(JSON.parse(text));
      } catch {
        return "";
      }
    },
  },
];

/** A HAR entry of `method url`, sending `body` under `mime`, answered `status` `text`. */
function entry(
  method: string,
  url: string,
  status: number,
  text: string,
  extra: { body?: string; mime?: string; cookie?: string; setCookie?: string } = {},
) {
  const headers = [
    ...(extra.mime ? [{ name: "Content-Type", value: extra.mime }] : []),
    ...(extra.cookie ? [{ name: "Cookie", value: extra.cookie }] : []),
  ];
  return {
    startedDateTime: "2026-11-30T00:30:00.000Z",
    request: {
      method,
      url,
      headers,
      ...(extra.body !== undefined
        ? { postData: { mimeType: extra.mime ?? "", text: extra.body } }
        : {}),
    },
    response: {
      status,
      headers: extra.setCookie ? [{ name: "Set-Cookie", value: `${extra.setCookie}; Path=/` }] : [],
      content: { mimeType: text.startsWith("{") ? "application/json" : "text/plain", text },
    },
    _resourceType: "fetch",
  };
}

/** The journey: sign in with the typed code, write a note and read it, sign out. */
function recording(s: Spelling, origin: string): string {
  const cookie = "wikiSession=c3ss10nRecorded0123456789abcdef";
  return JSON.stringify({
    log: {
      entries: [
        entry("POST", `${origin}${s.path}`, 200, "", {
          body: s.body(RECORDED),
          mime: s.mime,
          setCookie: cookie,
        }),
        entry("PUT", `${origin}/page/tides/action`, 200, "ok", {
          body: "High water at noon.",
          mime: "text/plain;charset=UTF-8",
          cookie,
        }),
        entry("GET", `${origin}/page/tides`, 200, '{"text":"High water at noon."}', { cookie }),
        entry("GET", `${origin}/logout`, 200, "OK", { cookie }),
      ],
    },
  });
}

/** The wiki: a sign-in by its own code, then writes for the session it began only. */
function wiki(s: Spelling) {
  const sessions = new Set<string>();
  const notes: string[] = [];
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const session = /wikiSession=([^;]+)/.exec(req.headers.get("cookie") ?? "")?.[1] ?? "";
    if (req.method === "POST" && url.pathname === s.path) {
      if (s.read(await req.text()) !== FRESH) return new Response("", { status: 401 });
      const id = crypto.randomUUID().replaceAll("-", "");
      sessions.add(id);
      return new Response("", { headers: { "set-cookie": `wikiSession=${id}; Path=/` } });
    }
    if (!sessions.has(session)) return new Response("not owner", { status: 403 });
    if (req.method === "PUT") {
      notes.push(await req.text());
      return new Response("ok");
    }
    if (url.pathname === "/logout") {
      sessions.delete(session);
      return new Response("OK");
    }
    return Response.json({ text: notes.at(-1) ?? "" });
  });
}

for (const s of SPELLINGS) {
  Deno.test(`convert har: a sign-in's bare body is the typed credential (${s.name})`, async () => {
    const server = wiki(s);
    const origin = `http://127.0.0.1:${server.addr.port}`;
    const dir = await Deno.makeTempDir();
    try {
      const { converted, flow } = await convertHar(dir, recording(s, origin));
      assert.match(converted.stderr, /Set before running: LOGIN_PASSWORD\./, converted.stderr);
      assert.ok(!flow.includes(RECORDED), flow);
      // The note's text, sent to a path that signs no one in, is sent as recorded.
      assert.match(flow, /High water at noon\./, flow);
      const env = { BASE_URL: origin, LOGIN_PASSWORD: FRESH };
      for (const run of [1, 2]) {
        const out = await runCli(["run", `${dir}/flow.yaml`], { env });
        assert.equal(out.code, 0, `run ${run}\n${out.stdout}\n${flow}`);
      }
    } finally {
      await server.shutdown();
      await Deno.remove(dir, { recursive: true });
    }
  });
}

Deno.test("convert har: a bare body an earlier answer produced stays its capture", async () => {
  const origin = "http://wiki.test";
  const refresh = "rT0k3nHandedOut0123456789abcdef";
  const har = JSON.stringify({
    log: {
      entries: [
        entry("GET", `${origin}/api/state`, 200, `{"refresh_token":"${refresh}"}`),
        entry("POST", `${origin}/auth/refresh`, 200, '{"ok":true}', {
          body: refresh,
          mime: "text/plain",
        }),
      ],
    },
  });
  const dir = await Deno.makeTempDir();
  try {
    const { converted, flow } = await convertHar(dir, har);
    assert.doesNotMatch(converted.stderr, /LOGIN_PASSWORD/, converted.stderr);
    assert.match(flow, /body: \$\{steps\.[a-z_]+\.capture\.[a-z_]+\}/, flow);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert curl: a sign-in's bare body is the typed credential too", async () => {
  const s = SPELLINGS[0];
  const server = wiki(s);
  const origin = `http://127.0.0.1:${server.addr.port}`;
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(
      `${dir}/docs.sh`,
      `curl -X POST ${origin}${s.path} -H 'Content-Type: text/plain' -d '${RECORDED}'\n`,
    );
    const out = await runCli(["convert", "curl", `${dir}/docs.sh`, "-o", `${dir}/flow.yaml`]);
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stderr, /Set before running: LOGIN_PASSWORD\./, out.stderr);
    const flow = await Deno.readTextFile(`${dir}/flow.yaml`);
    assert.ok(!flow.includes(RECORDED), flow);
    const run = await runCli(["run", `${dir}/flow.yaml`], {
      env: { BASE_URL: origin, LOGIN_PASSWORD: FRESH },
    });
    assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
