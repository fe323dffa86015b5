/**
 * `convert har` on Playwright's `recordHar` with `content: "attach"`: every
 * request and response body is a file beside the HAR (named by `_file`, the
 * text left empty or out). Seen on Actual Budget's sync server
 * (docs/real-servers-har.md): the conversion read the HAR alone, so the
 * first-run set-up and the sign-in posted no password (400) and the token the
 * sign-in answered was never seen, asked for as `ACTUAL_TOKEN` instead; 60 of
 * 134 steps passed. The files a recording names are now read from its folder
 * and put where the embedded form has the text; one that is not there is
 * named in a note.
 *
 * The stand-in runs on 127.0.0.1: a sign-in answers a fresh token, which
 * the notes call must send.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { harOf } from "../support/har_records.ts";

const RECORDED = "http://127.0.0.1:5006";
const PASSWORD = "budget-owner-7";

function standIn() {
  const tokens = new Set<string>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const { pathname } = new URL(req.url);
    if (pathname === "/account/login") {
      const sent = await req.json().catch(() => ({}));
      if (sent.password !== PASSWORD) return Response.json({ reason: "invalid" }, { status: 400 });
      const token = crypto.randomUUID();
      tokens.add(token);
      return Response.json({ status: "ok", data: { token } });
    }
    if (!tokens.has(req.headers.get("x-actual-token") ?? "")) {
      return Response.json({ reason: "unauthorized" }, { status: 401 });
    }
    // A binary answer: bytes that are no UTF-8.
    return new Response(new Uint8Array([0x0a, 0xff, 0xfe, 0x01]), {
      headers: { "content-type": "application/actual-sync" },
    });
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

/** A body as HAR writes it, embedded or attached. */
interface Body {
  mimeType: string;
  text?: string;
  encoding?: string;
  size?: number;
  _file?: string;
}

/** The part of a HAR these tests move bodies in. */
interface Har {
  log: { entries: { request: { postData?: Body }; response: { content: Body } }[] };
}

/** A sign-in and a call with its token, as the embedded form records them. */
function embedded(): Har {
  const har = JSON.parse(harOf([
    {
      method: "POST",
      url: `${RECORDED}/account/login`,
      body: JSON.stringify({ loginMethod: "password", password: PASSWORD }),
      json: { status: "ok", data: { token: "9c1f3a7e-52d4-4c1b-a0a8-3f2e8d1b6c40" } },
    },
    {
      method: "POST",
      url: `${RECORDED}/sync/list`,
      headers: [["X-Actual-Token", "9c1f3a7e-52d4-4c1b-a0a8-3f2e8d1b6c40"]],
      body: "{}",
    },
  ]));
  const binary = har.log.entries[1].response.content;
  binary.mimeType = "application/actual-sync";
  binary.encoding = "base64";
  binary.text = btoa("\x0a\xff\xfe\x01");
  return har;
}

/**
 * The attached form of `har`: each body moved into a file of `dir` named as
 * Playwright names it (its SHA-1 and an extension), the text left empty.
 */
async function attach(har: Har, dir: string, keep = true): Promise<string[]> {
  const names: string[] = [];
  for (const entry of har.log.entries) {
    for (const body of [entry.request.postData, entry.response.content]) {
      if (!body) continue;
      const text = body.text ?? "";
      const bytes = body.encoding === "base64"
        ? Uint8Array.from(atob(text), (ch) => ch.charCodeAt(0))
        : new TextEncoder().encode(text);
      const sha1 = new Uint8Array(await crypto.subtle.digest("SHA-1", bytes));
      const name = [...sha1].map((b) => b.toString(16).padStart(2, "0")).join("") +
        (body.mimeType.includes("json") ? ".json" : ".dat");
      if (keep) await Deno.writeFile(`${dir}/${name}`, bytes);
      names.push(name);
      body.size = bytes.length;
      body._file = name;
      if (body === entry.request.postData) body.text = "";
      else delete body.text;
      delete body.encoding;
    }
  }
  await Deno.writeTextFile(`${dir}/journey.har`, JSON.stringify(har));
  return names;
}

async function convert(dir: string) {
  // Converted from another folder: the files are found beside the recording, not here.
  const converted = await runCli(["convert", "har", `${dir}/journey.har`, "-o", `${dir}/f.yaml`]);
  assert.equal(converted.code, 0, converted.stderr);
  return { converted, flow: await Deno.readTextFile(`${dir}/f.yaml`) };
}

Deno.test("convert har: bodies attached beside a Playwright recording are read, and the flow passes on a fresh instance", async () => {
  const dir = await Deno.makeTempDir();
  const fresh = standIn();
  try {
    await attach(embedded(), dir);
    const { converted, flow } = await convert(dir);
    assert.match(converted.stderr, /Set before running: LOGIN_PASSWORD\./, converted.stderr);
    assert.doesNotMatch(converted.stderr, /ACTUAL_TOKEN|not in the HAR|not read/, converted.stderr);
    assert.match(flow, /x-actual-token: \$\{steps\.login\.capture\.token\}/, flow);
    assert.match(converted.stderr, /sync\/list is binary \(base64\)/, converted.stderr);
    assert.ok(!flow.includes(PASSWORD), flow);
    const run = await runCli(["run", `${dir}/f.yaml`], {
      env: { BASE_URL: fresh.origin, LOGIN_PASSWORD: PASSWORD },
    });
    assert.equal(run.code, 0, run.stdout + flow);
  } finally {
    await fresh.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert har: an attached body whose file is not beside the recording is named in a note", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const names = await attach(embedded(), dir, false);
    const { converted } = await convert(dir);
    // One note names every body file that is not there, the request's and the answer's.
    const note = converted.stderr.split("\n").find((l) =>
      l.includes("in files that are not beside it")
    );
    assert.ok(note, converted.stderr);
    assert.ok(note.includes(`"${names[0]}"`) && note.includes(`"${names[1]}"`), note);
    assert.match(note, /keeps \d+ of its bodies/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert har: an attached name that is a path is never read", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${dir}/rec`);
    const har = embedded();
    await attach(har, `${dir}/rec`);
    // The login's answer names a file one folder up, where one with that name exists.
    await Deno.writeTextFile(`${dir}/outside.json`, '{"status":"ok","data":{"token":"x"}}');
    har.log.entries[0].response.content._file = "../outside.json";
    await Deno.writeTextFile(`${dir}/rec/journey.har`, JSON.stringify(har));
    const { converted } = await convert(`${dir}/rec`);
    // The outside file's token is never read: the login's token stays a value to set.
    assert.match(converted.stderr, /Set before running: .*ACTUAL_TOKEN/);
    assert.match(
      converted.stderr,
      /in files that are not beside it \("\.\.\/outside\.json"\)/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
