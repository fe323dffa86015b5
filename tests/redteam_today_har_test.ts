/**
 * Issue 53, fourth pass, against `--report-har`: a secret the run learns only
 * in a later flow is masked in every earlier flow's entries too, as the JSON,
 * JUnit and HTML reports mask it. The HAR is made flow by flow; an earlier
 * flow's entries written before the later flow ran kept the token in clear.
 */
import assert from "node:assert/strict";
import { runCli, spawnCli } from "./support/cli.ts";

/** The token a later flow's login answers; an earlier flow only saw it in public places. */
const LATE = "lateTok_Q7x9Zk2Lm4Np8Rw3";

/** Shows LATE in a body, a plain header and a redirect's Location; answers it as a token at /login. */
function server() {
  const hanging = Promise.withResolvers<void>();
  let release = () => {};
  const http = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    switch (url.pathname) {
      case "/public":
        return Response.json({ listing: [`key ${LATE} issued`] }, { headers: { "x-note": LATE } });
      case "/hop":
        return new Response(null, { status: 302, headers: { location: `/echo?ref=${LATE}` } });
      case "/login":
        return Response.json({ token: LATE });
      case "/hang":
        hanging.resolve();
        return new Promise<Response>((resolve) => release = () => resolve(new Response("late")));
    }
    return Response.json({ url: req.url });
  });
  return {
    base: `http://127.0.0.1:${http.addr.port}`,
    hanging: hanging.promise,
    close: () => (release(), http.shutdown()),
  };
}

const EARLY = `name: early
steps:
  - name: public
    request: {url: "\${ENV.BASE}/public"}
  - name: hop
    request: {url: "\${ENV.BASE}/hop"}
  - name: by value
    request: {url: "\${ENV.BASE}/echo?ref=\${steps.public.capture.seen}"}
`.replace("  - name: hop", `    capture: {seen: {header: x-note}}\n  - name: hop`);

const LATER = `name: later
steps:
  - name: login
    request: {method: POST, url: "\${ENV.BASE}/login"}
`;

Deno.test("a token a later flow learns is masked in the HAR entries of the flows before it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-redteam-har-" });
  const app = server();
  try {
    await Deno.writeTextFile(`${dir}/a_early.yaml`, EARLY);
    await Deno.writeTextFile(`${dir}/b_later.yaml`, LATER);
    const run = await runCli(
      [
        "run",
        `${dir}/a_early.yaml`,
        `${dir}/b_later.yaml`,
        "--jobs",
        "1",
        "--report-har",
        `${dir}/run.har`,
        "--report-json",
        `${dir}/run.json`,
      ],
      { env: { BASE: app.base } },
    );
    assert.equal(run.code, 0, run.stdout + run.stderr);
    // The JSON report masks it in the early flow: the HAR must not be the weaker artifact.
    assert.ok(!(await Deno.readTextFile(`${dir}/run.json`)).includes(LATE));
    const text = await Deno.readTextFile(`${dir}/run.har`);
    assert.ok(!text.includes(LATE), `the HAR holds the later flow's token:\n${text}`);
    assert.ok(!text.includes(LATE.slice(4, 20)), "no 16 characters of it either");
    const { entries } = JSON.parse(text).log as {
      entries: { pageref: string; _step: string; request: { url: string } }[];
    };
    // Every place the early flow showed it carries the label the later flow's token got.
    const login = JSON.stringify(entries.find((e) => e._step === "login"));
    const label = login.match(/masked-[0-9a-f]{12}/)?.[0];
    assert.ok(label, login);
    const early = entries.filter((e) => e.pageref === "page_1");
    assert.equal(early.length, 3, "public, the hop (its Location), by value");
    for (const entry of early) {
      assert.ok(JSON.stringify(entry).includes(label), JSON.stringify(entry));
    }
    assert.ok(early.some((e) => e.request.url.endsWith(`/echo?ref=${label}`)));
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a token a later flow learns is masked in earlier flows' HAR entries on worker threads too", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-redteam-har-" });
  const app = server();
  try {
    // Past 50 flows --workers runs them on threads; the login's flow sorts last.
    for (let i = 0; i < 54; i++) {
      await Deno.writeTextFile(`${dir}/a_${String(i).padStart(2, "0")}.yaml`, EARLY);
    }
    await Deno.writeTextFile(`${dir}/z_later.yaml`, LATER);
    const har = `${dir}/run.har`;
    const run = await runCli(["run", dir, "--workers", "2", "--report-har", har], {
      env: { BASE: app.base },
    });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const text = await Deno.readTextFile(har);
    assert.equal(JSON.parse(text).log.entries.length, 54 * 3 + 1);
    assert.ok(!text.includes(LATE) && !text.includes(LATE.slice(4, 20)), "no flow shows the token");
    assert.equal(new Set(text.match(/masked-[0-9a-f]{12}/g)).size, 1, "one label, everywhere");
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a token a later flow learns is masked in earlier flows' HAR entries when a SIGTERM ends the run", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-redteam-har-" });
  const app = server();
  try {
    await Deno.writeTextFile(`${dir}/a_early.yaml`, EARLY);
    await Deno.writeTextFile(`${dir}/b_later.yaml`, LATER);
    await Deno.writeTextFile(
      `${dir}/c_hang.yaml`,
      `name: hang\nsteps:\n  - name: hang\n    request: {url: "\${ENV.BASE}/hang"}\n`,
    );
    const har = `${dir}/run.har`;
    const child = spawnCli(["run", dir, "--jobs", "1", "--report-har", har], {
      env: { BASE: app.base },
      stdout: "null",
    });
    await app.hanging;
    child.kill("SIGTERM");
    assert.equal((await child.output()).code, 143);
    const text = await Deno.readTextFile(har);
    const { entries } = JSON.parse(text).log as { entries: { _step: string }[] };
    assert.deepEqual(entries.map((e) => e._step), ["public", "hop", "by value", "login", "hang"]);
    assert.ok(!text.includes(LATE), `the HAR holds the later flow's token:\n${text}`);
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});

/** Two tokens where the end of one is the start of the other. */
const FIRST = "AAq1BBq2CCq3DD44";
const SECOND = "CCq3DD44EEq5FFq6";
/** FIRST and SECOND overlapping: no part of either may show. */
const JOINED = `${FIRST.slice(0, 8)}${SECOND}`;

Deno.test("two secrets overlapping where a response joins them show no piece of either in the HAR", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-redteam-har-" });
  const http = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const joined = `${req.headers.get("x-first-token")?.slice(0, 8)}${
      req.headers.get("x-api-key")
    }`;
    return Response.json({ seen: `id ${joined} seen` }, { headers: { "x-seen": joined } });
  });
  try {
    await Deno.writeTextFile(
      `${dir}/joined.yaml`,
      `name: joined
steps:
  - name: both
    request:
      url: "http://127.0.0.1:${http.addr.port}/echo"
      headers: {x-first-token: "\${ENV.FIRST}", x-api-key: "\${ENV.SECOND}"}
    assert: {status: 201}
`,
    );
    const run = await runCli(
      ["run", dir, "--report-har", `${dir}/run.har`, "--report-json", `${dir}/run.json`],
      { env: { FIRST, SECOND } },
    );
    // It fails, so that the JSON report keeps the response.
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const json = await Deno.readTextFile(`${dir}/run.json`);
    const har = await Deno.readTextFile(`${dir}/run.har`);
    for (const [name, text] of [["JSON report", json], ["HAR", har]]) {
      assert.ok(text.includes("id *** seen"), `${name} masks the joined value whole`);
      for (const piece of [FIRST.slice(8), SECOND.slice(8), JOINED]) {
        assert.ok(!text.includes(piece), `${name} shows ${piece}:\n${text}`);
      }
    }
    // Each alone keeps its label: the request sent them apart.
    const request = JSON.parse(har).log.entries[0].request.headers as { value: string }[];
    assert.ok(request.every((h) => /^masked-[0-9a-f]{12}$/.test(h.value)), JSON.stringify(request));
  } finally {
    await http.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the HAR's labels leave no piece of a secret wherever secrets overlap", async () => {
  const { SecretLabels } = await import("../lib/report/har_labels.ts");
  const inner = "innerTok_9Zq81Lk3";
  const outer = `pre_${inner}_suffixX9`;
  const tail = "suffixX9_moreTok_77Qp";
  const secrets = [FIRST, SECOND, inner, outer, tail, "ab12ab12ab12"];
  const cases: [string, string][] = [
    [`a ${JOINED} b`, "a *** b"], // two labelled ones, end to start
    [`a ${outer}${tail.slice(8)} b`, "a *** b"], // one holding another, then a third
    [`a ${outer} b ${inner} c`, "a *** b L c"], // alone, the inner one keeps its label
    ["x ab12ab12ab12ab12 y", "x *** y"], // one secret overlapping itself
  ];
  for (const [text, want] of cases) {
    const got = new SecretLabels(() => "0123456789ab").apply(text, secrets);
    assert.equal(got.replaceAll("masked-0123456789ab", "L"), want, text);
  }
});
