/**
 * Flows held as their bytes until they run (`loadFlowsDeferred`): what is
 * deferred and what must stay parsed, that a deferred flow parses again to
 * the flow that was checked (from the checked bytes, whatever the disk says
 * later), and that the runner runs, orders and skips them like any flow.
 */
import assert from "node:assert/strict";
import { type Flow, isDeferred } from "../../lib/model/flow.ts";
import { runFlows } from "../../lib/run/flows.ts";
import { byteSpill } from "../../lib/io/byte_spill.ts";
import { PARSED_FLOW_WINDOW } from "../../lib/model/limits.ts";
import { loadFlows, loadFlowsDeferred } from "../../lib/load/suite.ts";
import { runCli } from "../support/cli.ts";
import "../support/engines.ts";
import { withFiles } from "../support/with_files.ts";

const plain = (name: string, path = name) =>
  `name: ${name}\nsteps:\n  - name: get\n    request: {url: "\${base}/${path}"}\n    assert: {status: 200}\n  - name: again\n    request: {url: "\${base}/${path}/2"}\n`;

function serve() {
  const paths: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    paths.push(path);
    return Response.json({ path }, { status: path.startsWith("/fail") ? 500 : 200 });
  });
  return {
    base: `http://127.0.0.1:${server.addr.port}`,
    paths,
    close: () => server.shutdown(),
  };
}

const params = new Map([["base", "http://api.test"]]);

const asJson = (value: unknown) => JSON.parse(JSON.stringify(value));

Deno.test("past the window, plain flows are held as bytes and parse again to the flows checked", async () => {
  await withFiles(
    { "a.yaml": plain("a"), "b.yaml": plain("b"), "c.yaml": plain("c"), "d.yaml": plain("d") },
    async (dir) => {
      const whole = await loadFlows([dir], { params });
      const held = await loadFlowsDeferred([dir], { params }, 2);
      assert.deepEqual(held.problems, []);
      assert.deepEqual(held.files, whole.files);
      assert.deepEqual(held.flows.map((f) => [f.name, isDeferred(f)]), [
        ["a", false],
        ["b", false],
        ["c", true],
        ["d", true],
      ]);
      for (const [i, f] of held.flows.entries()) {
        assert.equal(f.file, whole.files[i]);
        const parsed = isDeferred(f) ? await f.load() : f;
        assert.deepEqual(parsed, whole.flows[i]);
      }
      // A window of none defers every plain flow; the bytes are still there for the manifest.
      const none = await loadFlowsDeferred([dir], { params }, 0);
      assert.ok(none.flows.every(isDeferred));
      assert.equal(none.bytes.size, 4);
    },
  );
});

Deno.test("flows that need something before the run stay parsed, whatever the window", async () => {
  const files = {
    "data.yaml":
      `name: data\nvars: {id: "0"}\ndata: {file: rows.csv}\nsteps:\n  - name: get\n    request: {url: "\${base}/\${id}"}\n`,
    "rows.csv": "id\n1\n2\n",
    "include.yaml":
      `name: include\nsteps:\n  - name: login\n    include: shared/login.yaml\n  - name: get\n    request: {url: "\${base}/x"}\n`,
    "shared/login.yaml":
      `name: login\nsteps:\n  - name: post\n    request: {url: "http://x.test"}\n`,
    "upload.yaml":
      `name: upload\nsteps:\n  - name: put\n    request: {method: PUT, url: "\${base}/u", body_file: rows.csv}\n`,
    "multipart.yaml":
      `name: multipart\nsteps:\n  - name: post\n    request: {method: POST, url: "\${base}/m", multipart: {doc: {file: rows.csv}}}\n`,
    "schema.yaml":
      `name: schema\nsteps:\n  - name: get\n    request: {url: "\${base}/s"}\n    assert: {schema: {type: object}}\n`,
    "insecure.yaml":
      `name: insecure\noptions: {insecure: true}\nsteps:\n  - name: get\n    request: {url: "\${base}/i"}\n`,
    "step_insecure.yaml":
      `name: step_insecure\nsteps:\n  - name: get\n    request: {url: "\${base}/i"}\n    options: {insecure: true}\n`,
    "plain.yaml": plain("plain"),
  };
  await withFiles(files, async (dir) => {
    const held = await loadFlowsDeferred([dir], { params }, 0);
    assert.deepEqual(held.problems, []);
    assert.deepEqual(
      held.flows.filter(isDeferred).map((f) => f.name).sort(),
      ["login", "plain"],
    );
    assert.deepEqual(
      held.flows.filter((f) => !isDeferred(f)).map((f) => f.name).sort(),
      ["data", "include", "insecure", "multipart", "schema", "step_insecure", "upload"],
    );
    const data = held.flows.find((f) => f.name === "data") as Flow;
    assert.deepEqual(data.rows?.map((r) => r.values.id), ["1", "2"]);
  });
});

/** a_login.yaml is checked (and deferred) first; z_main.yaml includes it afterwards. */
const includedLater = {
  "a_login.yaml":
    `name: login\nsteps:\n  - name: post\n    request: {url: "\${base}/login"}\noutputs: {token: abc}\n`,
  "z_main.yaml":
    `name: main\nsteps:\n  - name: auth\n    include: a_login.yaml\n  - name: get\n    request: {url: "\${base}/\${steps.auth.token}"}\n`,
};

Deno.test("a deferred file that a later flow includes is loaded again from its checked bytes", async () => {
  await withFiles(includedLater, async (dir) => {
    const held = await loadFlowsDeferred([dir], { params }, 0);
    assert.deepEqual(held.problems, []);
    assert.deepEqual(held.included, []);
    assert.equal(held.files.length, 2);
    const [login, main] = held.flows;
    assert.ok(isDeferred(login));
    assert.ok(!isDeferred(main));
    assert.equal(main.steps[0].include?.flow.name, "login");
    assert.equal((await login.load()).outputs?.[0].name, "token");
  });
});

Deno.test("with a spill, a deferred file that a later flow includes comes back from the spill", async () => {
  // The loader keeps no deferred file's bytes for a later include, only the flow held in the
  // spill: 10,000 files' bytes held while the rest loaded left the process 10 MiB larger for good.
  await withFiles(includedLater, async (dir) => {
    const inner = byteSpill();
    const readBack: string[] = [];
    const spill = {
      put(bytes: Uint8Array) {
        const read = inner.put(bytes);
        return () => {
          const back = read();
          readBack.push(new TextDecoder().decode(back));
          return back;
        };
      },
    };
    try {
      const held = await loadFlowsDeferred([dir], { params, spill }, 0);
      assert.deepEqual(held.problems, []);
      const main = held.flows[1];
      assert.ok(!isDeferred(main));
      assert.equal(main.steps[0].include?.flow.name, "login");
      // Read back for the include, before any flow ran: the bytes themselves were let go.
      // (The piece holds the checked flow's JSON behind the file's bytes.)
      assert.equal(readBack.length, 1);
      assert.ok(readBack[0].startsWith(`${includedLater["a_login.yaml"]}{`));
    } finally {
      inner.close();
    }
  });
});

Deno.test("a deferred flow runs the bytes that were checked, not what the file says later", async () => {
  await withFiles({ "a.yaml": plain("a", "checked") }, async (dir) => {
    const api = serve();
    try {
      const run = new Map([["base", api.base]]);
      const held = await loadFlowsDeferred([dir], { params: run }, 0);
      assert.ok(isDeferred(held.flows[0]));
      // Changed between the check and the run: a broken file the check never saw.
      await Deno.writeTextFile(`${dir}/a.yaml`, "name: a\nsteps: [oops\n");
      const result = await runFlows(held.flows, { params: run, jobs: 1 });
      assert.equal(result.status, "passed");
      assert.deepEqual(api.paths, ["/checked", "/checked/2"]);
    } finally {
      await api.close();
    }
  });
});

Deno.test("--tag selection applies again to a deferred flow", async () => {
  const tagged =
    `name: tagged\nsteps:\n  - name: login\n    request: {url: "\${base}/login"}\n    capture: {t: $.json.path}\n  - name: read\n    tags: [read]\n    request: {url: "\${base}/\${steps.login.capture.t}"}\n  - name: write\n    tags: [write]\n    request: {url: "\${base}/w"}\n`;
  await withFiles({ "t.yaml": tagged }, async (dir) => {
    const whole = await loadFlows([dir], { params, tags: "read" });
    const held = await loadFlowsDeferred([dir], { params, tags: "read" }, 0);
    const flow = held.flows[0];
    assert.ok(isDeferred(flow));
    const parsed = await flow.load();
    assert.deepEqual(parsed.steps.map((s) => s.name), ["login", "read"]);
    assert.deepEqual(parsed, whole.flows[0]);
  });
});

Deno.test("deferred flows run in order under --jobs, and list their steps when not run", async () => {
  const files = {
    "a.yaml": plain("a"),
    "b.yaml": plain("b", "fail"),
    "c.yaml": plain("c"),
    "d.yaml": plain("d"),
    "e.yaml": plain("e"),
  };
  await withFiles(files, async (dir) => {
    const api = serve();
    try {
      const run = new Map([["base", api.base]]);
      const ordered = await loadFlowsDeferred([dir], { params: run }, 1);
      const all = await runFlows(ordered.flows, { params: run, jobs: 2 });
      assert.deepEqual(all.flows.map((f) => `${f.name} ${f.status}`), [
        "a passed",
        "b failed",
        "c passed",
        "d passed",
        "e passed",
      ]);
      const held = await loadFlowsDeferred([dir], { params: run }, 1);
      const stopped = await runFlows(held.flows, {
        params: run,
        jobs: 1,
        failFast: true,
        release: true,
      });
      assert.equal(held.flows.length, 0, "handed over: the list is emptied");
      assert.deepEqual(stopped.flows.map((f) => `${f.name} ${f.status}`), [
        "a passed",
        "b failed",
        "c skipped",
        "d skipped",
        "e skipped",
      ]);
      for (const f of stopped.flows.slice(2)) {
        assert.deepEqual(f.steps.map((s) => s.name), ["get", "again"]);
        assert.match(
          f.steps[0].message ?? "",
          /--fail-fast stopped the run after .*b\.yaml failed/,
        );
      }
    } finally {
      await api.close();
    }
  });
});

Deno.test("with a spill, deferred bytes leave the loaded set and come back when the flow is parsed", async () => {
  const files: Record<string, string> = {};
  for (const n of ["a", "b", "c", "d", "e"]) files[`${n}.yaml`] = plain(n);
  await withFiles(files, async (dir) => {
    const whole = await loadFlows([dir], { params });
    const spill = byteSpill();
    try {
      const held = await loadFlowsDeferred([dir], { params, spill }, 1);
      assert.deepEqual(held.flows.map(isDeferred), [false, true, true, true, true]);
      // Only the parsed flow's bytes stay in memory until the others are parsed again.
      assert.deepEqual([...held.bytes.keys()], [whole.files[0]]);
      // Changed on disk after the check: the spill still has the bytes that were checked.
      await Deno.writeTextFile(`${dir}/d.yaml`, plain("changed"));
      for (const [i, f] of held.flows.entries()) {
        // A flow read back as checked has no members holding `undefined` (JSON drops them).
        assert.deepEqual(asJson(isDeferred(f) ? await f.load() : f), asJson(whole.flows[i]));
        assert.equal(
          new TextDecoder().decode(held.bytes.get(whole.files[i])),
          files[whole.files[i].replace(/^.*\//, "")],
        );
      }
      // Nothing is left in the temporary directory, even before the spill is closed.
      const temp = Deno.env.get("TMPDIR") ?? "/tmp";
      if (Deno.build.os !== "windows") {
        for await (const e of Deno.readDir(temp)) assert.ok(!e.name.startsWith("flowrun-flows-"));
      }
    } finally {
      spill.close();
    }
  });
});

Deno.test("with a spill and a problem, every file's bytes are back for the manifest", async () => {
  await withFiles(
    {
      "a.yaml": plain("a"),
      "b.yaml": plain("b"),
      "c.yaml": plain("c"),
      "z.yaml": "name: z\nstep: []\n",
    },
    async (dir) => {
      const spill = byteSpill();
      try {
        const held = await loadFlowsDeferred([dir], { params, spill }, 0);
        assert.equal(held.problems[0]?.code, "unknown-key");
        assert.deepEqual([...held.bytes.keys()].sort(), held.files.slice().sort());
        assert.equal(new TextDecoder().decode(held.bytes.get(held.files[1])), plain("b"));
      } finally {
        spill.close();
      }
    },
  );
});

Deno.test("the CLI runs a suite past the window from the spill: manifest, reports and quoted lines", async () => {
  const files: Record<string, string> = {};
  const count = PARSED_FLOW_WINDOW + 20;
  const failing = PARSED_FLOW_WINDOW + 1;
  // 20 deferred files of 14 KiB: past the spill's 256 KiB batch, so the first ones are read back
  // from its file, not from memory.
  const padding = `# ${"padding ".repeat(12)}\n`.repeat(140);
  for (let i = 0; i < count; i++) {
    const n = String(i).padStart(4, "0");
    // One of those fails, so the console quotes a line of bytes that came back from the disk.
    const flow = plain(`f${n}`, i === failing ? "fail" : `ok${n}`);
    files[`f${n}.yaml`] = i >= PARSED_FLOW_WINDOW ? padding + flow : flow;
  }
  await withFiles(files, async (dir) => {
    const api = serve();
    try {
      const got = await runCli([
        "run",
        dir,
        "--jobs",
        "2",
        "--out-dir",
        `${dir}/out`,
        "--var",
        `base=${api.base}`,
      ]);
      assert.equal(got.code, 1, got.stderr);
      assert.match(got.stdout, /assert: \{status: 200\}/);
      const manifest = JSON.parse(await Deno.readTextFile(`${dir}/out/manifest.json`));
      assert.equal(manifest.flows.length, count);
      for (const f of manifest.flows) {
        const name = f.file.replace(/^.*\//, "");
        const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(files[name]));
        assert.equal(
          f.sha256,
          Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join(""),
          name,
        );
      }
      const report = JSON.parse(await Deno.readTextFile(`${dir}/out/report.json`));
      assert.equal(report.flows.length, count);
      assert.deepEqual(report.totals.flows, {
        total: count,
        passed: count - 1,
        failed: 1,
        error: 0,
        skipped: 0,
      });
    } finally {
      await api.close();
    }
  });
});

Deno.test("with a spill, a deferred flow comes back as checked, not parsed and checked again", async () => {
  const files: Record<string, string> = {};
  for (const n of ["a", "b", "c"]) files[`${n}.yaml`] = plain(n);
  // Not exact in JSON (-0 becomes 0): this one is parsed again from its bytes.
  files["d.yaml"] = `${plain("d")}    assert: {json: [{path: $.json.n, equals: -0.0}]}\n`;
  await withFiles(files, async (dir) => {
    const whole = await loadFlows([dir], { params });
    const inner = byteSpill();
    const puts: string[] = [];
    const spill = {
      put(bytes: Uint8Array) {
        puts.push(new TextDecoder().decode(bytes));
        // The spill may hold a piece in memory: it must not be a view into a larger buffer.
        assert.equal(bytes.buffer.byteLength, bytes.byteLength, "the piece holds a larger buffer");
        return inner.put(bytes);
      },
    };
    try {
      const held = await loadFlowsDeferred([dir], { params, spill }, 1);
      // One piece a flow. b and c: their bytes, then the flow as checked; d: its bytes only.
      const rest = (put: string, name: string) => {
        assert.ok(put.startsWith(files[`${name}.yaml`]));
        return put.slice(files[`${name}.yaml`].length);
      };
      assert.equal(puts.length, 3);
      assert.deepEqual(JSON.parse(rest(puts[0], "b")), asJson(whole.flows[1]));
      assert.deepEqual(JSON.parse(rest(puts[1], "c")), asJson(whole.flows[2]));
      assert.equal(rest(puts[2], "d"), "");
      for (const [i, f] of held.flows.entries()) {
        const loaded = isDeferred(f) ? await f.load() : f;
        if (i === 3) {
          // Parsed again: equal to the check's flow, -0 and all.
          assert.deepEqual(loaded, whole.flows[3]);
          const check = loaded.steps[1].assert?.paths?.[0];
          assert.ok(Object.is((check?.expected as { value?: unknown }).value, -0));
        } else assert.deepEqual(asJson(loaded), asJson(whole.flows[i]));
      }
    } finally {
      inner.close();
    }
  });
});
