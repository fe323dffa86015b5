/**
 * `flowrun convert curl` on commands it was not built from
 * (tests/fixtures/curl/README.md, "The second held-out round"): API docs'
 * commands and the shapes users paste, sent by the real curl at a local
 * server, converted by the CLI, the flow run at the same server, and the
 * requests compared field by field, as convert_curl_docs_test.ts does; the
 * PowerShell and cmd files are compared with what curl sends for their bash
 * twin, and every held-out file, whole and one command at a time, converts
 * into a flow `flowrun validate` accepts.
 */
import assert from "node:assert/strict";
import {
  type Arrived,
  askedSorted,
  compareAll,
  compareOne,
  convertAndRun,
  localCorpus,
  pointAt,
  sendWithCurl,
  withWire,
} from "../support/curl_wire.ts";
import { hasCurl } from "../support/has_curl.ts";
import { runCli } from "../support/cli.ts";

/** The hosts of the held-out files the shared corpus copy does not point at the server. */
const MORE_HOSTS =
  /https:\/\/(api\.mailgun\.net|api\.anthropic\.com|api\.sendgrid\.com|api\.digitalocean\.com|api\.cloudflare\.com|gitlab\.example\.com|my-store\.myshopify\.com)|localhost:9200/g;

const SECRETS = ["YOUR_API_KEY", "<your_access_token>", "abc123", "s3cr3t-Pa55"];

const FILE = "heldout_apis.sh";

Deno.test({
  name: "convert curl: held-out API docs and pasted shapes send what curl sends",
  ignore: !hasCurl,
  fn: () =>
    withWire(async (wire, dir) => {
      await pointAt(wire, dir, FILE, MORE_HOSTS);
      const env = {
        // -u's passwords: a flow's auth: basic sends their base64, where no sentinel can bind.
        BASIC_PASSWORD: "YOUR_API_KEY",
        DIGEST_PASSWORD: "s3cr3t-Pa55",
        ANTHROPIC_API_KEY: "sk-ant-fixture0",
        DIGITALOCEAN_TOKEN: "dop_v1_fixture0",
        DROPLET_ID: "3164444",
        ZONE_ID: "023e105f4ecef8ad9ca31a8372d0c353",
        CF_EMAIL: "user@example.com",
        CF_KEY: "c2547eb745079dac9320b638f5e225cf483cc5cfdda41",
        GITLAB_TOKEN: "glpat-fixture0",
        ELASTIC_PASSWORD: "elastic-fixture0",
        TOKEN: "k8s-sa-token-fixture0",
        APISERVER: wire.origin,
        APP_NAMESPACE: "games",
        APP_STATEFULSET_NAME: "minecraft",
        SHOPIFY_ACCESS_TOKEN: "shpat_fixture0",
        OPENAI_API_KEY: "sk-proj-fixture0",
        SENDGRID_API_KEY: "SG.fixture0",
        SHOP_TOKEN: "shop-token-fixture0",
      };
      const sent = await sendWithCurl(wire, dir, FILE, env);
      const flow = await convertAndRun(wire, dir, FILE, env);
      for (const secret of SECRETS) assert.ok(!flow.yaml.includes(secret), secret);
      // NDJSON is not one JSON document: those bodies are compared as bytes, the rest as usual.
      const ndjson = (a: Arrived) =>
        a.headers.some(([n, v]) => n === "content-type" && /ndjson/.test(v));
      assert.equal(flow.arrived.length, sent.length, "number of requests");
      for (let i = 0; i < sent.length; i++) {
        if (!ndjson(sent[i])) continue;
        assert.ok(ndjson(flow.arrived[i]), `#${i + 1}: content-type`);
        assert.equal(flow.arrived[i].target, sent[i].target);
        assert.deepEqual(flow.arrived[i].body, sent[i].body, `#${i + 1}: NDJSON body`);
        const empty = new Uint8Array();
        await compareOne(
          { ...sent[i], body: empty },
          { ...flow.arrived[i], body: empty },
          flow.bindings,
          `#${i + 1}`,
        );
      }
      const rest = (all: Arrived[]) => all.filter((a) => !ndjson(a));
      await compareAll(rest(sent), { ...flow, arrived: rest(flow.arrived) }, FILE);
    }),
});

const SHOP_ENV = { SHOP_TOKEN: "shop-token-fixture0", USER_NAME: "Ann O'Neil" };

Deno.test({
  name: "convert curl: held-out shell shapes, PowerShell and cmd send what curl sends",
  ignore: !hasCurl,
  fn: (t) =>
    withWire(async (wire, dir) => {
      await t.step("heldout_shells.sh", async () => {
        // A URL with credentials in it is not one the corpus copy points at the server.
        const path = `${dir}/heldout_shells.sh`;
        await Deno.writeTextFile(
          path,
          (await Deno.readTextFile(path)).replace(
            /https:\/\/([^/@\s]+@)shop\.example\.com/g,
            (_m, user) => `http://${user}${wire.origin.slice(7)}`,
          ),
        );
        // -u's password goes into a base64 header, where no sentinel binds: both get the same.
        const env = { ...SHOP_ENV, ADMIN_PASSWORD: "adm-pw-fixture0" };
        // bash writes $'\u00e9' as é only in a UTF-8 locale (a terminal's); in C, as the text.
        const sent = await sendWithCurl(wire, dir, "heldout_shells.sh", {
          ...env,
          LC_ALL: "C.UTF-8",
        });
        const flow = await convertAndRun(wire, dir, "heldout_shells.sh", env);
        assert.match(flow.summary, /into 13 steps\./);
        assert.deepEqual(
          askedSorted(flow.summary),
          ["ADMIN_PASSWORD", "API_KEY", "SHOP_TOKEN", "USER_NAME"],
        );
        assert.match(flow.summary, /LC_ALL=… before curl is not carried/);
        // The config file's key is a secret: a variable, never its value.
        assert.ok(!flow.yaml.includes("sk_shop_7c1e4d2a9b8f"));
        await compareAll(sent, flow, "heldout_shells.sh");
      });
      // -u's password goes into a base64 header, where no sentinel binds: both get the same.
      const env = { ...SHOP_ENV, ADMIN_PASSWORD: "adm-pw-fixture0" };
      const twin = await sendWithCurl(wire, dir, "heldout_ps_twin.sh", env);
      for (const file of ["heldout_ps_twin.sh", "heldout_powershell.txt", "heldout_cmd.txt"]) {
        await t.step(file, async () => {
          const flow = await convertAndRun(wire, dir, file, env);
          assert.match(flow.summary, /^Converted 4 curl commands into 4 steps\./);
          assert.deepEqual(
            askedSorted(flow.summary),
            ["ADMIN_PASSWORD", "SHOP_TOKEN"],
          );
          await compareAll(twin, flow, file);
        });
      }
    }),
});

const HELD_OUT = [
  "heldout_apis.sh",
  "heldout_shells.sh",
  "heldout_ps_twin.sh",
  "heldout_powershell.txt",
  "heldout_cmd.txt",
  "heldout_pasted.sh",
];

/** A file's commands one by one: a command starts at a line opening with curl (or a prompt). */
function commandsOf(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split("\n")) {
    if (/^(\$ )?([A-Za-z_]\w*=\S* )*(curl|echo)\b/.test(line)) out.push(line);
    else if (out.length > 0 && !line.startsWith("#")) out[out.length - 1] += `\n${line}`;
  }
  return out;
}

Deno.test("convert curl: every held-out file, whole and one command at a time, validates", async (t) => {
  const dir = await localCorpus("https://api.invalid");
  try {
    // Every variable a held-out command names, so validate reads no unset one.
    const env = Object.fromEntries(
      [
        "ADMIN_PASSWORD",
        "ANTHROPIC_API_KEY",
        "API_KEY",
        "APISERVER",
        "APP_NAMESPACE",
        "APP_STATEFULSET_NAME",
        "BASIC_PASSWORD",
        "CF_EMAIL",
        "CF_KEY",
        "DIGEST_PASSWORD",
        "DIGITALOCEAN_TOKEN",
        "DROPLET_ID",
        "ELASTIC_PASSWORD",
        "GITLAB_TOKEN",
        "OPENAI_API_KEY",
        "PRIVATE_TOKEN",
        "SENDGRID_API_KEY",
        "SESSION_COOKIE",
        "SHOPIFY_ACCESS_TOKEN",
        "SHOP_TOKEN",
        "TOKEN",
        "USER_NAME",
        "ZONE_ID",
      ].map((n) => [n, n === "APISERVER" ? "https://k8s.invalid" : `v-${n}`]),
    );
    const outputs: string[] = [];
    for (const file of HELD_OUT) {
      await t.step(file, async () => {
        const text = await Deno.readTextFile(`${dir}/${file}`);
        const parts = [text, ...commandsOf(text).filter((c) => !/^echo/.test(c))];
        for (const [i, part] of parts.entries()) {
          const name = `${file}.${i}`;
          await Deno.writeTextFile(`${dir}/${name}.in`, part);
          const run = await runCli(["convert", "curl", `${name}.in`, "-o", `${name}.yaml`], {
            cwd: dir,
          });
          assert.equal(run.code, 0, `${name}: ${part}\n${run.stderr}`);
          assert.match(run.stderr, /^Converted \d+ curl commands? into [1-9]\d* steps?\./, part);
          assert.ok(!/\bat \S+\.ts:\d+/.test(run.stderr), run.stderr);
          outputs.push(`${name}.yaml`);
        }
      });
    }
    const validated = await runCli(["validate", ...outputs], { cwd: dir, env });
    assert.equal(validated.code, 0, validated.stdout + validated.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert curl: what the pasted held-out commands could not carry is named", async () => {
  const dir = await localCorpus("https://api.invalid");
  try {
    const run = await runCli(["convert", "curl", "heldout_pasted.sh", "-o", "p.yaml"], {
      cwd: dir,
    });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /^Converted 6 curl commands into 6 steps\./);
    // Since the here-document work: what echo writes into the pipe is the body, as with curl.
    assert.doesNotMatch(run.stderr, /Skipped/);
    assert.match(
      run.stderr,
      /Ignored options: options_root \(line 25\): --request-target, --http1\.1\./,
    );
    assert.match(run.stderr, /blanks after the \\ at the end of line 6 are ignored/);
    assert.match(run.stderr, /blanks after the \\ at the end of line 7 are ignored/);
    assert.match(run.stderr, /GET with a body, which a flow cannot/);
    assert.doesNotMatch(run.stderr, /standard input \(@-\) is not carried/);
    assert.match(
      run.stderr,
      /-K "missing\.curlrc" reads options from a file that could not be read/,
    );
    const yaml = await Deno.readTextFile(`${dir}/p.yaml`);
    assert.match(yaml, /x-trace-id: "1"\n\s+accept: application\/json/);
    assert.match(
      yaml,
      /method: PATCH\n.*\n.*\n.*content-type: application\/json\n\s+body:\n\s+qty: 4/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
