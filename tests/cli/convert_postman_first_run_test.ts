/**
 * A converted collection runs on the first try, as the summary says: each
 * test converts a collection with default options (`flowrun convert postman
 * C.json -o OUT`), then runs exactly the command the summary prints, as a
 * subprocess, against a server the test starts, and asserts what the server
 * received. Each collection holds one class of what real collections do and
 * the converter got wrong (issue 52): uploads named like flows, a base URL
 * without a scheme, `{{…}}` Postman sends as written, script sets the
 * converter cannot express, and sets of values a response does not hold.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { runNewman } from "../support/newman_counts.ts";

/** One request as the server got it. */
interface Got {
  line: string;
  headers: Headers;
  body: string;
}

/** A server on 127.0.0.1 that records every request and answers from `answer`. */
function startServer(answer: (req: Request, url: URL) => unknown = () => ({ ok: true })) {
  const got: Got[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const body = await req.text();
    got.push({ line: `${req.method} ${url.pathname}${url.search}`, headers: req.headers, body });
    return Response.json(answer(req, url));
  });
  return { got, host: `127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

/** A v2.1 collection of `items`, with collection variables. */
function collection(variables: Record<string, string>, items: unknown[]): string {
  return JSON.stringify({
    info: {
      name: "First run",
      schema: "https://schema.getpostman.com/json/collection/v2.1.0/collection.json",
    },
    variable: Object.entries(variables).map(([key, value]) => ({ key, value })),
    item: items,
  });
}

/** A request item with a test script. */
function item(name: string, request: Record<string, unknown>, test: string[] = []) {
  return { name, request, event: [{ listen: "test", script: { exec: test } }] };
}

/** Converts with default options; returns the summary and the arguments of its `Run:` line. */
async function convert(dir: string, text: string): Promise<{ summary: string; run: string[] }> {
  await Deno.writeTextFile(`${dir}/c.json`, text);
  const converted = await runCli(["convert", "postman", `${dir}/c.json`, "-o", `${dir}/out`]);
  assert.equal(converted.code, 0, converted.stderr);
  const line = converted.stderr.split("\n").find((l) => l.startsWith("Run: flowrun "));
  assert.ok(line, converted.stderr);
  return { summary: converted.stderr, run: line.slice("Run: flowrun ".length).split(" ") };
}

Deno.test("convert postman: uploads named like flows (schema.yaml, data.yml) are not read as flows; run and validate work as printed", async () => {
  const server = startServer();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-pm-uploads-" });
  try {
    const { summary, run } = await convert(
      dir,
      collection({ base: `http://${server.host}` }, [
        item("Import schema", {
          method: "POST",
          url: "{{base}}/schemas",
          body: {
            mode: "formdata",
            formdata: [
              { key: "schema", type: "file", src: "/home/ann/api/schema.yaml" },
              { key: "kind", type: "text", value: "openapi" },
            ],
          },
        }),
        item("Import data", {
          method: "PUT",
          url: "{{base}}/data",
          body: { mode: "file", file: { src: "fixtures/data.yml" } },
        }),
      ]),
    );
    const validated = await runCli(["validate", `${dir}/out/`]);
    assert.equal(validated.code, 0, validated.stdout + validated.stderr);
    const ran = await runCli(run);
    assert.equal(ran.code, 0, summary + ran.stdout + ran.stderr);
    assert.deepEqual(server.got.map((g) => g.line), ["POST /schemas", "PUT /data"]);
    // The server sees the file under the name the collection uploads it with.
    assert.match(server.got[0].body, /name="schema"; filename="schema\.yaml"/);
    // The summary names where to put each file, and the run reads them from there.
    for (const path of summary.matchAll(/Put the file the collection uploads at (\S+) /g)) {
      assert.equal((await Deno.stat(path[1])).isFile, true, path[1]);
      assert.doesNotMatch(path[1], /\.ya?ml$/);
    }
    assert.equal([...summary.matchAll(/Put the file/g)].length, 2, summary);
    assert.match(
      summary,
      /files\/schema\.yaml\.upload \(an empty placeholder is written; sent as schema\.yaml\)/,
    );
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

/** What a request sent that Postman resolves: its line, the header X-Order and its body. */
const sent = (got: Got[]) =>
  got.map((g) => `${g.line} x-order=${g.headers.get("x-order") ?? "-"} ${g.body}`);

Deno.test("convert postman: a host without a scheme is sent with http://, and {{…}} no variable defines yet is sent as written, as Newman sends them", async () => {
  const server = startServer((_, url) => url.pathname === "/orders" ? { id: "o-17" } : {});
  const dir = await Deno.makeTempDir({ prefix: "flowrun-pm-scheme-" });
  try {
    const text = collection({ host: server.host }, [
      item("List orders", {
        method: "GET",
        url: "{{host}}/orders",
        header: [{ key: "X-Order", value: "{{orderId}}" }],
      }, ["pm.environment.set('orderId', pm.response.json().id);"]),
      item("Greet", {
        method: "POST",
        url: "{{host}}/orders/{{orderId}}/greet",
        header: [{ key: "Content-Type", value: "application/json" }],
        body: { mode: "raw", raw: '{"text": "Hi {{ name | upcase }}", "order": "{{orderId}}"}' },
      }),
    ]);
    await Deno.writeTextFile(`${dir}/newman.json`, text);
    await runNewman(`${dir}/newman.json`);
    const byNewman = sent(server.got.splice(0));
    assert.deepEqual(byNewman, [
      "GET /orders x-order={{orderId}} ",
      'POST /orders/o-17/greet x-order=- {"text": "Hi {{ name | upcase }}", "order": "o-17"}',
    ]);
    const { summary, run } = await convert(dir, text);
    const ran = await runCli(run);
    assert.equal(ran.code, 0, summary + ran.stdout + ran.stderr);
    const byFlowrun = sent(server.got);
    assert.equal(byFlowrun[0], byNewman[0]);
    assert.equal(byFlowrun[1].replace(/\s/g, ""), byNewman[1].replace(/\s/g, ""));
    // The host is the collection's value, shown, never a secret; the scheme is said once.
    assert.doesNotMatch(summary, /secret/);
    assert.match(summary, new RegExp(`HOST \\(${server.host} unless set\\)`));
    assert.equal([...summary.matchAll(/http:\/\//g)].length, 1, summary);
    assert.match(summary, /\{\{host\}\} has no scheme: sent with http:\/\/, as Postman does/);
    assert.match(summary, /sent as written, as Postman does/);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert postman: find and filter()[0] become first-match captures, a set flowrun cannot express is named with the requests that read it, and a set of a missing field goes on", async () => {
  const server = startServer((_, url) =>
    url.pathname === "/items"
      ? {
        name: "ann",
        items: [{ kind: "a", id: "a1" }, { kind: "b", id: "b7" }, { kind: "a", id: "a2" }],
      }
      : {}
  );
  const dir = await Deno.makeTempDir({ prefix: "flowrun-pm-sets-" });
  try {
    const text = collection({ base: `http://${server.host}` }, [
      item("List", { method: "GET", url: "{{base}}/items" }, [
        "const json = pm.response.json();",
        "pm.environment.set('itemId', json.items.find(x => x.kind === 'b').id);",
        'pm.environment.set("firstA", json.items.filter(function (x) { return x.kind == "a"; })[0].id);',
        "pm.environment.set('upper', json.name.toUpperCase());",
        "pm.globals.set('missing', json.missing);",
        "postman.setGlobalVariable('missing2', json.nothere);",
      ]),
      item("Use", { method: "GET", url: "{{base}}/use/{{itemId}}/{{firstA}}?u={{upper}}" }),
      item("Again", { method: "GET", url: "{{base}}/again?u={{upper}}" }),
    ]);
    await Deno.writeTextFile(`${dir}/newman.json`, text);
    await runNewman(`${dir}/newman.json`);
    assert.deepEqual(server.got.splice(0).map((g) => g.line), [
      "GET /items",
      "GET /use/b7/a1?u=ANN",
      "GET /again?u=ANN",
    ]);
    const { summary, run } = await convert(dir, text);
    const ran = await runCli(run);
    assert.equal(ran.code, 0, summary + ran.stdout + ran.stderr);
    const lines = server.got.map((g) => g.line);
    assert.deepEqual(lines.slice(0, 2).map((l) => l.replace(/\?.*/, "")), [
      "GET /items",
      "GET /use/b7/a1",
    ]);
    assert.equal(lines.length, 3);
    // What flowrun cannot express is said in the summary, with every request that reads it.
    assert.match(summary, /the script of List sets \{\{upper\}\} .*: read by Use, Again\.\n/);
    assert.equal([...summary.matchAll(/\{\{upper\}\}/g)].length, 1, summary);
    // The fields no request reads are left out (Postman sets undefined and goes on), with a comment.
    const flow = await Deno.readTextFile(`${dir}/out/1_first_run.yaml`);
    assert.match(flow, /not captured: missing: no request reads it/);
    assert.match(flow, /path: \$\.json\.items\[\?@\.kind == 'b'\]\.id\n\s+first: true/);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert postman: a variable is a secret by where it is used (an auth credential), never by its name or shape", async () => {
  const server = startServer();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-pm-secrets-" });
  try {
    const text = collection({
      host: server.host,
      passwordMinLength: "8",
      apiKeyColumn: "api_key",
      traceId: "a81f0c2e9d7b44e1",
      userPassword: "hunter2hunter2",
    }, [
      {
        name: "Columns",
        request: {
          method: "POST",
          url: "{{host}}/columns?min={{passwordMinLength}}",
          header: [
            { key: "X-Trace", value: "{{traceId}}" },
            { key: "Content-Type", value: "application/json" },
          ],
          body: { mode: "raw", raw: '{"column": "{{apiKeyColumn}}"}' },
          auth: {
            type: "basic",
            basic: [
              { key: "username", value: "ann" },
              { key: "password", value: "{{userPassword}}" },
            ],
          },
        },
      },
    ]);
    await Deno.writeTextFile(`${dir}/newman.json`, text);
    await runNewman(`${dir}/newman.json`);
    const byNewman = server.got.splice(0);
    const { summary, run } = await convert(dir, text);
    // Only the password typed into the auth's credential field is asked for, as a secret.
    const set = summary.match(/^Set before running: (.*)$/m)?.[1] ?? "";
    assert.match(set, /USER_PASSWORD \(\{\{userPassword\}\}, a secret\)/);
    assert.equal([...set.matchAll(/a secret/g)].length, 1, summary);
    const ran = await runCli(run, { env: { USER_PASSWORD: "hunter2hunter2" } });
    assert.equal(ran.code, 0, summary + ran.stdout + ran.stderr);
    const [got] = server.got;
    assert.equal(server.got.length, 1);
    // What Newman sends with the collection's values, flowrun sends with only what the summary asks.
    for (const header of ["x-trace", "authorization", "content-type"]) {
      assert.equal(got.headers.get(header), byNewman[0].headers.get(header), header);
    }
    assert.equal(got.line, byNewman[0].line);
    assert.equal(got.line, "POST /columns?min=8");
    assert.equal(got.headers.get("x-trace"), "a81f0c2e9d7b44e1");
    assert.equal(got.headers.get("authorization"), `Basic ${btoa("ann:hunter2hunter2")}`);
    assert.deepEqual(JSON.parse(got.body), { column: "api_key" });
    for await (const f of Deno.readDir(`${dir}/out`)) {
      if (f.isFile) {
        assert.doesNotMatch(await Deno.readTextFile(`${dir}/out/${f.name}`), /hunter2/, f.name);
      }
    }
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert postman: a URL only a script gives, in a set flowrun cannot express, does not stop the run before anything is sent", async () => {
  const server = startServer(() => ({ href: "/Items/I1" }));
  const dir = await Deno.makeTempDir({ prefix: "flowrun-pm-urlset-" });
  try {
    const { summary, run } = await convert(
      dir,
      collection({ host: server.host }, [
        item("Create", { method: "POST", url: "{{host}}/items" }, [
          "pm.environment.set('itemUrl', pm.response.json().href.toLowerCase());",
        ]),
        item("Read", { method: "GET", url: "{{itemUrl}}" }),
      ]),
    );
    // Nothing to set beforehand: the variable is not an environment variable nobody can know.
    assert.doesNotMatch(summary, /ITEM_URL/);
    assert.match(summary, /the script of Create sets \{\{itemUrl\}\} .*read by Read\./);
    const ran = await runCli(run);
    assert.notEqual(ran.code, 2, summary + ran.stdout + ran.stderr);
    assert.deepEqual(server.got.map((g) => g.line), ["POST /items"]);
    // The step that reads it says what it sent, as written.
    assert.match(ran.stdout, /"\{\{itemUrl\}\}" is not an absolute http or https URL/);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test('convert postman: text a script joins from a response part ("Bearer " + token, base + "/items/" + id) is sent as Newman sends it', async () => {
  const server = startServer((_, url) =>
    url.pathname === "/login" ? { token: "t-9", item: { id: 42 } } : { ok: true }
  );
  const dir = await Deno.makeTempDir({ prefix: "flowrun-pm-joined-" });
  try {
    const text = collection({ base: `http://${server.host}`, host: server.host }, [
      item("Login", { method: "POST", url: "{{base}}/login" }, [
        "var json = pm.response.json();",
        "pm.environment.set('auth', 'Bearer ' + json.token);",
        "pm.environment.set('hostUrl', pm.variables.get('host') + '/by-host/' + json.item.id);",
        'pm.environment.set("itemUrl", pm.variables.get("base") + "/items/" + json.item.id + "?v=1");',
      ]),
      item("Read", {
        method: "GET",
        url: "{{itemUrl}}",
        header: [{ key: "Authorization", value: "{{auth}}" }],
      }),
      // A host without a scheme at the start of the joined URL: Postman sends it with http://.
      item("Read by host", { method: "GET", url: "{{hostUrl}}" }),
    ]);
    await Deno.writeTextFile(`${dir}/newman.json`, text);
    await runNewman(`${dir}/newman.json`);
    const byNewman = server.got.splice(0).map((g) => `${g.line} ${g.headers.get("authorization")}`);
    assert.deepEqual(byNewman, [
      "POST /login null",
      "GET /items/42?v=1 Bearer t-9",
      "GET /by-host/42 null",
    ]);
    const { summary, run } = await convert(dir, text);
    assert.doesNotMatch(summary, /Not translated/);
    const ran = await runCli(run);
    assert.equal(ran.code, 0, summary + ran.stdout + ran.stderr);
    assert.deepEqual(
      server.got.map((g) => `${g.line} ${g.headers.get("authorization")}`),
      byNewman,
    );
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
