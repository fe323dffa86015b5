/**
 * `flowrun convert curl` as a user runs it: standard input, `-o` into
 * another folder (the files commands send referenced from there), `--spelling
 * b`, `validate` passing on what was written, the same bytes twice, and every
 * bad input as one clear sentence with exit 2 and no stack trace.
 */
import assert from "node:assert/strict";
import { RUNNER_PERMISSIONS, RUNNER_V8_FLAGS } from "../../scripts/permissions.ts";
import { runCli } from "../support/cli.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/** Runs the CLI with `input` on its standard input. */
async function withStdin(args: string[], input: string, cwd: string) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...RUNNER_PERMISSIONS, ...RUNNER_V8_FLAGS, `${ROOT}cli.ts`, ...args],
    cwd,
    env: { NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(input));
  await writer.close();
  const out = await child.output();
  return {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  };
}

const COMMANDS = `curl 'https://api.test/v1/items' -H 'authorization: Bearer abcdef0123456789' \\
  -F 'photo=@pics/box.png;type=image/png' -F 'note=<notes/n.txt' --data-ascii ignored-by-F
curl -X PUT https://api.test/v1/items/7/raw --data-binary @pics/box.png -H 'x-api-key: k3y_live_99'
curl -G https://api.test/v1/search --data-urlencode 'q=a b' -d limit=5 -sS
`;

Deno.test("convert curl - reads standard input; -o elsewhere rebases the files; spelling b validates", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-curl-cli-" });
  try {
    await Deno.mkdir(`${dir}/pics`);
    await Deno.mkdir(`${dir}/notes`);
    await Deno.mkdir(`${dir}/flows`);
    await Deno.writeFile(`${dir}/pics/box.png`, new Uint8Array([137, 80, 78, 71]));
    await Deno.writeTextFile(`${dir}/notes/n.txt`, "fragile");
    for (const spelling of ["a", "b"]) {
      const out = `flows/items_${spelling}.yaml`;
      const converted = await withStdin(
        ["convert", "curl", "-", "-o", out, "--spelling", spelling, "--name", "Items"],
        COMMANDS,
        dir,
      );
      assert.equal(converted.code, 0, converted.stderr);
      assert.equal(converted.stdout, "");
      assert.match(converted.stderr, /^Converted 3 curl commands into 3 steps\.$/m);
      assert.match(converted.stderr, /^Set before running: API_TOKEN, API_KEY\.$/m);
      const yaml = await Deno.readTextFile(`${dir}/${out}`);
      assert.match(yaml, /^name: Items$/m);
      assert.match(yaml, /photo: \{ file: "\.\.\/pics\/box\.png", content_type: image\/png \}/);
      assert.ok(!yaml.includes("ignored-by-F"), yaml);
      assert.match(
        converted.stderr,
        /curl refuses -F together with -d and its kin; the form is sent/,
      );
      assert.match(yaml, /note: fragile/);
      assert.match(yaml, /body_file: "\.\.\/pics\/box\.png"/);
      assert.match(yaml, /url: \$\{(vars\.)?base_url\}\/v1\/search\?q=a\+b&limit=5/);
      assert.ok(!yaml.includes("abcdef0123456789") && !yaml.includes("k3y_live_99"), yaml);
      const validated = await runCli(["validate", out, "--no-env"], { cwd: dir });
      assert.equal(validated.code, 0, `${validated.stdout}${validated.stderr}\n${yaml}`);
    }
    const a = await Deno.readTextFile(`${dir}/flows/items_a.yaml`);
    assert.match(a, /authorization: Bearer \$\{ENV\.API_TOKEN\}/);
    const b = await Deno.readTextFile(`${dir}/flows/items_b.yaml`);
    assert.match(b, /authorization: Bearer \$\{API_TOKEN\}/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert curl: the same file gives the same bytes", async () => {
  const fixture = "tests/fixtures/curl/chrome_bash.sh";
  const [one, two] = await Promise.all([
    runCli(["convert", "curl", fixture]),
    runCli(["convert", "curl", fixture]),
  ]);
  assert.equal(one.code, 0, one.stderr);
  assert.equal(one.stdout, two.stdout);
  assert.equal(one.stderr, two.stderr);
});

Deno.test("convert curl: bad input is one sentence, exit 2, no stack trace", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-curl-bad-" });
  try {
    await Deno.writeTextFile(`${dir}/open.sh`, "curl https://a.test/ \\\n  -H 'x: y\n");
    await Deno.writeTextFile(`${dir}/none.sh`, "echo hello\n");
    await Deno.writeTextFile(`${dir}/huge.sh`, "#".repeat(16 * 1024 * 1024 + 1));
    const cases: [string[], RegExp][] = [
      [
        ["open.sh"],
        /^error\[bad-curl\]: Unterminated single quote at line 2, column 6\.\n {2}hint: /,
      ],
      [
        ["none.sh"],
        /^error\[bad-curl\]: The input holds no curl command \(1 command, none starting with "curl"\)\.\n/,
      ],
      [["missing.sh"], /^error\[no-such-path\]: No file "missing\.sh"\.\n/],
      [
        ["huge.sh"],
        /^error\[input-too-large\]: Cannot read the curl commands in "huge\.sh": .*\n {2}hint: Split/,
      ],
      [["open.sh", "none.sh"], /^error\[no-paths\]: Expected one file of curl commands/],
      [
        ["none.sh", "--spelling", "c"],
        /^error\[bad-spelling\]: Expected --spelling a or b, got "c"\./,
      ],
      [[], /^error\[bad-curl\]: The input holds no command\./],
    ];
    for (const [args, message] of cases) {
      const run = await runCli(["convert", "curl", ...args], { cwd: dir });
      assert.equal(run.code, 2, `${args.join(" ")}: ${run.stderr}`);
      assert.match(run.stderr, message);
      assert.ok(!/\n\s+at /.test(run.stderr), run.stderr);
      assert.equal(run.stdout, "");
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert curl --help lists its options", async () => {
  const run = await runCli(["convert", "curl", "--help"]);
  assert.equal(run.code, 0);
  assert.match(run.stdout, /^Usage: flowrun convert curl \[FILE\|-\] \[-o FILE\]/);
  for (const option of ["--output", "--name", "--spelling", "--help"]) {
    assert.ok(run.stdout.includes(option), option);
  }
});
