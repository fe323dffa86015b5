/**
 * `--report-har FILE`: every request that went on the wire, as HAR 1.2, from
 * a real run of the CLI against a server on 127.0.0.1: secrets masked in
 * every encoding, each redirect hop, poll and re-run its own entry, bodies
 * within the detail budget, and a file that is whole after failures and
 * signals.
 */
import assert from "node:assert/strict";
import { runCli, spawnCli } from "../support/cli.ts";
import { parseHar } from "../../lib/convert/har_model.ts";
import { harProblems } from "./har_report_shape.ts";

type Entry = {
  pageref: string;
  time: number;
  _step: string;
  _attempt: number;
  _error?: string;
  request: {
    method: string;
    url: string;
    bodySize: number;
    headers: { name: string; value: string }[];
    queryString: { name: string; value: string }[];
    postData?: { mimeType: string; text?: string; params?: { name: string; value: string }[] };
  };
  response: {
    status: number;
    redirectURL: string;
    content: { size: number; text?: string; comment?: string };
  };
};

/** The test's server: echoes what it got, redirects, polls, fails once, sends a large body. */
function server() {
  let polls = 0;
  let flaky = 0;
  let hang: (() => void) | undefined;
  const hanging = Promise.withResolvers<void>();
  const http = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    switch (url.pathname) {
      case "/hop":
        return new Response(null, { status: 302, headers: { location: "/echo?from=hop" } });
      case "/poll":
        return Response.json({ done: ++polls >= 3 });
      case "/flaky":
        return new Response(null, { status: ++flaky === 1 ? 500 : 200 });
      case "/bin":
        return new Response(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe, 0x00, 0x80]), {
          headers: { "content-type": "image/png" },
        });
      case "/mint":
        return Response.json({ minted: MINTED }, {
          headers: { "set-cookie": `sid=${SESSION}; Path=/; HttpOnly` },
        });
      case "/big":
        return new Response("b".repeat(200_000), { headers: { "content-type": "text/plain" } });
      case "/hang":
        hanging.resolve();
        await new Promise<void>((resolve) => hang = resolve);
        return new Response("late");
    }
    const headers = Object.fromEntries(req.headers);
    return Response.json({ url: req.url, headers, body: await req.text() });
  });
  return {
    base: `http://127.0.0.1:${http.addr.port}`,
    hanging: hanging.promise,
    close: async () => {
      hang?.();
      await http.shutdown();
    },
  };
}

async function readHar(
  path: string,
): Promise<{ text: string; entries: Entry[]; log: Record<string, unknown> }> {
  const text = await Deno.readTextFile(path);
  const har = JSON.parse(text);
  assert.deepEqual(harProblems(har), [], "the file has the HAR 1.2 shape");
  return { text, entries: har.log.entries, log: har.log };
}

/** A value the server makes, which becomes a secret only when a later step sends it as one. */
const MINTED = "mint-7Rq9xW2kLp4v";
/** A session cookie the server sets: a secret by where it came from. */
const SESSION = "sess-Zx81/Qp+4Lm=";

// Characters that every encoding writes differently: URL, form, JSON, base64.
/** How a secret shows in the HAR: its run's label, or `***` for a form only masking finds. */
const MASKED = /^(\*\*\*|masked-[0-9a-f]{12})$/;

const SECRETS = {
  HEADER_SECRET: "hdr/S3cr+t=&x!",
  QUERY_SECRET: 'qry S3/cr+t=&"y',
  JSON_SECRET: 'jsn "S3cr\\t/+=&z',
  FORM_SECRET: "frm S3cr/+t=&w",
  BASIC_SECRET: "bsc:S3cr/+t=&v",
};

/** Every form a reader could turn back into `value`. */
function encodings(value: string): string[] {
  const json = JSON.stringify(value).slice(1, -1);
  return [
    value,
    encodeURIComponent(value),
    new URLSearchParams({ v: value }).toString().slice(2),
    json,
    JSON.stringify(json).slice(1, -1),
    encodeURIComponent(json),
    btoa(value),
    btoa(`ann:${value}`),
    btoa(`ann:${value}`).slice(4, -4),
  ];
}

for (const threads of [[], ["--workers", "2"]]) {
  const where = threads.length ? " (flows on worker threads)" : "";
  Deno.test(`a secret in a header, a query, a JSON body, a form body and Basic auth is in no encoding in the HAR${where}`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "flowrun-har-" });
    const app = server();
    try {
      await Deno.writeTextFile(
        `${dir}/secrets.yaml`,
        `name: secrets
steps:
  - name: header and query
    request:
      url: \${ENV.BASE}/echo?access_token=\${ENV.QUERY_SECRET}&page=2
      headers: {x-api-key: "\${ENV.HEADER_SECRET}"}
  - name: json body
    request:
      method: POST
      url: \${ENV.BASE}/echo
      body: {user: ann, password: "\${ENV.JSON_SECRET}"}
  - name: form body
    request:
      method: POST
      url: \${ENV.BASE}/echo
      form: {user: ann, client_secret: "\${ENV.FORM_SECRET}"}
  - name: basic
    auth: {basic: {username: ann, password: "\${ENV.BASIC_SECRET}"}}
    request:
      url: \${ENV.BASE}/echo
  - name: mint
    request: {url: "\${ENV.BASE}/mint"}
    capture: {minted: $.json.minted}
  - name: bearer
    request:
      url: \${ENV.BASE}/echo
      headers:
        authorization: Bearer \${steps.mint.minted}
`,
      );
      const run = await runCli([
        "run",
        `${dir}/secrets.yaml`,
        ...threads,
        "--report-har",
        `${dir}/run.har`,
      ], {
        env: { BASE: app.base, ...SECRETS },
      });
      assert.equal(run.code, 0, run.stdout + run.stderr);
      const { text, entries } = await readHar(`${dir}/run.har`);
      assert.deepEqual(entries.map((e) => e._step), [
        "header and query",
        "json body",
        "form body",
        "basic",
        "mint",
        "bearer",
      ]);
      // A value is masked where it showed before it was known to be secret: entries wait for their flow's end.
      for (const form of encodings(MINTED)) {
        assert.ok(!text.includes(form), `the minted token as ${form}`);
      }
      for (const form of encodings(SESSION)) {
        assert.ok(!text.includes(form), `the session as ${form}`);
      }
      const mint = entries.find((e) => e._step === "mint")!.response as unknown as {
        cookies: { name: string; value: string; httpOnly?: boolean }[];
      };
      assert.equal(mint.cookies.length, 1);
      assert.match(mint.cookies[0].value, MASKED);
      assert.deepEqual({ ...mint.cookies[0], value: "" }, {
        name: "sid",
        value: "",
        path: "/",
        httpOnly: true,
      });
      for (const [name, secret] of Object.entries(SECRETS)) {
        for (const form of encodings(secret)) {
          assert.ok(!text.includes(form), `${name} is in the HAR as ${JSON.stringify(form)}`);
        }
      }
      // Masked, not dropped: each request still shows where its secret went, and what is no secret.
      const [query, json, form, basic] = entries;
      assert.deepEqual(query.request.queryString.map((q) => q.name), ["access_token", "page"]);
      assert.match(query.request.queryString[0].value, MASKED);
      assert.equal(query.request.queryString[1].value, "2");
      assert.match(query.request.headers.find((h) => h.name === "x-api-key")!.value, MASKED);
      assert.match(JSON.parse(json.request.postData!.text!).password, MASKED);
      assert.equal(JSON.parse(json.request.postData!.text!).user, "ann");
      assert.deepEqual(form.request.postData!.params![0], { name: "user", value: "ann" });
      assert.equal(form.request.postData!.params![1].name, "client_secret");
      assert.match(form.request.postData!.params![1].value, MASKED);
      assert.match(
        basic.request.headers.find((h) => h.name === "authorization")!.value,
        /^Basic (\*\*\*|masked-[0-9a-f]{12})$/,
      );
      // The echoes (response bodies) are masked as well.
      const echoed = JSON.parse(JSON.parse(json.response.content.text!).body);
      assert.equal(echoed.user, "ann");
      assert.match(echoed.password, MASKED);
      // A token keeps one label wherever it shows, so `convert har` can tell where it came from.
      const minted = (entries.find((e) => e._step === "mint")!.response.content.text ?? "")
        .match(/masked-[0-9a-f]{12}/g);
      const bearer = entries.find((e) => e._step === "bearer")!.request.headers
        .find((h) => h.name === "authorization")!.value;
      assert.ok(minted !== null && bearer === `Bearer ${minted[0]}`, `${minted} ${bearer}`);
    } finally {
      await app.close();
      await Deno.remove(dir, { recursive: true });
    }
  });
}

Deno.test("each request on the wire is an entry: redirect hops, polls, re-runs, failures; bodies within the budget", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-" });
  const app = server();
  // A port nothing listens on: bound, then closed.
  const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const refused = `http://127.0.0.1:${(closed.addr as Deno.NetAddr).port}`;
  closed.close();
  try {
    await Deno.mkdir(`${dir}/flows`);
    await Deno.writeTextFile(
      `${dir}/flows/a_wire.yaml`,
      `name: wire
steps:
  - name: hop
    request: {url: "\${ENV.BASE}/hop"}
    options: {follow_redirects: true}
  - name: poll
    request: {url: "\${ENV.BASE}/poll"}
    loop: {max_attempts: 5, sleep_ms: 1, until: {json: [{path: $.json.done, equals: true}]}}
  - name: big
    request: {url: "\${ENV.BASE}/big"}
  - name: bin
    request: {url: "\${ENV.BASE}/bin"}
  - name: upload
    request:
      method: POST
      url: \${ENV.BASE}/echo
      multipart:
        title: Holiday
        photo: {file: photo.png}
`,
    );
    await Deno.writeFile(`${dir}/flows/photo.png`, new Uint8Array([0x89, 0x50, 0x4e, 0x47]));
    await Deno.writeTextFile(
      `${dir}/flows/b_flaky.yaml`,
      `name: flaky\nretries: 1\nsteps:\n  - name: flaky\n    request: {url: "\${ENV.BASE}/flaky"}\n    assert: {status: 200}\n`,
    );
    await Deno.writeTextFile(
      `${dir}/flows/c_down.yaml`,
      `name: down\nsteps:\n  - name: down\n    request: {url: "${refused}/x"}\n`,
    );
    // Two data rows running at once: each its own page, its entries apart from the other's.
    await Deno.writeTextFile(
      `${dir}/flows/d_rows.yaml`,
      `name: rows\ndata: [{name: one}, {name: two}]\nsteps:\n  - name: get\n    request: {url: "\${ENV.BASE}/echo?row=\${vars.name}"}\n`,
    );
    const run = await runCli(
      ["run", `${dir}/flows`, "--jobs", "4", "--report-har", `${dir}/run.har`],
      { env: { BASE: app.base } },
    );
    assert.equal(run.code, 1, "the refused connection fails the run");
    const { entries, log } = await readHar(`${dir}/run.har`);
    const pages = log.pages as { id: string; title: string; _file: string }[];
    const of = (file: string) => {
      const ids = pages.filter((p) => p._file.endsWith(file)).map((p) => p.id);
      return entries.filter((e) => ids.includes(e.pageref));
    };
    // A redirect is two entries, the hop's own response first.
    const wire = of("a_wire.yaml");
    assert.deepEqual(
      wire.map((e) => `${e._step}#${e._attempt} ${e.response.status}`),
      [
        "hop#1 302",
        "hop#1 200",
        "poll#1 200",
        "poll#2 200",
        "poll#3 200",
        "big#1 200",
        "bin#1 200",
        "upload#1 200",
      ],
    );
    assert.equal(wire[0].response.redirectURL, "/echo?from=hop");
    assert.equal(new URL(wire[1].request.url).search, "?from=hop");
    const [big, bin] = wire.slice(-3).map((e) => e.response.content);
    assert.equal(big.size, 200_000, "the size is the whole body's");
    assert.equal(big.text!.length, 65_536);
    assert.match(big.comment!, /cut at 65536 characters.*200000 bytes/);
    // A binary body is not kept as text it is not; its size is the bytes'.
    assert.deepEqual(bin, { size: 8, mimeType: "image/png", comment: "A binary body, not kept." });
    assert.equal(wire.at(-1)!.request.bodySize, -1, "the client frames a multipart body");
    assert.deepEqual(wire.at(-1)!.request.postData, {
      mimeType: "multipart/form-data",
      params: [{ name: "title", value: "Holiday" }, { name: "photo", fileName: "photo.png" }],
      comment: "A multipart body: its fields, files by name.",
    });
    assert.deepEqual(
      of("b_flaky.yaml").map((e) => e.response.status),
      [500, 200],
      "a re-run's request too",
    );
    const [down] = of("c_down.yaml");
    assert.equal(down.response.status, 0);
    assert.match(down._error!, /refused|Request failed/i);
    assert.deepEqual(pages.map((p) => p.title).sort(), [
      "down",
      "flaky",
      "rows [one]",
      "rows [two]",
      "wire",
    ]);
    assert.deepEqual(pages.map((p) => p.id).sort(), [
      "page_1",
      "page_2",
      "page_3",
      "page_4",
      "page_5",
    ]);
    for (const row of ["one", "two"]) {
      const { id } = pages.find((p) => p.title === `rows [${row}]`)!;
      const urls = entries.filter((e) => e.pageref === id).map((e) =>
        new URL(e.request.url).search
      );
      assert.deepEqual(urls, [`?row=${row}`]);
    }
    // The converter's reader takes it as it takes a browser's: every entry, no note.
    const notes: string[] = [];
    const parsed = parseHar(await Deno.readTextFile(`${dir}/run.har`), notes);
    assert.deepEqual(notes, []);
    assert.equal(parsed.records.length, entries.length);
    assert.equal(parsed.invalid, 0);
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a SIGTERM in the middle of a request leaves a whole HAR with what went on the wire", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-" });
  const app = server();
  try {
    await Deno.writeTextFile(
      `${dir}/hang.yaml`,
      `name: hang\nsteps:\n  - name: first\n    request: {url: "\${ENV.BASE}/echo"}\n  - name: hang\n    request: {url: "\${ENV.BASE}/hang"}\n`,
    );
    const child = spawnCli(["run", `${dir}/hang.yaml`, "--report-har", `${dir}/run.har`], {
      env: { BASE: app.base },
      stdout: "null",
    });
    await app.hanging;
    child.kill("SIGTERM");
    const { code } = await child.output();
    assert.equal(code, 143);
    const { entries } = await readHar(`${dir}/run.har`);
    assert.deepEqual(entries.map((e) => `${e._step} ${e.response.status}`), [
      "first 200",
      "hang 0",
    ]);
    assert.match(entries[1]._error!, /Interrupted/);
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a HAR path that cannot be written is refused before anything is sent", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-" });
  let requests = 0;
  const http = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
    requests++;
    return new Response("ok");
  });
  try {
    await Deno.writeTextFile(
      `${dir}/ok.yaml`,
      `name: ok\nsteps:\n  - name: one\n    request: {url: "http://127.0.0.1:${http.addr.port}/"}\n`,
    );
    await Deno.writeTextFile(`${dir}/file`, "");
    const refused = await runCli(["run", `${dir}/ok.yaml`, "--report-har", `${dir}/file/run.har`]);
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /Cannot write ".*\/file\/run\.har"/);
    assert.equal(requests, 0, "nothing was sent");
  } finally {
    await http.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
