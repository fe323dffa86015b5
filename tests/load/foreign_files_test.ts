/**
 * A file a flow or an option names (an include, a check file, `--auth-file`, a vars file's auth)
 * that is not YAML of its kind is named in one problem, never quoted: seen, `include:
 * ../../home/.aws/credentials` and `--auth-file ~/.netrc` printed the secret key's line into the
 * CI log. The flow files the user gave keep their excerpts.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

const SECRET = "wJalrXUtnFEMI-K7MDENG-bPxRfiCYEXAMPLEKEY";
const FILES: Record<string, string> = {
  "home/.aws/credentials":
    `[default]\naws_access_key_id = AKIAEXAMPLE\naws_secret_access_key = ${SECRET}\n`,
  "home/netrc": `machine api.example.com login bob password ${SECRET}\n`,
  "home/env": `API_TOKEN: ${SECRET}\n  bad: [indent\n`,
  "home/list.yaml": `- ${SECRET}\n`,
};

async function project(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-foreign-" });
  for (const [name, text] of Object.entries(FILES)) {
    await Deno.mkdir(`${dir}/${name.replace(/\/[^/]*$/, "")}`, { recursive: true });
    await Deno.writeTextFile(`${dir}/${name}`, text);
  }
  await Deno.mkdir(`${dir}/flows`);
  await Deno.writeTextFile(
    `${dir}/flows/plain.yaml`,
    'name: plain\nsteps:\n  - name: s\n    request: {url: "http://127.0.0.1:9"}\n',
  );
  return dir;
}

Deno.test("an included or check file that is not YAML of its kind is named, not quoted", async () => {
  const dir = await project();
  try {
    const steps = Object.keys(FILES).map((name, i) => `  - name: i${i}\n    include: ../${name}\n`);
    await Deno.writeTextFile(
      `${dir}/flows/f.yaml`,
      `name: f\nsteps:\n${steps.join("")}  - name: c\n    request: {url: "http://127.0.0.1:9"}\n` +
        `    assert:\n      checks: ../home/.aws/credentials\n`,
    );
    for (const command of ["validate", "run"]) {
      const cli = await runCli([command, `${dir}/flows/f.yaml`]);
      assert.equal(cli.code, 2, cli.stdout + cli.stderr);
      const out = cli.stdout + cli.stderr;
      assert.ok(!out.includes(SECRET) && !out.includes("AKIAEXAMPLE"), out);
      for (const name of ["home/.aws/credentials", "home/netrc", "home/env", "home/list.yaml"]) {
        assert.match(
          out,
          new RegExp(
            `${name.replaceAll(".", "\\.")}:\\d+:\\d+ error\\[[a-z-]+\\]: The included file .*${
              name.replaceAll(".", "\\.")
            } is not (YAML|a YAML map): its text is not shown`,
          ),
          `${name}\n${out}`,
        );
      }
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("--auth-file naming a file that is not YAML of an auth file is named, not quoted", async () => {
  const dir = await project();
  try {
    for (const name of ["home/.aws/credentials", "home/netrc", "home/env", "home/list.yaml"]) {
      const cli = await runCli([
        "validate",
        `${dir}/flows/plain.yaml`,
        "--auth-file",
        `${dir}/${name}`,
      ]);
      assert.equal(cli.code, 2, cli.stdout + cli.stderr);
      const out = cli.stdout + cli.stderr;
      assert.ok(!out.includes(SECRET) && !out.includes("AKIAEXAMPLE"), out);
      assert.match(out, /The auth file .* is not (YAML|a YAML map): its text is not shown/, out);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a flow file the user gave keeps its excerpt", async () => {
  const dir = await project();
  try {
    await Deno.writeTextFile(
      `${dir}/flows/bad.yaml`,
      "name: bad\nsteps:\n  - name: s\n   request: {}\n",
    );
    const cli = await runCli(["validate", `${dir}/flows/bad.yaml`]);
    assert.equal(cli.code, 2);
    assert.ok((cli.stdout + cli.stderr).includes("\n4 |    request: {}\n"), cli.stdout);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
